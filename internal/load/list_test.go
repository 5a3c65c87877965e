package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"
	testingclock "k8s.io/utils/clock/testing"
)

const testHost = "https://10.0.0.1:6443"

var managed = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate}}

// Fixtures: three nodes and five pods, every one with managedFields.
var (
	testNodes = []corev1.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "node-c", ManagedFields: managed}}, // out of name order: list order is kept
		{ObjectMeta: metav1.ObjectMeta{Name: "node-a", ManagedFields: managed}},
		{ObjectMeta: metav1.ObjectMeta{Name: "node-b", ManagedFields: managed}},
	}
	testPods = []corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "dns", ManagedFields: managed}, Spec: corev1.PodSpec{NodeName: "node-a"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-1", ManagedFields: managed}, Spec: corev1.PodSpec{NodeName: "node-b"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-0", ManagedFields: managed}, Spec: corev1.PodSpec{NodeName: "node-c"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "batch", Name: "pending", ManagedFields: managed}}, // unassigned
		{ObjectMeta: metav1.ObjectMeta{Namespace: "batch", Name: "job", ManagedFields: managed}, Spec: corev1.PodSpec{NodeName: "node-a"}},
	}
)

// server answers list requests in pages, the continue token being the index
// of the next item, and records every request.
type server struct {
	mu       sync.Mutex
	requests map[string][]metav1.ListOptions // by resource
}

// record notes a request and returns the [from, to) window to serve and the
// continue token of the page (empty on the last one).
func (s *server) record(action k8stesting.Action, n int) (from, to int, next string) {
	opts := action.(k8stesting.ListActionImpl).GetListOptions()
	s.mu.Lock()
	if s.requests == nil {
		s.requests = map[string][]metav1.ListOptions{}
	}
	resource := action.GetResource().Resource
	s.requests[resource] = append(s.requests[resource], opts)
	s.mu.Unlock()
	from, _ = strconv.Atoi(opts.Continue)
	to = n
	if opts.Limit > 0 {
		to = min(n, from+int(opts.Limit))
	}
	if to < n {
		next = strconv.Itoa(to)
	}
	return from, to, next
}

// count returns the number of requests for resource so far. A pager may
// still be sending one after List returned on cancellation.
func (s *server) count(resource string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests[resource])
}

func (s *server) nodes(items []corev1.Node) k8stesting.ReactionFunc {
	return func(action k8stesting.Action) (bool, runtime.Object, error) {
		from, to, next := s.record(action, len(items))
		list := &corev1.NodeList{ListMeta: metav1.ListMeta{Continue: next}}
		for _, n := range items[from:to] {
			list.Items = append(list.Items, *n.DeepCopy())
		}
		return true, list, nil
	}
}

func (s *server) pods(items []corev1.Pod) k8stesting.ReactionFunc {
	return func(action k8stesting.Action) (bool, runtime.Object, error) {
		from, to, next := s.record(action, len(items))
		list := &corev1.PodList{ListMeta: metav1.ListMeta{Continue: next}}
		for _, p := range items[from:to] {
			list.Items = append(list.Items, *p.DeepCopy())
		}
		return true, list, nil
	}
}

// endless serves pages that always have a next one; before answering it
// calls before (if set) with the number of the request, from 1.
func (s *server) endless(before func(n int)) k8stesting.ReactionFunc {
	calls := 0
	return func(action k8stesting.Action) (bool, runtime.Object, error) {
		s.record(action, 0)
		calls++
		if before != nil {
			before(calls)
		}
		if action.GetResource().Resource == "nodes" {
			return true, &corev1.NodeList{ListMeta: metav1.ListMeta{Continue: "more"}, Items: []corev1.Node{{}}}, nil
		}
		return true, &corev1.PodList{ListMeta: metav1.ListMeta{Continue: "more"}, Items: []corev1.Pod{{}}}, nil
	}
}

func failWith(err error) k8stesting.ReactionFunc {
	return func(k8stesting.Action) (bool, runtime.Object, error) { return true, nil, err }
}

