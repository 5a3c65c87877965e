package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// deadline bounds every wait of these tests; nothing waits for a fixed time.
const deadline = 30 * time.Second

func node(name string) *v1.Node {
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("4"), v1.ResourcePods: resource.MustParse("10")}}}
}

func pod(name, nodeName, cpu string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name)},
		Spec: v1.PodSpec{NodeName: nodeName, Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{
			Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu)}}}}},
		Status: v1.PodStatus{Phase: v1.PodPending},
	}
}

// recorder is a Render that records what it was given.
type recorder struct {
	initial chan string
	deltas  chan *Delta
}

func newRecorder() *recorder {
	return &recorder{initial: make(chan string, 1), deltas: make(chan *Delta, 100)}
}

func (r *recorder) render(m *model.Model, s *cache.Snapshot, d *Delta) (Text, error) {
	text := func(s string) Text { return func() (string, error) { return s, nil } }
	if d == nil {
		var names []string
		for _, ni := range s.List() {
			names = append(names, fmt.Sprintf("%s:%d", ni.Node().Name, len(ni.Pods)))
		}
		r.initial <- strings.Join(names, ",") + fmt.Sprintf(" pending=%d", len(m.Pending))
		return text("initial\n"), nil
	}
	r.deltas <- d
	return text(fmt.Sprintf("delta %d\n", d.Sequence)), nil
}

// waitDelta returns the next delta naming node with a reason containing want.
func (r *recorder) waitDelta(t *testing.T, node, want string) *Delta {
	t.Helper()
	timeout := time.After(deadline)
	for {
		select {
		case d := <-r.deltas:
			for _, c := range d.Changes {
				for _, reason := range c.Reasons {
					if c.Name == node && strings.Contains(reason, want) {
						return d
					}
				}
			}
		case <-timeout:
			t.Fatalf("no delta with %s: %q", node, want)
		}
	}
}

// syncBuffer is a goroutine-safe buffer for notes and output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// wrote, when set, gets a value after each write (dropped when full).
	wrote chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wrote != nil {
		select {
		case s.wrote <- struct{}{}:
		default:
		}
	}
	return s.b.Write(p)
}

// waitFor waits until the buffer holds want, for at most the deadline.
func (s *syncBuffer) waitFor(t *testing.T, want string) {
	t.Helper()
	timeout := time.After(deadline)
	for !strings.Contains(s.String(), want) {
		select {
		case <-s.wrote:
		case <-timeout:
			t.Fatalf("output %q, want %q in it", s.String(), want)
		}
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func start(t *testing.T, cs *fake.Clientset) (*recorder, *syncBuffer, *syncBuffer, context.CancelFunc, chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	rec, notes, out := newRecorder(), &syncBuffer{wrote: make(chan struct{}, 1)}, &syncBuffer{wrote: make(chan struct{}, 1)}
	w := New(Options{Client: cs, Source: "test", Notes: notes, Interval: time.Millisecond})
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, out, rec.render) }()
	t.Cleanup(func() {
		cancel()
		<-done //nolint:errcheck // only waits for Run to return; TestCancel checks what it returns
	})
	select {
	case got := <-rec.initial:
		t.Logf("initial: %s", got)
	case err := <-done:
		t.Fatalf("Run ended before the initial state: %v", err)
	case <-time.After(deadline):
		t.Fatal("no initial state")
	}
	return rec, notes, out, cancel, done
}

