package decide

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	st "k8s.io/kubernetes/pkg/scheduler/testing"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Carried Filter outcomes (carriedFilters) change no placement: on a
// generated cluster of 300 nodes, a sequence of pods placed one after
// another, each assumed where it lands, gets from an Evaluator that keeps
// the outcomes the verdicts (node, message, every node's result, the
// preemption) of one that filters every node of every cycle. The sequence
// interleaves many identical replicas (carried), pods that differ in shape
// only by request, node selector and tolerations (carried, each in its own
// table), pods with host ports (carried; the node that takes one changes
// its used ports), pods with required pod anti-affinity and with a
// DoNotSchedule topology spread (never carried: their Filter reads other
// nodes) and the cluster's own pending pods; twice a node leaves the
// cluster midway, so the tables follow a new node list. The outcomes must
// have been served, or the test shows nothing.
func TestCarriedFiltersPlaceAlike(t *testing.T) {
	cl, m, _ := generated(t, 300, 6000)
	pool := cl.Nodes[0].Labels[v1.LabelInstanceTypeStable]
	var seq []*v1.Pod
	for i := range 40 {
		seq = append(seq,
			pod(fmt.Sprintf("web-%d", i)).Label("app", "web").Req(map[v1.ResourceName]string{v1.ResourceCPU: "500m", v1.ResourceMemory: "1Gi"}).Obj(),
			pod(fmt.Sprintf("big-%d", i)).Label("app", "big").Req(map[v1.ResourceName]string{v1.ResourceCPU: "3", v1.ResourceMemory: "8Gi"}).Obj(),
			pod(fmt.Sprintf("pool-%d", i)).Label("app", "pool").NodeSelector(map[string]string{v1.LabelInstanceTypeStable: pool}).Toleration("dedicated").Req(cpu("1")).Obj())
		if i%2 == 0 {
			seq = append(seq,
				pod(fmt.Sprintf("port-%d", i)).Label("app", "port").ContainerPort([]v1.ContainerPort{{ContainerPort: 80, HostPort: 8080}}).Req(cpu("100m")).Obj(),
				pod(fmt.Sprintf("anti-%d", i)).Label("anti", "x").PodAntiAffinityExists("anti", v1.LabelHostname, st.PodAntiAffinityWithRequiredReq).Req(cpu("200m")).Obj(),
				pod(fmt.Sprintf("spread-%d", i)).Label("app", "spread").SpreadConstraint(1, v1.LabelTopologyZone, v1.DoNotSchedule, selector("app", "spread"), nil, nil, nil, nil).Req(cpu("200m")).Obj())
		}
		if i < len(m.Pending) {
			seq = append(seq, m.Pending[i])
		}
	}
	leave := map[int]*v1.Node{len(seq) / 3: cl.Nodes[1], 2 * len(seq) / 3: cl.Nodes[len(cl.Nodes)/2]}

	_, hits, results := placeWithAndWithout(t, cl, seq, "carried Filter outcomes",
		func(mm *model.Model, without bool) Input {
			return Input{Pending: mm.Pending, Objects: cl.Objects, withoutCarriedFilters: without}
		},
		func(s *Sequence, i int) {
			if n := leave[i]; n != nil {
				removeNode(t, s, n)
			}
		},
		func(s *Sequence) int64 { return s.e.carried.hits.Load() })
	t.Logf("%d pods: %v; outcomes served %d", len(seq), results, hits[1])
	if hits[0] != 0 {
		t.Errorf("withoutCarriedFilters served %d outcomes", hits[0])
	}
	if results[Scheduled] == 0 || results[Unschedulable] == 0 || hits[1] == 0 {
		t.Fatal("the test shows nothing: it needs scheduled and unschedulable pods and outcomes served")
	}
}

