package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/schedcache/kubectl-schedcache/internal/fakeapi"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// lockedBuffer is stdout or stderr of a command running in a goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor polls out until it contains every want, or fails after a deadline.
func waitFor(t *testing.T, out *lockedBuffer, want ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := out.String()
		missing := ""
		for _, w := range want {
			if !strings.Contains(s, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("output lacks %q:\n%s", missing, s)
		}
		time.Sleep(5 * time.Millisecond) // polling output, not timing the code
	}
}

type watchRun struct {
	out, errOut *lockedBuffer
	cancel      context.CancelFunc
	done        chan int
}

// startWatch runs a command with --watch against a fake API server serving
// the fake clientset's objects (its writes reach the watch), connected with
// --server as a user would, with an empty kubeconfig.
func startWatch(t *testing.T, cs *fake.Clientset, build func(genericiooptions.IOStreams) *cobra.Command, args ...string) *watchRun {
	t.Helper()
	noKubeconfig(t)
	srv := fakeapi.New(t, cs.Tracker(), "v1.36.3")
	r := &watchRun{out: &lockedBuffer{}, errOut: &lockedBuffer{}, done: make(chan int, 1)}
	cmd := build(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: r.out, ErrOut: r.errOut})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(append([]string{"--server", srv.URL}, args...))
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		err := cmd.ExecuteContext(ctx)
		_, code := Outcome(ctx, err)
		r.done <- code
	}()
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
}

func list(kv ...string) corev1.ResourceList {
	rl := corev1.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		rl[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return rl
}

func watchNode(name, cpu string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.NodeStatus{Allocatable: list("cpu", cpu, "memory", "8Gi", "pods", "110")}}
}

func watchPod(name, nodeName, cpu string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name)},
		Spec: corev1.PodSpec{NodeName: nodeName, SchedulerName: corev1.DefaultSchedulerName,
			Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: list("cpu", cpu, "memory", "1Gi")}}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}
}

