package whatif

import (
	"context"
	"fmt"
	"testing"
)

// A search sharing its Evaluator and its run with no copy (Shared) gives
// TestUntilFits' answer, twice in a row (the second replays the shared
// run: its gated pod is still listed once), and leaves the cache as it
// was.
func TestUntilFitsShared(t *testing.T) {
	c, m := scaleUpFixture(t)
	podsBefore, _ := m.Cache.PodCount()
	shared, err := NewShared(context.Background(), m, c.Objects, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	for i := range 2 {
		res, err := UntilFits(context.Background(), UntilFitsInput{
			Model: m, Objects: c.Objects, Template: c.Nodes[0], Bound: NodeBoundPods(c.Pods, "n1"), Pods: m.Pending, Shared: shared,
		})
		if err != nil {
			t.Fatal(err)
		}
		u := res.Estimate
		if got := fmt.Sprintf("%d %v %d %s", u.Count, u.Trials, len(u.NeverFit), u.NeverFit[3].Pod); got != "3 [{0 false 3} {3 true 0}] 4 default/gated" {
			t.Errorf("search %d: count, trials, never fit: %s", i+1, got)
		}
	}
	if n, _ := m.Cache.PodCount(); n != podsBefore || m.Cache.NodeCount() != 1 {
		t.Errorf("cache not restored: %d pods (want %d), %d nodes", n, podsBefore, m.Cache.NodeCount())
	}
}

// CountsOnly changes what the verdicts keep, never the search: the same
// trials and count, every pod on the same node with the same message, and
// no result per node.
func TestUntilFitsCountsOnly(t *testing.T) {
	c, m := scaleUpFixture(t)
	var got [2]string
	for i, countsOnly := range []bool{false, true} {
		res, err := UntilFits(context.Background(), UntilFitsInput{
			Model: m, Objects: c.Objects, Template: c.Nodes[0], Bound: NodeBoundPods(c.Pods, "n1"), Pods: m.Pending, CountsOnly: countsOnly,
		})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = fmt.Sprintf("%d %v;", res.Estimate.Count, res.Estimate.Trials)
		nodes := 0
		for _, v := range res.Verdicts {
			got[i] += fmt.Sprintf(" %s/%s %s %s %q", v.Pod.Namespace, v.Pod.Name, v.Result, v.Node, v.Message)
			nodes += len(v.Nodes)
		}
		if countsOnly != (nodes == 0) {
			t.Errorf("CountsOnly %t: %d results per node", countsOnly, nodes)
		}
	}
	if got[0] != got[1] {
		t.Errorf("with results per node:\n%s\ncounts only:\n%s", got[0], got[1])
	}
}