// TestEvents creates, binds, updates and deletes pods and nodes and checks
// each batch names the node and the reason, with the generation moving.
func TestEvents(t *testing.T) {
	cs := fake.NewClientset(node("n1"), node("n2"), pod("a", "n1", "100m"), pod("waiting", "", "100m"))
	rec, _, out, _, _ := start(t, cs)
	ctx := context.Background()
	pods := cs.CoreV1().Pods("default")

	if _, err := pods.Create(ctx, pod("b", "n2", "200m"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	d := rec.waitDelta(t, "n2", "pod default/b added")
	if d.To <= d.From {
		t.Errorf("generation %d -> %d did not move", d.From, d.To)
	}

	bound := pod("waiting", "n1", "100m")
	bound.ResourceVersion = "2"
	if _, err := pods.Update(ctx, bound, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitDelta(t, "n1", "pod default/waiting bound")

	bigger := pod("a", "n1", "300m")
	bigger.ResourceVersion = "3"
	if _, err := pods.Update(ctx, bigger, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitDelta(t, "n1", "pod default/a updated")

	if err := pods.Delete(ctx, "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitDelta(t, "n2", "pod default/b removed")

	if err := cs.CoreV1().Nodes().Delete(ctx, "n2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	d = rec.waitDelta(t, "n2", "node removed")
	if len(d.Changes) != 1 || !d.Changes[0].Gone {
		t.Errorf("node removal: %+v, want n2 gone", d.Changes)
	}

	// A pod bound to a node that does not exist: a placeholder appears.
	if _, err := pods.Create(ctx, pod("orphan", "ghost", "1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitDelta(t, "ghost", "pod default/orphan added")
	if !strings.HasPrefix(out.String(), "initial\ndelta 1\n") {
		t.Errorf("output %q", out.String())
	}
}

// TestPendingNomination: a pending pod changes no NodeInfo unless it is
// nominated, which changes the nominated node's row.
func TestPendingNomination(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	rec, _, _, _, _ := start(t, cs)
	p := pod("p", "", "1")
	p.Status.NominatedNodeName = "n1"
	if _, err := cs.CoreV1().Pods("default").Create(context.Background(), p, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	d := rec.waitDelta(t, "n1", "pod default/p nominated")
	if d.From != d.To {
		t.Errorf("a nomination moved the generation %d -> %d", d.From, d.To)
	}
}

// TestRelistAfterGone ends the pod watch with 410 Gone: the informer lists
// again, a note says so, and the model keeps following.
func TestRelistAfterGone(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	var mu sync.Mutex
	var watchers []*watch.FakeWatcher
	cs.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		fw := watch.NewFake()
		mu.Lock()
		watchers = append(watchers, fw)
		mu.Unlock()
		return true, fw, nil
	})
	rec, notes, _, _, _ := start(t, cs)
	mu.Lock()
	first := watchers[len(watchers)-1]
	mu.Unlock()
	gone := apierrors.NewResourceExpired("too old resource version: 1 (42)")
	first.Error(&gone.ErrStatus)
	deadlineAt := time.Now().Add(deadline)
	for !strings.Contains(notes.String(), "getting every object again") {
		if time.Now().After(deadlineAt) {
			t.Fatalf("no relist note; notes:\n%s", notes.String())
		}
		time.Sleep(10 * time.Millisecond) // polling a buffer, not timing the code
	}
	if !strings.Contains(notes.String(), "pods: too old resource version: 1 (42) (410 Expired)") {
		t.Errorf("note does not say why:\n%s", notes.String())
	}
	// The new watch delivers events again.
	var second *watch.FakeWatcher
	for second == nil {
		mu.Lock()
		if len(watchers) > 1 {
			second = watchers[len(watchers)-1]
		}
		mu.Unlock()
		if time.Now().After(deadlineAt) {
			t.Fatal("no second watch")
		}
		time.Sleep(10 * time.Millisecond)
	}
	p := pod("late", "n1", "1")
	p.ResourceVersion = "100"
	second.Add(p)
	rec.waitDelta(t, "n1", "pod default/late added")
}

// TestForbidden: a refused list ends Run with the listing's error, which
// names the permission to grant.
func TestForbidden(t *testing.T) {
	cs := fake.NewClientset()
	cs.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("RBAC: no"))
	})
	w := New(Options{Client: cs, Notes: &bytes.Buffer{}})
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	err := w.Run(ctx, &bytes.Buffer{}, newRecorder().render)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot list pods at the cluster scope: forbidden; kubectl-schedcache needs get/list on nodes and pods:") ||
		load.KindOf(err) != load.Forbidden {
		t.Fatalf("got %v", err)
	}
}

// TestWatchForbidden: a user who may list but not watch gets, at once, an
// error naming the missing verb and the ClusterRole that grants it, never
// a "watching again" between retries.
func TestWatchForbidden(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	cs.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "",
			errors.New(`User "jane" cannot watch resource "pods" in API group "" at the cluster scope`))
	})
	notes := &syncBuffer{}
	w := New(Options{Client: cs, Notes: notes})
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	err := w.Run(ctx, &bytes.Buffer{}, newRecorder().render)
	want := `cannot watch pods at the cluster scope: forbidden for user "jane"; --watch needs the verb watch on nodes and pods, besides get and list, as the ClusterRole schedcache-reader grants:`
	if err == nil || !strings.HasPrefix(err.Error(), want) || load.KindOf(err) != load.Forbidden {
		t.Fatalf("got %v, want %q…", err, want)
	}
	if strings.Contains(notes.String(), "again") || strings.Contains(notes.String(), "retrying") {
		t.Errorf("notes %q", notes.String())
	}
}

// TestFirstListUnreachable: before the initial state, a failed list ends
// Run with the listing's error (kind Unreachable), without retrying.
func TestFirstListUnreachable(t *testing.T) {
	cs := fake.NewClientset()
	cs.PrependReactor("list", "nodes", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, refused(1)
	})
	notes := &syncBuffer{}
	w := New(Options{Client: cs, Host: "https://h:6443", Notes: notes})
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	err := w.Run(ctx, &bytes.Buffer{}, newRecorder().render)
	want := "cannot reach the API server at https://h:6443: dial tcp 10.0.0.1:6443: connect: connection refused"
	if err == nil || err.Error() != want || load.KindOf(err) != load.Unreachable {
		t.Fatalf("got %v, want %q", err, want)
	}
	if notes.String() != "" {
		t.Errorf("notes %q, want none", notes.String())
	}
}