// TestDumpWatch: the whole table, then per batch a delta line and only the
// changed rows, in the same columns; Ctrl-C exits 130.
func TestDumpWatch(t *testing.T) {
	cs := fake.NewClientset(watchNode("node-1", "4"), watchNode("node-2-with-a-long-name", "8"), watchPod("a", "node-1", "500m"))
	r := startWatch(t, cs, NewCmdDump, "--watch")
	waitFor(t, r.out, "NAME", "node-2-with-a-long-name", "2 nodes, 1 pod, 0 assumed, 0 pending\n")

	if _, err := cs.CoreV1().Pods("default").Create(context.Background(), watchPod("b", "node-1", "1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, r.out, "node-1: pod default/b added\n")
	lines := strings.Split(strings.TrimSpace(r.out.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "node-1   ") || !strings.Contains(last, "2/110") || !strings.Contains(last, "1500m/4") {
		t.Errorf("changed row %q", last)
	}
	// The changed row is in the columns of the header.
	if strings.Index(lines[0], "ZONE") != strings.Index(last, "<none>") {
		t.Errorf("columns moved:\n%s\n%s", lines[0], last)
	}
	if n := strings.Count(r.out.String(), "node-2-with-a-long-name"); n != 1 {
		t.Errorf("unchanged node-2 printed %d times:\n%s", n, r.out.String())
	}
	t.Logf("output:\n%s", r.out.String())
	r.cancel()
	if code := <-r.done; code != ExitInterrupted {
		t.Errorf("exit %d, want 130", code)
	}
	r.done <- ExitInterrupted
}

// TestSnapshotWatchJSON: -o json prints CacheWatchEvent documents.
func TestSnapshotWatchJSON(t *testing.T) {
	cs := fake.NewClientset(watchNode("node-1", "4"), watchNode("node-2", "4"))
	r := startWatch(t, cs, NewCmdSnapshot, "--watch", "-o", "json")
	waitFor(t, r.out, `"type": "Initial"`)
	if _, err := cs.CoreV1().Pods("default").Create(context.Background(), watchPod("b", "node-2", "1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, r.out, `"type": "Changed"`, "pod default/b added")
	dec := json.NewDecoder(strings.NewReader(r.out.String()))
	var events []v1alpha1.CacheWatchEvent
	for dec.More() {
		var ev v1alpha1.CacheWatchEvent
		if err := dec.Decode(&ev); err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	if len(events) != 2 || events[0].Snapshot == nil || len(events[0].Snapshot.Nodes) != 2 {
		t.Fatalf("events %+v", events)
	}
	ch := events[1]
	if ch.Kind != "CacheWatchEvent" || ch.Sequence != 1 || ch.Generation.To <= ch.Generation.From ||
		len(ch.Snapshot.Nodes) != 1 || ch.Snapshot.Nodes[0].Name != "node-2" || ch.Snapshot.Nodes[0].Pods != 1 {
		t.Errorf("changed event %+v", ch)
	}
}

func TestWatchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"dump", "--watch", "-f", "testdata/clusters/edge.yaml"},
		{"dump", "--watch-only=false", "-f", "testdata/clusters/edge.yaml"},
		{"dump", "--watch", "--node", "x"},
		{"requested", "--watch", "--pod", "x"},
	} {
		if r := run(t, "", args...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want 2: %s", args, r.code, r.stderr)
		}
	}
}

// TestDumpWatchWideColumns: a batch of nodes without an extended resource
// keeps the column another node has, so no new header is printed.
func TestDumpWatchWideColumns(t *testing.T) {
	gpu := watchNode("gpu-1", "8")
	gpu.Status.Allocatable["example.com/gpu"] = resource.MustParse("4")
	cs := fake.NewClientset(gpu, watchNode("cpu-1", "4"))
	r := startWatch(t, cs, NewCmdDump, "--watch", "-o", "wide")
	waitFor(t, r.out, "EXAMPLE.COM/GPU", "2 nodes, 0 pods")
	if _, err := cs.CoreV1().Pods("default").Create(context.Background(), watchPod("b", "cpu-1", "1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, r.out, "cpu-1: pod default/b added\n")
	lines := strings.Split(strings.TrimSpace(r.out.String()), "\n")
	if n := strings.Count(r.out.String(), "EXAMPLE.COM/GPU"); n != 1 {
		t.Errorf("header printed %d times:\n%s", n, r.out.String())
	}
	header, row := lines[0], lines[len(lines)-1]
	if len(strings.Fields(row)) != len(strings.Fields(header))+2 { // cpu and memory add a "(pct%)" field each
		t.Errorf("row and header have different columns:\n%s\n%s", header, row)
	}
}

// TestRequestedWatchYAML: YAML documents after the first start with "---";
// each batch carries the changed row and the total.
func TestRequestedWatchYAML(t *testing.T) {
	cs := fake.NewClientset(watchNode("node-1", "4"), watchNode("node-2", "4"))
	r := startWatch(t, cs, NewCmdRequested, "--watch", "-o", "yaml")
	waitFor(t, r.out, "type: Initial")
	if _, err := cs.CoreV1().Pods("default").Create(context.Background(), watchPod("b", "node-2", "1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, r.out, "type: Changed")
	docs := strings.Split(r.out.String(), "\n---\n")
	if len(docs) != 2 || !strings.Contains(docs[1], "pod default/b added") || !strings.Contains(docs[1], "name: node-2") || strings.Contains(docs[1], "name: node-1") {
		t.Errorf("documents:\n%s", r.out.String())
	}
}

// TestDumpWatchNamespace: with -n, the events' dumps list that namespace's
// pods only; the summary still counts every pod.
func TestDumpWatchNamespace(t *testing.T) {
	cs := fake.NewClientset(watchNode("node-1", "4"), watchPod("a", "node-1", "500m"))
	r := startWatch(t, cs, NewCmdDump, "--watch", "-n", "other", "-o", "json")
	waitFor(t, r.out, `"type": "Initial"`)
	b := watchPod("b", "node-1", "1")
	b.Namespace = "other"
	if _, err := cs.CoreV1().Pods("other").Create(context.Background(), b, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, r.out, `"type": "Changed"`, "pod other/b added")
	dec := json.NewDecoder(strings.NewReader(r.out.String()))
	var pods []string
	for dec.More() {
		var ev v1alpha1.CacheWatchEvent
		if err := dec.Decode(&ev); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, n := range ev.Dump.Nodes {
			for _, p := range n.Pods {
				names = append(names, p.Namespace+"/"+p.Name)
			}
		}
		pods = append(pods, fmt.Sprintf("%s %d %v", ev.Type, ev.Dump.Summary.Pods, names))
	}
	if got := strings.Join(pods, "; "); got != "Initial 1 []; Changed 2 [other/b]" {
		t.Errorf("events (type, summary pods, listed pods): %s", got)
	}
}
