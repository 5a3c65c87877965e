package decide

import (
	"context"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Two identical nodes, one carrying the label of the pod's preferred node
// affinity (weight 1): NodeAffinity's normalised score is 100 there and 0 on
// the other, times its weight 2; TaintToleration, with no PreferNoSchedule
// taints anywhere, gives both nodes the maximum 100 times weight 3; every
// other plugin scores the identical nodes alike.
func TestScores(t *testing.T) {
	c := cluster{nodes: nodes(node("plain"), node("preferred").Label("pref", "yes"))}
	p := pod("p").Req(cpu("100m")).Obj()
	p.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.PreferredSchedulingTerm{{
		Weight: 1, Preference: v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "pref", Operator: v1.NodeSelectorOpIn, Values: []string{"yes"}}}},
	}}}}
	v := evaluate(t, c.evaluator(t), p)
	if v.Result != Scheduled || v.Node != "preferred" {
		t.Fatalf("got %s on %q, want scheduled on preferred", v.Result, v.Node)
	}
	score := func(n NodeResult, plugin string) int64 {
		for _, s := range n.Scores {
			if s.Plugin == plugin {
				return s.Score
			}
		}
		t.Fatalf("node %s has no %s score: %+v", n.Name, plugin, n.Scores)
		return 0
	}
	plain, preferred := v.Nodes[0], v.Nodes[1]
	for _, tc := range []struct {
		n      NodeResult
		plugin string
		want   int64
	}{
		{plain, "NodeAffinity", 0}, {preferred, "NodeAffinity", 200},
		{plain, "TaintToleration", 300}, {preferred, "TaintToleration", 300},
	} {
		if got := score(tc.n, tc.plugin); got != tc.want {
			t.Errorf("%s %s = %d, want %d", tc.n.Name, tc.plugin, got, tc.want)
		}
	}
	for _, n := range v.Nodes {
		var sum int64
		for _, s := range n.Scores {
			sum += s.Score
		}
		if sum != n.Total {
			t.Errorf("%s: total %d, sum of scores %d", n.Name, n.Total, sum)
		}
	}
	if preferred.Total-plain.Total != 200 {
		t.Errorf("totals %d and %d: want a difference of 200", preferred.Total, plain.Total)
	}
}

// Five identical 1-CPU pods onto two empty 2-CPU nodes, one after the
// other: the first goes to the first node in scan order (equal scores),
// then LeastAllocated alternates, and the fifth finds no room.
func TestSequence(t *testing.T) {
	c := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, n := range nodes(node("n1"), node("n2")) {
		c.AddNode(n)
	}
	seq, err := NewSequence(context.Background(), c, Input{})
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	var got []string
	for _, name := range []string{"p1", "p2", "p3", "p4", "p5"} {
		v, err := seq.Next(context.Background(), pod(name).Req(cpu("1")).Obj())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(v.Result)+":"+v.Node)
		if name == "p5" && v.Message != "0/2 nodes are available: 2 Insufficient cpu. "+noPreemption+
			"0/2 nodes are available: 2 No preemption victims found for incoming pod." {
			t.Errorf("p5 message: %s", v.Message)
		}
	}
	want := []string{"scheduled:n1", "scheduled:n2", "scheduled:n1", "scheduled:n2", "unschedulable:"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pod %d: got %s, want %s", i+1, got[i], want[i])
		}
	}
	if n, _ := c.PodCount(); n != 4 {
		t.Errorf("cache holds %d pods, want the 4 assumed", n)
	}
}

// PlaceTogether: four 1-CPU pods onto n1, holding a bound 1-CPU pod (1 CPU
// free), and n2, empty (2 free): 3 CPUs for 4 pods. Queue order
// (PrioritySort): p-high (priority 10) first, then by creationTimestamp p1,
// p2, p4; the first three take the three free CPUs, p4 finds none. The
// cache ends as it began: one pod.
func TestPlaceTogether(t *testing.T) {
	c := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, n := range nodes(node("n1"), node("n2")) {
		c.AddNode(n)
	}
	if err := c.AddPod(bound("busy", "n1").Req(cpu("1")).Obj()); err != nil {
		t.Fatal(err)
	}
	at := func(s int) metav1.Time { return metav1.NewTime(time.Date(2026, 1, 1, 0, 0, s, 0, time.UTC)) }
	p := func(name string, sec int) *v1.Pod {
		o := pod(name).Req(cpu("1")).Obj()
		o.CreationTimestamp = at(sec)
		return o
	}
	high := p("p-high", 9)
	high.Spec.Priority = ptr.To[int32](10)
	in := []*v1.Pod{p("p4", 4), p("p2", 2), high, p("p1", 1)}
	vs, err := PlaceTogether(context.Background(), c, Input{}, in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Pod.Name+":"+string(v.Result))
	}
	if want := "p-high:scheduled p1:scheduled p2:scheduled p4:unschedulable"; strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
	if n, _ := c.PodCount(); n != 1 {
		t.Errorf("cache holds %d pods after PlaceTogether, want the 1 bound before", n)
	}
}

// FitWhereNamed, by hand: n1 (2 CPUs) holds a 1-CPU pod, n2 (2 CPUs) is
// empty. a and b (1 CPU each) named on n2 fit together (2 <= 2); c named
// on n1 as well fits (1 + 1 <= 2); d named on n1 too does not (1+1+1 > 2).
// A pod with required anti-affinity is never judged by requests alone.
func TestFitWhereNamed(t *testing.T) {
	c := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, n := range nodes(node("n1"), node("n2")) {
		c.AddNode(n)
	}
	if err := c.AddPod(bound("busy", "n1").Req(cpu("1")).Obj()); err != nil {
		t.Fatal(err)
	}
	snap := cache.NewEmptySnapshot()
	if err := c.UpdateSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	on := func(name, node string) *Verdict {
		return &Verdict{Pod: pod(name).Req(cpu("1")).Obj(), Result: Scheduled, Node: node}
	}
	three := []*Verdict{on("a", "n2"), on("b", "n2"), on("c", "n1")}
	if !FitWhereNamed(snap, three) {
		t.Errorf("a, b on n2 and c on n1 fit")
	}
	if FitWhereNamed(snap, append(three, on("d", "n1"))) {
		t.Errorf("c and d on n1 (1 CPU free) do not both fit")
	}
	anti := on("e", "n2")
	anti.Pod = pod("e").Req(cpu("100m")).PodAntiAffinityExists("app", v1.LabelHostname, st.PodAntiAffinityWithRequiredReq).Obj()
	if FitWhereNamed(snap, []*Verdict{on("a", "n1"), anti}) {
		t.Errorf("a pod with required anti-affinity depends on the pods beside it")
	}
}
