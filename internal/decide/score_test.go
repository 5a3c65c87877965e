package decide

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"

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
