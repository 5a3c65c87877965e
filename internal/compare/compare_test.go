package compare

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

func list(kv ...string) v1.ResourceList {
	rl := v1.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		rl[v1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return rl
}

func node(name string, alloc ...string) *v1.Node {
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: v1.NodeStatus{Allocatable: list(alloc...)}}
}

func pod(ns, name, uid, nodeName string, phase v1.PodPhase, requests ...string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(uid)},
		Spec: v1.PodSpec{NodeName: nodeName, SchedulerName: DefaultSchedulerName, Containers: []v1.Container{{
			Name: "c", Resources: v1.ResourceRequirements{Requests: list(requests...)},
		}}},
		Status: v1.PodStatus{Phase: phase},
	}
}

// scenario is the cluster of internal/schedlog/testdata/README.md, whose real
// kube-scheduler v1.36.3 dump is captured-v1.36.3.log: the API objects that
// dump was taken of.
func scenario() *load.Cluster {
	preemptor := pod("default", "preemptor", "ea04c715-7db7-4f13-8719-edfd049b6af3", "", v1.PodPending, "cpu", "900m")
	preemptor.Status.NominatedNodeName = "node-b"
	return &load.Cluster{
		Nodes: []*v1.Node{
			node("node-a", "cpu", "2", "memory", "4Gi", "ephemeral-storage", "10Gi", "pods", "10", "example.com/widget", "4", "hugepages-2Mi", "0"),
			node("node-b", "cpu", "1", "memory", "2Gi", "pods", "5"),
		},
		Pods: []*v1.Pod{
			pod("default", "web-1", "afe676ca-01d7-4ac8-8daf-59206c685e41", "node-a", v1.PodRunning, "cpu", "500m", "memory", "256Mi", "example.com/widget", "1"),
			pod("team-x", "batch-1", "63298c89-8777-485e-a003-f3abfde1b762", "node-a", v1.PodPending, "cpu", "100m", "memory", "64Mi"),
			pod("default", "victim", "d2d71e97-42de-4039-92f9-f4ab41271b2e", "node-b", v1.PodPending, "cpu", "800m"),
			pod("default", "orphan", "80cf40c7-d410-494c-b5b9-ac83ed305b8c", "gone", v1.PodPending, "cpu", "100m", "memory", "64Mi"),
			preemptor,
		},
		Source: "test",
	}
}