// refused is a connection refused as client-go reports it, its URL
// carrying a random timeout as every watch request's does.
func refused(attempt int) error {
	return &url.Error{Op: "Get", URL: fmt.Sprintf("https://h:6443/api/v1/pods?timeout=%dm%ds&watch=true", 5+attempt, attempt*7%60),
		Err: &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 6443}, Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}}
}

// TestOutageNotedOnce: after the initial state, watches refused twice
// (each retry's URL different, as client-go's random timeout makes them)
// give one note when the outage starts, with its cause, and one when the
// watch runs again; client-go's backoff paces the retries.
func TestOutageNotedOnce(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	var mu sync.Mutex
	var watchers []*watch.FakeWatcher
	attempts := 0
	cs.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		attempts++
		if attempts == 2 || attempts == 3 {
			return true, nil, refused(attempts)
		}
		fw := watch.NewFake()
		watchers = append(watchers, fw)
		return true, fw, nil
	})
	_, notes, _, _, _ := start(t, cs)
	mu.Lock()
	first := watchers[0]
	mu.Unlock()
	first.Stop() // the server went away
	notes.waitFor(t, "reconnected after")
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(notes.String()), "\n") {
		if !strings.Contains(line, "getting every object again") { // the relist after the watch ended
			got = append(got, line)
		}
	}
	start := regexp.MustCompile(`^note: \d\d:\d\d:\d\d: cannot reach the API server at \(unknown host\): dial tcp 10.0.0.1:6443: connect: connection refused; retrying with backoff \(Ctrl-C to stop\)$`)
	end := regexp.MustCompile(`^note: \d\d:\d\d:\d\d: reconnected after [0-9.]+m?s; \d+ changes? while away$`)
	if len(got) != 2 || !start.MatchString(got[0]) || !end.MatchString(got[1]) {
		t.Errorf("notes:\n%s\nwant two lines besides the relist's, matching\n%s\n%s", notes.String(), start, end)
	}
}

