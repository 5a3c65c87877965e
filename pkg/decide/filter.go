package decide

import (
	"context"
	"slices"

	fwk "k8s.io/kube-scheduler/framework"
)

// filter runs the Filter plugins (with nominated pods) over candidates,
// scanning from position start (wrapping around) until
// numFeasibleNodesToFind nodes pass, as findNodesThatPassFilters does
// (schedule_one.go, v1.36).
//
// Upstream filters nodes on parallel goroutines and stops when enough have
// passed, so which nodes beyond that count were looked at depends on
// timing. Here nodes are filtered in parallel chunks but taken strictly in
// scan order: the feasible nodes are the first numFeasibleNodesToFind that
// pass, and nodes after the last one taken count as not evaluated.
func (c *cycle) filter(ctx context.Context, candidates []int, start int) error {
	n := len(candidates)
	if n == 0 {
		return nil
	}
	want := c.numFeasibleNodesToFind(n)
	all := c.e.lister.list
	if !c.fw.HasFilterPlugins() {
		for i := 0; i < want; i++ {
			c.feasible = append(c.feasible, all[candidates[(start+i)%n]])
		}
		return nil
	}
	// Each chunk is one Parallelizer.Until call: its goroutines start and
	// the cycle waits for the slowest. Large chunks keep that overhead
	// below the filtering itself; the price is filtering up to a chunk
	// beyond the last node taken, which upstream's single Until over all
	// nodes pays too. 512 was the fastest of 64, 256 and 512 for
	// simulate --pending -A at 5,000 nodes (docs/PERFORMANCE.md).
	chunk := max(4*c.e.parallelism, 512)
	// Room for what a scan usually takes: the feasible nodes wanted and
	// the rejected ones before them.
	c.feasible = slices.Grow(c.feasible, want)
	c.v.Nodes = slices.Grow(c.v.Nodes, min(n, want+chunk))
	statuses := make([]*fwk.Status, n)
	for done := 0; done < n && len(c.feasible) < want; {
		end := min(done+chunk, n)
		c.fw.Parallelizer().Until(ctx, end-done, func(i int) {
			ni := all[candidates[(start+done+i)%n]]
			statuses[done+i] = c.fw.RunFilterPluginsWithNominatedPods(ctx, c.state, c.pod, ni)
		}, "Filter")
		for ; done < end && len(c.feasible) < want; done++ {
			if err := c.take(all[candidates[(start+done)%n]], statuses[done]); err != nil {
				return err
			}
		}
	}
	return nil
}

// take records one filtered node's outcome.
func (c *cycle) take(ni fwk.NodeInfo, s *fwk.Status) error {
	name := ni.Node().Name
	switch {
	case s.Code() == fwk.Error:
		return s.AsError()
	case s.IsSuccess():
		c.feasible = append(c.feasible, ni)
		c.v.Nodes = append(c.v.Nodes, NodeResult{Name: name, Feasible: true})
	default:
		c.diag.NodeToStatus.Set(name, s)
		c.diag.AddPluginStatus(s)
		c.v.Nodes = append(c.v.Nodes, rejected(name, s))
	}
	return nil
}
