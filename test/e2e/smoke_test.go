//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

const testTimeout = 2 * time.Minute

// TestSmokeAccessAndAudit checks the harness itself: objects with status,
// the three users' rights through their kubeconfig files, and the audit log.
func TestSmokeAccessAndAudit(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{AuditLog: true})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()

	alloc := framework.Resources("cpu", "4", "memory", "8Gi", "pods", "110")
	var nodes []*corev1.Node
	for i := range 3 {
		n := framework.NewNode(fmt.Sprintf("node-%d", i), alloc)
		n.Labels["topology.kubernetes.io/zone"] = fmt.Sprintf("zone-%d", i%2)
		n.Status.Images = []corev1.ContainerImage{{Names: []string{"registry.k8s.io/pause:3.10"}, SizeBytes: 750_000}}
		nodes = append(nodes, n)
	}
	req := framework.Resources("cpu", "100m", "memory", "64Mi")
	var pods []*corev1.Pod
	for i := range 6 {
		pods = append(pods, framework.NewPod("smoke", fmt.Sprintf("pod-%d", i), nodes[i%3].Name, req))
	}
	// A running pod whose status says it was resized in place to 200m.
	pods[0].Status = corev1.PodStatus{
		Phase:      corev1.PodRunning,
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
		ContainerStatuses: []corev1.ContainerStatus{{
			Name: "app", Ready: true, Image: "registry.k8s.io/pause:3.10", ImageID: "registry.k8s.io/pause@sha256:0",
			State:     corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}},
			Resources: &corev1.ResourceRequirements{Requests: framework.Resources("cpu", "200m", "memory", "64Mi")},
		}},
	}
	// An unbound pod nominated to a node (no scheduler runs in this test).
	nominated := framework.NewPod("smoke", "nominated", "", req)
	nominated.Status = corev1.PodStatus{Phase: corev1.PodPending, NominatedNodeName: "node-1"}
	pods = append(pods, nominated)
	if err := framework.LoadObjects(ctx, c.AdminClient(), nodes, pods, 4); err != nil {
		t.Fatal(err)
	}

	// Node status sent on CREATE is kept; pod status went through /status.
	n0, err := c.AdminClient().CoreV1().Nodes().Get(ctx, "node-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := n0.Status.Allocatable.Cpu().String(); got != "4" || len(n0.Status.Images) != 1 {
		t.Errorf("node-0 status not kept: allocatable cpu %s, %d images", got, len(n0.Status.Images))
	}
	p0, err := c.AdminClient().CoreV1().Pods("smoke").Get(ctx, "pod-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p0.Status.Phase != corev1.PodRunning || len(p0.Status.ContainerStatuses) != 1 ||
		p0.Status.ContainerStatuses[0].Resources.Requests.Cpu().String() != "200m" {
		t.Errorf("pod-0 status not written: %+v", p0.Status)
	}
	pn, err := c.AdminClient().CoreV1().Pods("smoke").Get(ctx, "nominated", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pn.Status.NominatedNodeName != "node-1" {
		t.Errorf("nominated pod: nominatedNodeName %q, want node-1", pn.Status.NominatedNodeName)
	}

	reader := clientFromKubeconfig(t, c.Kubeconfig(framework.UserReader))
	podList, err := reader.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("reader list pods: %v", err)
	}
	nodeList, err := reader.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("reader list nodes: %v", err)
	}
	if len(podList.Items) != len(pods) || len(nodeList.Items) != len(nodes) {
		t.Errorf("reader sees %d pods and %d nodes, want %d and %d", len(podList.Items), len(nodeList.Items), len(pods), len(nodes))
	}
	if _, err := reader.CoreV1().Secrets("default").List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("reader list secrets: got %v, want Forbidden", err)
	}

	nopods := clientFromKubeconfig(t, c.Kubeconfig(framework.UserNoPods))
	if _, err := nopods.CoreV1().Nodes().List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("nopods list nodes: %v", err)
	}
	if _, err := nopods.CoreV1().Pods("").List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("nopods list pods: got %v, want Forbidden", err)
	}
	if _, err := nopods.CoreV1().Pods("smoke").Get(ctx, "pod-0", metav1.GetOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("nopods get pod: got %v, want Forbidden", err)
	}

	waitForAuditEvent(ctx, t, c.AuditLogPath, "reader", "list", "pods")
	waitForAuditEvent(ctx, t, c.AuditLogPath, "admin", "create", "pods")
}