// TestForbiddenDuringOutage: a kube-apiserver just started again refuses
// requests (403) until its RBAC caches have synced (seen against the real
// v1.36.3 one): during an outage that is one more failure, retried, and the
// watch goes on to the reconnection note instead of ending.
func TestForbiddenDuringOutage(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	var mu sync.Mutex
	var watchers []*watch.FakeWatcher
	attempts := 0
	cs.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		attempts++
		switch attempts {
		case 2:
			return true, nil, refused(attempts)
		case 3:
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "",
				errors.New(`User "reader" cannot watch resource "pods" in API group "" at the cluster scope`))
		}
		fw := watch.NewFake()
		watchers = append(watchers, fw)
		return true, fw, nil
	})
	_, notes, _, _, _ := start(t, cs)
	mu.Lock()
	first := watchers[0]
	mu.Unlock()
	first.Stop() // the server went away
	notes.waitFor(t, "reconnected after")
	if strings.Contains(notes.String(), "forbidden") {
		t.Errorf("notes %q: the 403 during the outage was said", notes.String())
	}
}

// TestOutageNotes: the outage's notes, on a fake clock: one when it starts,
// none for later failures (whatever their text) or while another resource
// still fails, one when every resource is watched again, with the outage's
// length and the changes since.
func TestOutageNotes(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2026, 11, 27, 14, 2, 3, 0, time.UTC)
	o := newOutage(&noteWriter{w: &out, last: map[string]string{}}, func() time.Time { return now })
	o.failed("pods", "cannot reach the API server at h: connection refused")
	now = now.Add(5 * time.Second)
	o.failed("nodes", "cannot reach the API server at h: connection reset")
	o.failed("pods", "cannot reach the API server at h: connection refused (again)")
	now = now.Add(30 * time.Second)
	if o.watching("pods", 10) {
		t.Error("the outage ended while nodes still fail")
	}
	now = now.Add(6 * time.Second)
	if !o.watching("nodes", 10) {
		t.Error("the outage did not end once both are watched")
	}
	o.report(13)
	o.report(20) // once
	want := "note: 14:02:03: cannot reach the API server at h: connection refused; retrying with backoff (Ctrl-C to stop)\n" +
		"note: 14:02:44: reconnected after 41s; 3 changes while away\n"
	if out.String() != want {
		t.Errorf("notes:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestNoNotesAfterRun: once Run has returned (Ctrl-C), nothing more is
// written to Notes: no "retrying" after "interrupted".
func TestNoNotesAfterRun(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	notes := &syncBuffer{}
	w := New(Options{Client: cs, Notes: notes, Interval: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := w.Run(ctx, &bytes.Buffer{}, newRecorder().render); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v", err)
	}
	w.outage.failed("pods", "cannot reach the API server")
	w.notes.always("late")
	if notes.String() != "" {
		t.Errorf("notes after Run returned: %q", notes.String())
	}
}

// TestCancel: cancelling the context ends Run with context.Canceled and
// nothing more written.
func TestCancel(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	_, _, out, cancel, done := start(t, cs)
	// The initial state is rendered (start waited for that) but may not be
	// written yet: a cancellation before the write would rightly print
	// nothing, which is not what this test is about.
	out.waitFor(t, "initial\n")
	cancel()
	waitCanceled(t, done)
	if out.String() != "initial\n" {
		t.Errorf("output %q", out.String())
	}
}

// waitCanceled waits for Run (started by start) to return after a
// cancellation, and checks that it returned context.Canceled.
func waitCanceled(t *testing.T, done chan error) {
	t.Helper()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v", err)
		}
		done <- err // for the cleanup
	case <-time.After(deadline):
		t.Fatal("Run did not return")
	}
}

// TestCancelDuringOutage: Ctrl-C while client-go backs off between
// retries ends Run at once, with context.Canceled.
func TestCancelDuringOutage(t *testing.T) {
	cs := fake.NewClientset(node("n1"))
	var mu sync.Mutex
	var first *watch.FakeWatcher
	attempts := 0
	cs.PrependWatchReactor("pods", func(k8stesting.Action) (bool, watch.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		attempts++
		if attempts > 1 {
			return true, nil, refused(attempts)
		}
		first = watch.NewFake()
		return true, first, nil
	})
	_, notes, _, cancel, done := start(t, cs)
	mu.Lock()
	first.Stop()
	mu.Unlock()
	notes.waitFor(t, "retrying with backoff")
	cancel()
	waitCanceled(t, done)
}