func newClient(nodes, pods k8stesting.ReactionFunc) *fake.Clientset {
	client := fake.NewClientset()
	client.PrependReactor("list", "nodes", nodes)
	client.PrependReactor("list", "pods", pods)
	return client
}

func TestList(t *testing.T) {
	tests := []struct {
		name         string
		pageSize     int64
		wantRequests map[string][]metav1.ListOptions
	}{
		{
			name:     "pages of 2, continue tokens followed",
			pageSize: 2,
			wantRequests: map[string][]metav1.ListOptions{
				"nodes": {{Limit: 2}, {Limit: 2, Continue: "2"}},
				"pods": {
					{Limit: 2, FieldSelector: PodFieldSelector},
					{Limit: 2, FieldSelector: PodFieldSelector, Continue: "2"},
					{Limit: 2, FieldSelector: PodFieldSelector, Continue: "4"},
				},
			},
		},
		{
			name: "default page size",
			wantRequests: map[string][]metav1.ListOptions{
				"nodes": {{Limit: 500}},
				"pods":  {{Limit: 500, FieldSelector: PodFieldSelector}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s server
			client := newClient(s.nodes(testNodes), s.pods(testPods))
			c, err := List(context.Background(), client, ListOptions{PageSize: tc.pageSize, Host: testHost})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			var wantNodes []*corev1.Node
			for _, n := range testNodes {
				n := n.DeepCopy()
				n.ManagedFields = nil
				wantNodes = append(wantNodes, n)
			}
			var wantPods []*corev1.Pod
			for _, p := range testPods {
				p := p.DeepCopy()
				p.ManagedFields = nil
				wantPods = append(wantPods, p)
			}
			if diff := cmp.Diff(wantNodes, c.Nodes); diff != "" {
				t.Errorf("nodes (-want,+got):\n%s", diff)
			}
			if diff := cmp.Diff(wantPods, c.Pods); diff != "" {
				t.Errorf("pods (-want,+got):\n%s", diff)
			}
			if want := "cluster " + testHost; c.Source != want {
				t.Errorf("Source = %q, want %q", c.Source, want)
			}
			if diff := cmp.Diff(tc.wantRequests, s.requests); diff != "" {
				t.Errorf("list requests (-want,+got):\n%s", diff)
			}
		})
	}
}

func TestListErrors(t *testing.T) {
	refused := &url.Error{Op: "Get", URL: testHost + "/api/v1/nodes?limit=500", Err: &net.OpError{
		Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 6443}, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED),
	}}
	noHost := &url.Error{Op: "Get", URL: "https://nope.invalid:6443/api/v1/pods", Err: &net.OpError{
		Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nope.invalid", IsNotFound: true},
	}}
	deadline := &url.Error{Op: "Get", URL: testHost + "/api/v1/pods", Err: context.DeadlineExceeded}
	forbiddenPods := apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "",
		errors.New(`User "jane" cannot list resource "pods" in API group "" at the cluster scope`))

	tests := []struct {
		name       string
		nodes      k8stesting.ReactionFunc // nil: the nodes list succeeds
		pods       k8stesting.ReactionFunc // nil: the pods list succeeds
		wantKind   ErrorKind
		wantErr    string
		wantIsKind func(error) bool // an upstream check that must still hold
	}{
		{
			name:     "forbidden, naming the user and the rule",
			pods:     failWith(forbiddenPods),
			wantKind: Forbidden,
			wantErr: `cannot list pods at the cluster scope: forbidden for user "jane"; kubectl-schedcache needs get/list on nodes and pods:
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: schedcache-reader
rules:
- apiGroups: [""]
  resources: ["nodes", "pods"]
  verbs: ["get", "list", "watch"]`,
			wantIsKind: apierrors.IsForbidden,
		},
		{
			name:       "forbidden without a user in the message",
			nodes:      failWith(apierrors.NewForbidden(schema.GroupResource{Resource: "nodes"}, "", errors.New("no RBAC policy matched"))),
			wantKind:   Forbidden,
			wantErr:    "cannot list nodes at the cluster scope: forbidden; kubectl-schedcache needs get/list on nodes and pods:\n" + rbacHint,
			wantIsKind: apierrors.IsForbidden,
		},
		{
			name:       "unauthorized",
			nodes:      failWith(apierrors.NewUnauthorized("Unauthorized")),
			wantKind:   Unauthorized,
			wantErr:    "the server rejected the credentials (Unauthorized): check --token / --kubeconfig / --context",
			wantIsKind: apierrors.IsUnauthorized,
		},
		{
			name:       "connection refused",
			nodes:      failWith(refused),
			wantKind:   Unreachable,
			wantErr:    "cannot reach the API server at " + testHost + ": dial tcp 10.0.0.1:6443: connect: connection refused",
			wantIsKind: func(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) },
		},
		{
			name:       "unknown host",
			pods:       failWith(noHost),
			wantKind:   Unreachable,
			wantErr:    "cannot reach the API server at " + testHost + ": dial tcp: lookup nope.invalid: no such host",
			wantIsKind: func(err error) bool { var dns *net.DNSError; return errors.As(err, &dns) },
		},
		{
			name:       "timeout",
			pods:       failWith(deadline),
			wantKind:   Unreachable,
			wantErr:    "cannot reach the API server at " + testHost + ": context deadline exceeded",
			wantIsKind: func(err error) bool { return errors.Is(err, context.DeadlineExceeded) },
		},
		{
			name:       "other API error",
			pods:       failWith(apierrors.NewInternalError(errors.New("etcd is sad"))),
			wantKind:   Other,
			wantErr:    "cannot list pods: Internal error occurred: etcd is sad",
			wantIsKind: apierrors.IsInternalError,
		},
		{
			name:       "expired continue token",
			pods:       failWith(apierrors.NewResourceExpired("the provided continue parameter is too old")),
			wantKind:   Other,
			wantErr:    "cannot list pods: the list expired on the server before it was read to the end (410 Gone); retry, or raise the page size",
			wantIsKind: apierrors.IsResourceExpired,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s server
			// A listing that does not fail never ends on its own: it must be
			// canceled by the failure of the other one.
			nodes, pods := tc.nodes, tc.pods
			if nodes == nil {
				nodes = s.endless(nil)
			}
			if pods == nil {
				pods = s.endless(nil)
			}
			c, err := List(context.Background(), newClient(nodes, pods), ListOptions{Host: testHost})
			if err == nil {
				t.Fatalf("List returned %d nodes and %d pods, want an error", len(c.Nodes), len(c.Pods))
			}
			if got := err.Error(); got != tc.wantErr {
				t.Errorf("error:\n got %q\nwant %q", got, tc.wantErr)
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tc.wantKind {
				t.Errorf("error %#v, want an *Error of kind %v", err, tc.wantKind)
			}
			if !tc.wantIsKind(err) {
				t.Errorf("the underlying error is not reachable through %v", err)
			}
		})
	}
}

func TestListCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var s server
	// Ctrl-C while the first pods page is in flight; both listings would go on forever.
	client := newClient(s.endless(nil), s.endless(func(int) { cancel() }))
	_, err := List(ctx, client, ListOptions{Host: testHost})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("List error = %v, want one wrapping context.Canceled", err)
	}
	if k := KindOf(err); k != Other {
		t.Errorf("KindOf = %v, want Other", k)
	}
	if n := s.count("pods"); n != 1 {
		t.Errorf("%d pod list requests, want 1: the listing went on after the cancellation", n)
	}
}

// syncWriter is a concurrency-safe buffer that also signals each write.
type syncWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes chan struct{}
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.writes <- struct{}{}:
	default:
	}
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestListProgress(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	out := &syncWriter{writes: make(chan struct{}, 1)}
	reached, proceed := make(chan struct{}), make(chan struct{})
	var s server
	pods := s.pods(testPods)
	// The second pods page waits until the test has seen a progress line.
	slowPods := func(action k8stesting.Action) (bool, runtime.Object, error) {
		if action.(k8stesting.ListActionImpl).GetListOptions().Continue != "" {
			select {
			case <-reached:
			default:
				close(reached)
				<-proceed
			}
		}
		return pods(action)
	}
	done := make(chan error)
	var c *Cluster
	go func() {
		var err error
		c, err = List(context.Background(), newClient(s.nodes(testNodes), slowPods), ListOptions{PageSize: 2, Progress: out, clock: clk})
		done <- err
	}()

	<-reached
	if got := out.String(); got != "" {
		t.Errorf("progress written before a second had passed: %q", got)
	}
	clk.Step(1500 * time.Millisecond)
	<-out.writes
	close(proceed)
	if err := <-done; err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(c.Pods) != len(testPods) {
		t.Errorf("%d pods, want %d", len(c.Pods), len(testPods))
	}
	// One update during the listing, then the final counts and a newline.
	want := regexp.MustCompile(`^\rlisted [0-9]+(/[0-9]+)? nodes, [0-9]+(/[0-9]+)? pods *\rlisted 3 nodes, 5 pods *\n$`)
	if got := out.String(); !want.MatchString(got) {
		t.Errorf("progress = %q, want it to match %s", got, want)
	}
}

