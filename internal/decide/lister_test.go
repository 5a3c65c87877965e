package decide

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	st "k8s.io/kubernetes/pkg/scheduler/testing"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// The lister keeps one NodeInfo per node and overwrites it when the node
// changes: after a pod is assumed only that node's NodeInfo changes, in
// place, and every list still holds it; a new node rebuilds the lists.
func TestListerRefreshUpdatesChangedNodesInPlace(t *testing.T) {
	ch := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, n := range nodes(node("a"), node("b"), node("c")) {
		ch.AddNode(n)
	}
	anti := bound("anti", "b").PodAntiAffinityExists("app", v1.LabelHostname, st.PodAntiAffinityWithRequiredReq).Obj()
	if err := ch.AddPod(anti); err != nil {
		t.Fatal(err)
	}
	snap := cache.NewEmptySnapshot()
	l := newLister(2)
	refresh := func() {
		t.Helper()
		if err := ch.UpdateSnapshot(snap); err != nil {
			t.Fatal(err)
		}
		l.refresh(snap)
	}
	refresh()
	before := append([]fwk.NodeInfo(nil), l.list...)
	a, b, c := l.byName["a"], l.byName["b"], l.byName["c"]
	genA, genC := a.Generation, c.Generation
	antiInfo := b.Pods[0]
	if len(l.antiAff) != 1 || l.antiAff[0] != fwk.NodeInfo(b) {
		t.Fatalf("antiAff = %v, want node b's NodeInfo", nodeNames(l.antiAff))
	}

	if err := ch.AssumePod(bound("p", "b").Req(cpu("500m")).Obj()); err != nil {
		t.Fatal(err)
	}
	refresh()
	if l.byName["b"] != b || len(b.Pods) != 2 || b.Requested.MilliCPU != 500 {
		t.Errorf("node b: same object %v, %d pods, %d milliCPU; want the same object with 2 pods and 500 milliCPU",
			l.byName["b"] == b, len(b.Pods), b.Requested.MilliCPU)
	}
	// The pod that was there keeps its PodInfo (its affinity terms are not
	// parsed again), and the affinity list holds the pod list's PodInfo.
	if b.Pods[0] != antiInfo || len(b.PodsWithRequiredAntiAffinity) != 1 || b.PodsWithRequiredAntiAffinity[0] != antiInfo {
		t.Errorf("node b's existing pod got a new PodInfo, or its anti-affinity list another one")
	}
	if a.Generation != genA || c.Generation != genC {
		t.Errorf("unchanged nodes converted again: generations %d, %d; want %d, %d", a.Generation, c.Generation, genA, genC)
	}
	for i := range before {
		if l.list[i] != before[i] {
			t.Errorf("list[%d] replaced; want the same NodeInfo", i)
		}
	}
	if len(l.antiAff) != 1 || l.antiAff[0] != fwk.NodeInfo(b) {
		t.Errorf("antiAff = %v after the refresh, want node b's NodeInfo", nodeNames(l.antiAff))
	}

	ch.AddNode(node("d").Obj())
	refresh()
	if got := nodeNames(l.list); len(got) != 4 || l.byName["d"] == nil || l.byName["a"] != a {
		t.Errorf("after adding node d: list %v, d known %v, a kept %v", got, l.byName["d"] != nil, l.byName["a"] == a)
	}
}

func nodeNames(list []fwk.NodeInfo) []string {
	out := make([]string, len(list))
	for i, ni := range list {
		out[i] = ni.Node().Name
	}
	return out
}

// listPod skips an object the pod lister already holds, but not one that
// another object replaced under its key since.
func TestListPodFollowsReplacedObjects(t *testing.T) {
	e := cluster{nodes: nodes(node("n1"))}.evaluator(t)
	first, second := pod("p").Obj(), pod("p").Obj()
	holds := func(want *v1.Pod, what string) {
		t.Helper()
		got, ok, err := e.pods.GetByKey(testNS + "/p")
		if err != nil || !ok || got.(*v1.Pod) != want {
			t.Errorf("after %s the pod lister holds %p (found %v, %v), want %p", what, got, ok, err, want)
		}
	}
	e.listPod(first)
	holds(first, "the first object")
	e.listPod(second)
	holds(second, "another object under the same key")
	e.listPod(first)
	holds(first, "the first object again")
	e.listPod(first)
	holds(first, "the first object once more")
}

// SetPending nominates the queued pods whose status names a node, and
// those an earlier Schedule's preemption nominated, also when it is handed
// the same object again after that preemption.
func TestSetPendingNominations(t *testing.T) {
	e := cluster{
		nodes: nodes(node("n1")),
		bound: pods(bound("low", "n1").Req(cpu("2")).Priority(0)),
	}.evaluator(t)
	high := pod("high").Req(cpu("1")).Priority(100).Obj()
	waiting := pod("waiting").Req(cpu("1")).Priority(200).NominatedNodeName("n1").Obj()
	plain := pod("plain").Req(cpu("1")).Obj()
	nominated := func() []string {
		var out []string
		for _, pi := range e.nominator.NominatedPodsForNode("n1") {
			out = append(out, pi.GetPod().Name)
		}
		return out
	}
	e.SetPending([]*v1.Pod{high, waiting, plain})
	if got := nominated(); !cmp.Equal(got, []string{"waiting"}) {
		t.Errorf("before the preemption, n1's nominated pods are %v, want [waiting]", got)
	}
	v, err := e.Schedule(context.Background(), high)
	if err != nil || v.Preemption == nil || v.Preemption.NominatedNode != "n1" {
		t.Fatalf("Schedule(high) = %+v, %v; want a preemption nominating n1", v, err)
	}
	e.SetPending([]*v1.Pod{high, waiting, plain})
	if got := nominated(); !cmp.Equal(got, []string{"high", "waiting"}) {
		t.Errorf("after the preemption, n1's nominated pods are %v, want [high waiting]", got)
	}
}

// The nominator's published copy (read without the lock during cycles)
// follows every change: each change drops it, and until the next publish
// the answer comes from the locked maps.
func TestNominatorPublishedCopyFollowsChanges(t *testing.T) {
	n := newNominator()
	a, b := pod("a").NominatedNodeName("n1").Obj(), pod("b").NominatedNodeName("n1").Obj()
	names := func() []string {
		var out []string
		for _, pi := range n.NominatedPodsForNode("n1") {
			out = append(out, pi.GetPod().Name)
		}
		return out
	}
	steps := []struct {
		change func()
		want   []string
	}{
		{func() { n.AddNominatedPod(klog.Background(), newPodInfo(a), nil) }, []string{"a"}},
		{func() { n.AddNominatedPod(klog.Background(), newPodInfo(b), nil) }, []string{"a", "b"}},
		{func() { n.DeleteNominatedPodIfExists(a) }, []string{"b"}},
		{func() {
			n.UpdateNominatedPod(klog.Background(), b, newPodInfo(pod("b").NominatedNodeName("n2").Obj()))
		}, nil},
		{func() { n.AddNominatedPod(klog.Background(), newPodInfo(a), nil) }, []string{"a"}},
		{func() { n.replace(newNominator()) }, nil},
	}
	for i, s := range steps {
		n.publish()
		s.change()
		if got := names(); !slices.Equal(got, s.want) {
			t.Errorf("step %d before publish: %v, want %v", i, got, s.want)
		}
		n.publish()
		if got := names(); !slices.Equal(got, s.want) {
			t.Errorf("step %d after publish: %v, want %v", i, got, s.want)
		}
	}
}