func build(t *testing.T, c *load.Cluster) *model.Model {
	t.Helper()
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func captured(t *testing.T) *schedlog.Dump {
	t.Helper()
	f, err := os.Open("../../internal/schedlog/testdata/captured-v1.36.3.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := schedlog.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCapturedAgrees compares the real v1.36.3 dump with the objects it was
// taken of: they agree, though upstream's comparer (and the scheduler's own
// line in the log) counts the placeholder "gone" as a redundant node.
func TestCapturedAgrees(t *testing.T) {
	c := Compare(build(t, scenario()), captured(t), Options{Log: "captured"})
	if !c.Agree || len(c.Nodes) != 0 || c.Summary.Differences != 0 {
		t.Fatalf("differences: %+v", c)
	}
	want := v1alpha1.ComparisonSummary{SchedulerNodes: 3, SchedulerPods: 4, SchedulerPending: 1, Nodes: 3, Pods: 4, Pending: 1}
	if diff := cmp.Diff(want, c.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	wantComparer := v1alpha1.ComparerResult{MissedNodes: []string{}, RedundantNodes: []string{"gone"}, MissedPods: []string{}, RedundantPods: []string{}}
	if diff := cmp.Diff(wantComparer, c.Comparer); diff != "" {
		t.Errorf("comparer (-want +got):\n%s", diff)
	}
	if c.SchedulerComparer == nil || !cmp.Equal(c.SchedulerComparer.RedundantNodes, []string{"gone"}) {
		t.Errorf("scheduler's comparer: %+v", c.SchedulerComparer)
	}
	if c.Scheduler.Version != "v1.36.3" || c.Scheduler.StartLine != 6 || c.Scheduler.Layout != "v1.26-v1.36" {
		t.Errorf("scheduler dump: %+v", c.Scheduler)
	}
}

// TestDifferences changes the API side of the scenario one way at a time
// and checks that exactly the changed node or pod is named, with both values.
func TestDifferences(t *testing.T) {
	byName := func(c *load.Cluster, name string) *v1.Pod {
		for _, p := range c.Pods {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("no pod %s", name)
		return nil
	}
	without := func(c *load.Cluster, name string) {
		for i, p := range c.Pods {
			if p.Name == name {
				c.Pods = append(c.Pods[:i], c.Pods[i+1:]...)
				return
			}
		}
	}
	milli := func(n int64) v1alpha1.Resource { return v1alpha1.Resource{MilliCPU: n} }
	tests := []struct {
		name   string
		change func(c *load.Cluster)
		nodes  []v1alpha1.NodeComparison
		queue  v1alpha1.QueueComparison
	}{
		{
			name:   "pod deleted from the API, still in the scheduler's cache",
			change: func(c *load.Cluster) { without(c, "batch-1") },
			nodes: []v1alpha1.NodeComparison{{
				Name: "node-a", Scheduler: Node, API: Node,
				Requested: &v1alpha1.ResourcePair{
					Scheduler:        v1alpha1.Resource{MilliCPU: 600, Memory: 320 << 20, ScalarResources: map[string]int64{"example.com/widget": 1}},
					API:              v1alpha1.Resource{MilliCPU: 500, Memory: 256 << 20, ScalarResources: map[string]int64{"example.com/widget": 1}},
					NonZeroRequested: &v1alpha1.NonZeroResource{MilliCPU: 500, Memory: 256 << 20},
				},
				ExtraPods: []v1alpha1.ComparedPod{{Namespace: "team-x", Name: "batch-1", UID: "63298c89-8777-485e-a003-f3abfde1b762", Phase: "Pending", Elsewhere: Absent}},
			}},
		},
		{
			name: "pod bound in the API to a node the scheduler has not seen",
			change: func(c *load.Cluster) {
				c.Pods = append(c.Pods, pod("default", "new", "uid-new", "node-new", v1.PodPending, "cpu", "1"))
			},
			nodes: []v1alpha1.NodeComparison{{
				Name: "node-new", Scheduler: Absent, API: Placeholder,
				MissingPods: []v1alpha1.ComparedPod{{Namespace: "default", Name: "new", UID: "uid-new", Phase: "Pending", Elsewhere: Absent}},
			}},
		},
		{
			name:   "node added in the API",
			change: func(c *load.Cluster) { c.Nodes = append(c.Nodes, node("node-c", "cpu", "1")) },
			nodes:  []v1alpha1.NodeComparison{{Name: "node-c", Scheduler: Absent, API: Node}},
		},
		{
			name: "allocatable changed",
			change: func(c *load.Cluster) {
				c.Nodes[1] = node("node-b", "cpu", "2", "memory", "2Gi", "pods", "5")
			},
			nodes: []v1alpha1.NodeComparison{{
				Name: "node-b", Scheduler: Node, API: Node,
				Allocatable: &v1alpha1.ResourcePair{
					Scheduler: v1alpha1.Resource{MilliCPU: 1000, Memory: 2 << 30, AllowedPodNumber: 5},
					API:       v1alpha1.Resource{MilliCPU: 2000, Memory: 2 << 30, AllowedPodNumber: 5},
				},
			}},
		},
		{
			name: "the missing node was created: the scheduler still has no Node object",
			change: func(c *load.Cluster) {
				c.Nodes = append(c.Nodes, node("gone", "cpu", "1"))
			},
			nodes: []v1alpha1.NodeComparison{{Name: "gone", Scheduler: Deleted, API: Node}},
		},
		{
			name: "pending pod bound since the dump",
			change: func(c *load.Cluster) {
				p := byName(c, "preemptor")
				p.Spec.NodeName, p.Status.NominatedNodeName = "node-b", ""
			},
			nodes: []v1alpha1.NodeComparison{{
				Name: "node-b", Scheduler: Node, API: Node,
				Requested:      &v1alpha1.ResourcePair{Scheduler: milli(800), API: milli(1700), NonZeroRequested: &v1alpha1.NonZeroResource{MilliCPU: 1700, Memory: 400 << 20}},
				MissingPods:    []v1alpha1.ComparedPod{{Namespace: "default", Name: "preemptor", UID: "ea04c715-7db7-4f13-8719-edfd049b6af3", Phase: "Pending", Elsewhere: Pending}},
				ExtraNominated: []v1alpha1.ComparedPod{{Namespace: "default", Name: "preemptor", UID: "ea04c715-7db7-4f13-8719-edfd049b6af3", Phase: "Pending", Elsewhere: "bound to node node-b"}},
			}},
			queue: v1alpha1.QueueComparison{Extra: []v1alpha1.ComparedPod{{Namespace: "default", Name: "preemptor", UID: "ea04c715-7db7-4f13-8719-edfd049b6af3", Phase: "Pending", Elsewhere: "node node-b"}}},
		},
		{
			name: "pending pod the queue does not hold; another scheduler's is ignored",
			change: func(c *load.Cluster) {
				c.Pods = append(c.Pods, pod("default", "waiting", "uid-w", "", v1.PodPending, "cpu", "1"))
				other := pod("default", "other", "uid-o", "", v1.PodPending)
				other.Spec.SchedulerName = "my-scheduler"
				c.Pods = append(c.Pods, other)
			},
			queue: v1alpha1.QueueComparison{Missing: []v1alpha1.ComparedPod{{Namespace: "default", Name: "waiting", UID: "uid-w", Phase: "Pending", Elsewhere: Absent}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := scenario()
			tc.change(c)
			got := Compare(build(t, c), captured(t), Options{})
			if got.Agree {
				t.Fatal("agree")
			}
			if diff := cmp.Diff(tc.nodes, got.Nodes, cmp.Transformer("nilEmpty", nilEmpty)); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
			tc.queue.SchedulerNames = []string{DefaultSchedulerName}
			if diff := cmp.Diff(tc.queue, got.Queue); diff != "" {
				t.Errorf("queue (-want +got):\n%s", diff)
			}
		})
	}
}

func nilEmpty(s []v1alpha1.NodeComparison) []v1alpha1.NodeComparison {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestSchedulerHoldsMore: a pod the scheduler assumed (in a NodeInfo while
// still pending in the API), and a stale node the API no longer has.
func TestSchedulerHoldsMore(t *testing.T) {
	d := captured(t)
	d.Nodes[2].Pods = append(d.Nodes[2].Pods, schedlog.Pod{Name: "preemptor", Namespace: "default", UID: "ea04c715-7db7-4f13-8719-edfd049b6af3", Phase: "Pending"})
	d.Queue.Pods = nil
	d.Nodes = append(d.Nodes, schedlog.Node{Name: "stale", Allocatable: schedlog.Resource{MilliCPU: 1000}})
	got := Compare(build(t, scenario()), d, Options{})
	var names []string
	for _, n := range got.Nodes {
		names = append(names, n.Name)
	}
	if !cmp.Equal(names, []string{"node-b", "stale"}) || len(got.Queue.Missing)+len(got.Queue.Extra) != 0 {
		t.Fatalf("nodes %v, queue %+v", names, got.Queue)
	}
	if extra := got.Nodes[0].ExtraPods; len(extra) != 1 || extra[0].Elsewhere != Pending {
		t.Errorf("node-b extra pods %+v: want preemptor, pending in the API (assumed)", extra)
	}
	if s := got.Nodes[1]; s.Scheduler != Node || s.API != Absent {
		t.Errorf("stale: %+v", s)
	}
}

// TestDumpOfRoundTrip: the dump DumpOf renders for a model, written in the
// newest text layout and parsed back, agrees with that model; so does the
// scheduler's scalar 0 that a fresh cache never has.
func TestDumpOfRoundTrip(t *testing.T) {
	m := build(t, scenario())
	d := DumpOf(m)
	var b strings.Builder
	if err := schedlog.Write(&b, d, schedlog.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := schedlog.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	back.Nodes[2].Requested.ScalarResources = map[string]int64{"example.com/widget": 0}
	if c := Compare(m, back, Options{}); !c.Agree {
		t.Fatalf("differences: %+v", c.Nodes)
	}
}