func TestListQuickWritesNoProgress(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	out := &syncWriter{writes: make(chan struct{}, 1)}
	var s server
	if _, err := List(context.Background(), newClient(s.nodes(testNodes), s.pods(testPods)), ListOptions{Progress: out, clock: clk}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "" {
		t.Errorf("progress = %q, want nothing for a listing shorter than a second", got)
	}
}

func TestProgressCounter(t *testing.T) {
	remaining := int64(149_000)
	tests := []struct {
		name  string
		pages func(c *counter)
		want  string
	}{
		{"nothing yet", func(*counter) {}, "0"},
		{
			name: "total from remainingItemCount",
			pages: func(c *counter) {
				c.page(1000, &remaining, false)
				c.listed.Store(999)
			},
			want: "999/150,000",
		},
		{
			name: "no remainingItemCount (field selector)",
			pages: func(c *counter) {
				c.page(500, nil, false)
				c.listed.Store(500)
			},
			want: "500",
		},
		{
			name: "finished",
			pages: func(c *counter) {
				c.page(1000, &remaining, false)
				c.page(1234, nil, true)
				c.listed.Store(2234)
			},
			want: "2,234",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCounter()
			tc.pages(c)
			if got := c.String(); got != tc.want {
				t.Errorf("counter = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 150000: "150,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestConfigureClient(t *testing.T) {
	tests := []struct {
		name                string
		qps                 float32
		burst               int
		wantQPS             float32
		wantBurst           int
		warnings            bool
		wantWarningsWritten string
	}{
		{name: "client-go defaults raised", wantQPS: ClientQPS, wantBurst: ClientBurst, warnings: true, wantWarningsWritten: "Warning: v1 Foo is deprecated\n"},
		{name: "higher limits kept", qps: 500, burst: 1000, wantQPS: 500, wantBurst: 1000},
		{name: "rate limiting off stays off", qps: -1, burst: 0, wantQPS: -1, wantBurst: ClientBurst},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &rest.Config{Host: testHost, QPS: tc.qps, Burst: tc.burst}
			var warnings bytes.Buffer
			if tc.warnings {
				ConfigureClient(cfg, &warnings)
			} else {
				ConfigureClient(cfg, nil)
			}
			if cfg.ContentType != "application/vnd.kubernetes.protobuf" || cfg.AcceptContentTypes != "application/vnd.kubernetes.protobuf,application/json" {
				t.Errorf("content types %q / %q", cfg.ContentType, cfg.AcceptContentTypes)
			}
			if cfg.QPS != tc.wantQPS || cfg.Burst != tc.wantBurst {
				t.Errorf("QPS/Burst = %v/%d, want %v/%d", cfg.QPS, cfg.Burst, tc.wantQPS, tc.wantBurst)
			}
			if !tc.warnings {
				if cfg.WarningHandler != nil {
					t.Errorf("WarningHandler set without a writer")
				}
				return
			}
			for range 2 {
				cfg.WarningHandler.HandleWarningHeader(299, "", "v1 Foo is deprecated")
			}
			if got := warnings.String(); got != tc.wantWarningsWritten {
				t.Errorf("warnings = %q, want %q", got, tc.wantWarningsWritten)
			}
		})
	}
}

func ExampleList() {
	client := fake.NewClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-0"}, Spec: corev1.PodSpec{NodeName: "node-a"}},
	)
	c, err := List(context.Background(), client, ListOptions{Host: "https://127.0.0.1:6443"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Source, len(c.Nodes), len(c.Pods))
	// Output: cluster https://127.0.0.1:6443 1 1
}

// TestListKinds lists the scheduling kinds besides nodes and pods: objects
// in the order of the kinds asked for, each kind in list order and paged,
// with managedFields dropped; a kind the user may not list (403) or the
// server does not serve (404) is a warning naming the plugins whose
// verdicts become approximate, and is recorded in Unlisted.
func TestListKinds(t *testing.T) {
	var s server
	client := newClient(s.nodes(testNodes), s.pods(testPods))
	client.PrependReactor("list", "persistentvolumeclaims", func(action k8stesting.Action) (bool, runtime.Object, error) {
		from, to, next := s.record(action, 3)
		list := &corev1.PersistentVolumeClaimList{ListMeta: metav1.ListMeta{Continue: next}}
		for i := from; i < to; i++ {
			list.Items = append(list.Items, corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "db", Name: fmt.Sprintf("data-%d", i), ManagedFields: managed}})
		}
		return true, list, nil
	})
	client.PrependReactor("list", "storageclasses", func(action k8stesting.Action) (bool, runtime.Object, error) {
		s.record(action, 1)
		return true, &storagev1.StorageClassList{Items: []storagev1.StorageClass{{ObjectMeta: metav1.ObjectMeta{Name: "fast"}}}}, nil
	})
	client.PrependReactor("list", "poddisruptionbudgets", failWith(apierrors.NewForbidden(schema.GroupResource{Group: "policy", Resource: "poddisruptionbudgets"}, "",
		errors.New(`User "jane" cannot list resource "poddisruptionbudgets" in API group "policy" at the cluster scope`))))
	client.PrependReactor("list", "resourceclaims", failWith(apierrors.NewNotFound(schema.GroupResource{Group: "resource.k8s.io", Resource: "resourceclaims"}, "")))
	kinds := []SchedulingKind{kindOfResource(t, "storageclasses"), kindOfResource(t, "poddisruptionbudgets"), kindOfResource(t, "persistentvolumeclaims"), kindOfResource(t, "resourceclaims")}

	var warnings bytes.Buffer
	c, err := List(context.Background(), client, ListOptions{PageSize: 2, Kinds: kinds, Warnings: &warnings})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range c.Objects {
		m, _ := meta.Accessor(o)
		if len(m.GetManagedFields()) > 0 {
			t.Errorf("%s kept its managedFields", m.GetName())
		}
		got = append(got, fmt.Sprintf("%T %s", o, m.GetName()))
	}
	want := []string{"*v1.StorageClass fast", "*v1.PersistentVolumeClaim data-0", "*v1.PersistentVolumeClaim data-1", "*v1.PersistentVolumeClaim data-2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects (-want,+got):\n%s", diff)
	}
	if n := len(s.requests["persistentvolumeclaims"]); n != 2 {
		t.Errorf("%d PVC list requests, want 2 pages of 2", n)
	}
	// No pod has a resource claim: resource.k8s.io not being served
	// changes no verdict and goes unsaid (TestListKindsDRANotServed).
	wantWarnings := `warning: cannot list poddisruptionbudgets.policy (forbidden for user "jane"): the verdicts of DefaultPreemption may be approximate
`
	if diff := cmp.Diff(wantWarnings, warnings.String()); diff != "" {
		t.Errorf("warnings (-want,+got):\n%s", diff)
	}
	if len(c.Unlisted) != 2 || c.Unlisted[0].Kind != "PodDisruptionBudget" || c.Unlisted[1].Kind != "ResourceClaim" {
		t.Errorf("Unlisted = %v", c.Unlisted)
	}
	if len(c.Nodes) != len(testNodes) || len(c.Pods) != len(testPods) {
		t.Errorf("%d nodes, %d pods", len(c.Nodes), len(c.Pods))
	}
}

// TestListKindsDRANotServed: a server older than v1.34 serves no
// resource.k8s.io/v1; its three kinds are one line, and only when a pod
// has a resource claim (DynamicResources skips pods without, v1.36).
func TestListKindsDRANotServed(t *testing.T) {
	notFound := func(res string) k8stesting.ReactionFunc {
		return failWith(apierrors.NewNotFound(schema.GroupResource{Group: "resource.k8s.io", Resource: res}, ""))
	}
	kinds := []SchedulingKind{kindOfResource(t, "resourceclaims"), kindOfResource(t, "resourceslices"), kindOfResource(t, "deviceclasses")}
	claim := "gpu"
	withClaim := append([]corev1.Pod(nil), testPods...)
	p := testPods[0].DeepCopy()
	p.Name, p.Spec.ResourceClaims = "with-claim", []corev1.PodResourceClaim{{Name: "gpu", ResourceClaimName: &claim}}
	withClaim = append(withClaim, *p)
	for _, tc := range []struct {
		name string
		pods []corev1.Pod
		want string
	}{
		{"no claims", testPods, ""},
		{"a claim", withClaim, "warning: cannot list resourceclaims.resource.k8s.io (and 2 more: resourceslices.resource.k8s.io, deviceclasses.resource.k8s.io) " +
			"(the server does not serve resource.k8s.io/v1): the verdicts of DynamicResources may be approximate\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s server
			client := newClient(s.nodes(testNodes), s.pods(tc.pods))
			for _, res := range []string{"resourceclaims", "resourceslices", "deviceclasses"} {
				client.PrependReactor("list", res, notFound(res))
			}
			var warnings bytes.Buffer
			c, err := List(context.Background(), client, ListOptions{Kinds: kinds, Warnings: &warnings})
			if err != nil {
				t.Fatal(err)
			}
			if warnings.String() != tc.want {
				t.Errorf("warnings %q, want %q", warnings.String(), tc.want)
			}
			if len(c.Unlisted) != 3 {
				t.Errorf("Unlisted = %v, want the three kinds", c.Unlisted)
			}
		})
	}
}