// placeWithAndWithout places seq one pod after another (Sequence.Next,
// step run before each) on a fresh model of cl, once with the Input made
// for without=true and once for without=false, compares every verdict of
// the second run with the first's (what names the sharing under test),
// and returns both runs' verdicts, what hits read of each Sequence at its
// end, and the first run's results by kind.
func placeWithAndWithout(t *testing.T, cl *load.Cluster, seq []*v1.Pod, what string,
	input func(mm *model.Model, without bool) Input, step func(s *Sequence, i int), hits func(*Sequence) int64,
) (verdicts [2][]*Verdict, served [2]int64, results map[Result]int) {
	t.Helper()
	for run, without := range []bool{true, false} {
		mm, err := model.Build(cl, cache.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSequence(context.Background(), mm.Cache, input(mm, without))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range seq {
			step(s, i)
			v, err := s.Next(context.Background(), p)
			if err != nil {
				t.Fatalf("pod %s: %v", p.Name, err)
			}
			verdicts[run] = append(verdicts[run], v)
		}
		served[run] = hits(s)
		s.Close()
	}
	results = map[Result]int{}
	for i, want := range verdicts[0] {
		if diff := cmp.Diff(want, verdicts[1][i]); diff != "" {
			t.Errorf("%s: placement with %s differs (-without +with):\n%s", seq[i].Name, what, diff)
		}
		results[want.Result]++
	}
	return verdicts, served, results
}

// removeNode takes n out of the sequence's cache and refreshes the
// Evaluator, as scale-down does before it moves a node's pods.
func removeNode(t *testing.T, s *Sequence, n *v1.Node) {
	t.Helper()
	if err := s.c.RemoveNode(n); err != nil {
		t.Fatal(err)
	}
	if err := s.c.UpdateSnapshot(s.snap); err != nil {
		t.Fatal(err)
	}
	s.e.Refresh(s.snap)
}

// A pod whose Filter plugins are not all node-local gets no table, and a
// node with a nominated pod is filtered in full. Hand-worked (v1.36.3):
// "plain" runs only node-local Filters (NodeResourcesFit, NodeUnschedulable,
// NodeName, TaintToleration; NodeAffinity and NodePorts skip at PreFilter);
// "anti" runs InterPodAffinity's Filter, which reads the pods of every node
// in the topology domain. n1 holds a nominated pod (priority 50, 1500m): the
// second plain replica (priority 0) reads n1 again, with the nominated pod
// of equal or higher priority added (addGENominatedPods), and does not fit
// there (1 + 1.5 > 2 CPUs), so it lands on n2, as the first did.
func TestCarriedFiltersOnlyNodeLocalCycles(t *testing.T) {
	c := cluster{
		nodes:   nodes(node("n1"), node("n2")),
		pending: pods(pod("held").Priority(50).Req(cpu("1500m")).NominatedNodeName("n1")),
	}
	e := c.evaluator(t)
	ctx := context.Background()
	plain := func(name string) *v1.Pod { return pod(name).Label("app", "plain").Priority(0).Req(cpu("1")).Obj() }
	first, err := e.Schedule(ctx, plain("plain-1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.carried.tables) != 1 {
		t.Fatalf("%d tables after a plain pod; want 1", len(e.carried.tables))
	}
	second, err := e.Schedule(ctx, plain("plain-2"))
	if err != nil {
		t.Fatal(err)
	}
	if first.Node != "n2" || second.Node != "n2" {
		t.Errorf("plain replicas on %q and %q; want n2 for both (n1 holds the nominated pod)", first.Node, second.Node)
	}
	if h := e.carried.hits.Load(); h != 1 {
		t.Errorf("%d outcomes served; want 1 (n2 for the second replica; n1 has a nominated pod)", h)
	}
	anti := pod("anti").Label("anti", "x").PodAntiAffinityExists("anti", v1.LabelHostname, st.PodAntiAffinityWithRequiredReq).Obj()
	if _, err := e.Schedule(ctx, anti); err != nil {
		t.Fatal(err)
	}
	if len(e.carried.tables) != 1 {
		t.Errorf("%d tables after a pod with anti-affinity; want still 1", len(e.carried.tables))
	}
}
