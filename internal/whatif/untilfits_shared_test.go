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