// TestListKindsOtherErrorsFail: other failures listing a scheduling kind
// fail the listing, as for nodes and pods.
func TestListKindsOtherErrorsFail(t *testing.T) {
	var s server
	client := newClient(s.nodes(testNodes), s.pods(testPods))
	client.PrependReactor("list", "services", failWith(apierrors.NewInternalError(errors.New("etcd is sad"))))
	_, err := List(context.Background(), client, ListOptions{Kinds: []SchedulingKind{kindOfResource(t, "services")}})
	if err == nil || err.Error() != "cannot list services: Internal error occurred: etcd is sad" {
		t.Errorf("error %v", err)
	}
}

// TestListEveryKind lists every scheduling kind through client-go's fake,
// which serves each from its tracker: every kind has a lister.
func TestListEveryKind(t *testing.T) {
	client := fake.NewClientset(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}}, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default"}})
	c, err := List(context.Background(), client, ListOptions{Kinds: SchedulingKinds})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Objects) != 1 || c.Unlisted != nil {
		t.Errorf("objects %v, unlisted %v: want the namespace", c.Objects, c.Unlisted)
	}
	c, err = List(context.Background(), client, ListOptions{})
	if err != nil || c.Objects != nil {
		t.Errorf("no kinds asked for: objects %v, %v", c.Objects, err)
	}
}