// TestSmokeSchedulerCacheDump lets the real scheduler bind a pending pod
// and checks that its cache dump accounts the pod's requests on the node.
func TestSmokeSchedulerCacheDump(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()

	node := framework.NewNode("worker", framework.Resources(
		"cpu", "4", "memory", "8Gi", "ephemeral-storage", "20Gi", "pods", "110", "example.com/widget", "10"))
	if _, err := c.CreateNode(ctx, node); err != nil {
		t.Fatal(err)
	}
	pod := framework.NewPod("default", "pending", "", framework.Resources(
		"cpu", "250m", "memory", "128Mi", "ephemeral-storage", "1Gi", "example.com/widget", "2"))
	// Extended resources must also be limited, to the same amount.
	pod.Spec.Containers[0].Resources.Limits = framework.Resources("example.com/widget", "2")
	created, err := c.CreatePod(ctx, pod)
	if err != nil {
		t.Fatal(err)
	}

	sched := framework.StartScheduler(t, c)
	waitForBinding(ctx, t, c.AdminClient(), created)

	dump, err := sched.DumpCache(ctx)
	if err != nil {
		t.Fatalf("dump cache: %v", err)
	}
	if len(dump.Nodes) != 1 || dump.Nodes[0].Name != "worker" {
		t.Fatalf("dump has nodes %+v, want just worker", dump.Nodes)
	}
	got := dump.Nodes[0]
	got.Line = 0
	want := schedlog.Node{
		Name: "worker",
		Requested: schedlog.Resource{
			MilliCPU: 250, Memory: 128 << 20, EphemeralStorage: 1 << 30,
			ScalarResources: map[string]int64{"example.com/widget": 2},
		},
		Allocatable: schedlog.Resource{
			MilliCPU: 4000, Memory: 8 << 30, EphemeralStorage: 20 << 30, AllowedPodNumber: 110,
			ScalarResources: map[string]int64{"example.com/widget": 10},
		},
		Pods: []schedlog.Pod{{
			Name: "pending", Namespace: "default", UID: string(created.UID), Phase: string(corev1.PodPending),
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scheduler's NodeInfo of worker:\n got %+v\nwant %+v", got, want)
	}
}

func clientFromKubeconfig(t *testing.T, path string) kubernetes.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// waitForBinding polls until the scheduler has bound pod.
func waitForBinding(ctx context.Context, t *testing.T, client kubernetes.Interface, pod *corev1.Pod) {
	t.Helper()
	for {
		p, err := client.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err == nil && p.Spec.NodeName != "" {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("pod %s/%s was not bound: last error %v", pod.Namespace, pod.Name, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// auditEvent holds the audit.k8s.io/v1 Event fields the tests look at.
type auditEvent struct {
	Verb string `json:"verb"`
	User struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef *struct {
		Resource string `json:"resource"`
	} `json:"objectRef"`
}

// waitForAuditEvent polls the audit log (one JSON event per line) until an
// event of username doing verb on resource appears. Every line must be a
// JSON event with a verb and a username.
func waitForAuditEvent(ctx context.Context, t *testing.T, path, username, verb, resource string) {
	t.Helper()
	for {
		found, err := scanAudit(path, func(e auditEvent) bool {
			return e.User.Username == username && e.Verb == verb && e.ObjectRef != nil && e.ObjectRef.Resource == resource
		})
		if err != nil {
			t.Fatal(err)
		}
		if found {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no audit event of %s %s %s in %s", username, verb, resource, path)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func scanAudit(path string, match func(auditEvent) bool) (bool, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	found := false
	for sc.Scan() {
		var e auditEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// The apiserver may be writing this line right now.
			break
		}
		if e.Verb == "" || e.User.Username == "" {
			return false, fmt.Errorf("audit line without verb or user.username: %s", sc.Text())
		}
		found = found || match(e)
	}
	return found, sc.Err()
}