func kindOfResource(t *testing.T, resource string) SchedulingKind {
	t.Helper()
	for _, k := range SchedulingKinds {
		if k.GVR.Resource == resource {
			return k
		}
	}
	t.Fatalf("no scheduling kind %s", resource)
	return SchedulingKind{}
}

func TestProgressLineWithObjects(t *testing.T) {
	p := &progress{nodes: newCounter(), pods: newCounter(), objects: newCounter()}
	p.objects.listed.Store(1500)
	if got, want := p.line(), "listed 0 nodes, 0 pods, 1,500 other objects"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}

// TestListKeepEmptyDirAndDaemonSets: drain's listing keeps the pods'
// emptyDir volumes and lists DaemonSets (DaemonSetKind).
func TestListKeepEmptyDirAndDaemonSets(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-0"}, Spec: corev1.PodSpec{NodeName: "node-a",
		Volumes: []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}}}
	for _, keep := range []bool{false, true} {
		client := fake.NewClientset(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a"}}, pod.DeepCopy(),
			&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "agent"}})
		c, err := List(context.Background(), client, ListOptions{KeepEmptyDir: keep, Kinds: []SchedulingKind{DaemonSetKind()}})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(c.Pods[0].Spec.Volumes); got != map[bool]int{false: 0, true: 1}[keep] {
			t.Errorf("KeepEmptyDir %v: %d volumes", keep, got)
		}
		if len(c.Objects) != 1 {
			t.Errorf("objects: %v", c.Objects)
		} else if ds, ok := c.Objects[0].(*appsv1.DaemonSet); !ok || ds.Name != "agent" {
			t.Errorf("objects: %v", c.Objects)
		}
	}
}

// TestNoteClearsProgressLine: a note written while the progress line is
// shown clears the line first (carriage return, spaces, carriage return)
// instead of landing on it ("…28,540 podsnote: skipped…"); the progress
// line is drawn again after it, and ends with its newline.
func TestNoteClearsProgressLine(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	term := &syncWriter{writes: make(chan struct{}, 1)}
	stderr := NewStatusLine(term)
	nodes, pods := newCounter(), newCounter()
	nodes.listed.Store(3)
	pods.listed.Store(28_540)
	p := startProgress(stderr, clk, nodes, pods, nil)
	clk.Step(1500 * time.Millisecond)
	<-term.writes // the line is shown
	fmt.Fprintln(stderr, "note: skipped 261 terminal pods (Succeeded/Failed), as the scheduler does")
	p.Stop()
	line := "listed 3 nodes, 28,540 pods"
	want := "\r" + line + "\r" + strings.Repeat(" ", len(line)) + "\r" +
		"note: skipped 261 terminal pods (Succeeded/Failed), as the scheduler does\n" +
		"\r" + line + "\n"
	if got := term.String(); got != want {
		t.Errorf("terminal got %q, want %q", got, want)
	}
	// Without a progress line shown, output passes as it is.
	fmt.Fprint(stderr, "warning: x\n")
	if got := term.String(); got != want+"warning: x\n" {
		t.Errorf("terminal got %q after the progress ended", got)
	}
}

// OnNodeTotal is called once, with the first page's items plus the
// remainingItemCount it announces, as kube-apiserver sends for nodes.
func TestListOnNodeTotal(t *testing.T) {
	var s server
	pages := func(action k8stesting.Action) (bool, runtime.Object, error) {
		from, to, next := s.record(action, 5)
		list := &corev1.NodeList{ListMeta: metav1.ListMeta{Continue: next}}
		if next != "" {
			left := int64(5 - to)
			list.RemainingItemCount = &left
		}
		for i := from; i < to; i++ {
			list.Items = append(list.Items, corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%d", i)}})
		}
		return true, list, nil
	}
	client := newClient(pages, s.pods(nil))
	var got []int64
	c, err := List(context.Background(), client, ListOptions{PageSize: 2, OnNodeTotal: func(n int64) { got = append(got, n) }})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(c.Nodes) != 5 || !slices.Equal(got, []int64{5}) {
		t.Errorf("%d nodes, OnNodeTotal calls %v; want 5 nodes and [5]", len(c.Nodes), got)
	}
}
