package decide

import (
	"context"
	"slices"

	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// filter runs the Filter plugins (with nominated pods) over candidates,
// scanning from position start (wrapping around), as
// findNodesThatPassFilters does (schedule_one.go, v1.36.3): the first
// numFeasibleNodesToFind nodes that pass are the feasible ones, and the scan
// goes on until one more node passes (upstream cancels the scan when a
// filter call finds it has one node too many, and drops that node). Nodes
// rejected before that extra node count as evaluated: they are in the
// diagnosis, in EvaluatedNodes and in how far the next cycle's start index
// moves.
//
// Upstream filters nodes on parallel goroutines, so past the last node it
// keeps, which rejected nodes were looked at before the cancellation
// depends on timing; with parallelism 1 it is exactly the scan above. Here
// nodes are filtered in parallel chunks but taken strictly in scan order,
// so the outcome is parallelism 1's whatever the parallelism.
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
	// Room for what a scan usually takes: the feasible nodes wanted and
	// the rejected ones before them.
	c.feasible = slices.Grow(c.feasible, want)
	if !c.countOnly {
		c.v.Nodes = slices.Grow(c.v.Nodes, min(n, want+maxFilterChunk))
	}
	c.bindCarried()
	statuses := c.e.filterStatuses(n)
	c.nominatedAt = c.e.copies.nominatedAt(c.e.nominator, all)
	// The diagnosis is written after the scan, and only when no node
	// passed: see diagnose. A node tried first (tryNode) is already in it
	// and may be scanned again, so then it is written as nodes are taken.
	lazy := c.diag.NodeToStatus.Len() == 0
	// The scan stops at the extra node that passes; FilterAll wants every
	// node, and there is none beyond.
	enough := false
	done := 0
	for done < n && !enough {
		end := min(done+c.filterChunk(want+1, done), n)
		c.filterRange(ctx, statuses, func(i int) int { return candidates[(start+i)%n] }, done, end)
		first := done == 0
		for ; done < end; done++ {
			if len(c.feasible) == want && statuses[done].IsSuccess() {
				enough = true
				break
			}
			if err := c.take(all[candidates[(start+done)%n]], statuses[done], !lazy); err != nil {
				return err
			}
		}
		if first && len(c.feasible) == 0 && done < n && !c.countOnly {
			c.v.Nodes = slices.Grow(c.v.Nodes, n)
		}
	}
	c.flushTally()
	if lazy {
		c.diagnose(candidates, start, statuses[:done])
	}
	return nil
}

// tally counts a rejection for RejectedBy, folding consecutive nodes
// rejected with the same status (a kept outcome is one object for every
// node it is served for) into one count; flushTally adds the last run.
func (c *cycle) tally(s *fwk.Status) {
	if s != c.tallied.s {
		c.flushTally()
		c.tallied.s = s
	}
	c.tallied.n++
}

func (c *cycle) flushTally() {
	if c.tallied.n > 0 {
		c.countRejected(c.tallied.s, c.tallied.n)
	}
	c.tallied.s, c.tallied.n = nil, 0
}

// filterRange fills statuses[lo:hi] with the Filter outcomes of the nodes
// at positions pos(lo)..pos(hi-1) of the lister's list. Outcomes kept for
// the pod's shape are read on the calling goroutine; the other nodes are
// filtered on the framework's parallelizer when there are enough of them
// to pay for its goroutines, else here. Where a node is filtered changes
// no outcome. In a placement run most nodes of a chunk are kept
// outcomes: handing every chunk to goroutines cost more in starting and
// waking them than the reads themselves (the scale-up benchmark ran
// faster with GOMAXPROCS=1 than with 2 before this).
func (c *cycle) filterRange(ctx context.Context, statuses []*fwk.Status, pos func(int) int, lo, hi int) {
	if c.carry == nil {
		c.fw.Parallelizer().Until(ctx, hi-lo, func(i int) {
			statuses[lo+i] = c.carriedFilter(ctx, pos(lo+i))
		}, "Filter")
		return
	}
	missed := c.e.missed[:0]
	hits := 0
	for i := lo; i < hi; i++ {
		if s, ok := c.kept(pos(i)); ok {
			statuses[i] = s
			hits++
		} else {
			missed = append(missed, i)
		}
	}
	c.e.missed = missed
	c.e.carried.hits.Add(int64(hits))
	if len(missed) < minParallelFilter {
		for _, i := range missed {
			statuses[i] = c.carriedFilter(ctx, pos(i))
		}
		return
	}
	c.fw.Parallelizer().Until(ctx, len(missed), func(k int) {
		i := missed[k]
		statuses[i] = c.carriedFilter(ctx, pos(i))
	}, "Filter")
}

// minParallelFilter is the fewest nodes to filter in full that filterRange
// hands to the parallelizer.
const minParallelFilter = 16

// diagnose writes the scan's rejected nodes into the cycle's diagnosis
// (their statuses by node, the plugins that rejected them) when no node
// passed: only a cycle that fails reads it (PostFilter, the FitError
// message, the near misses). A cycle that places the pod only counts them
// (unrecorded, for EvaluatedNodes): at 5,000 nodes writing a 5,000-entry
// map per placement was half of a placement run's CPU. statuses are the
// scan's, in scan order from start.
func (c *cycle) diagnose(candidates []int, start int, statuses []*fwk.Status) {
	rejected := len(statuses) - len(c.feasible)
	if len(c.feasible) > 0 {
		c.unrecorded = rejected
		return
	}
	all, n := c.e.lister.list, len(candidates)
	m := make(map[string]*fwk.Status, rejected)
	for i, s := range statuses {
		m[all[candidates[(start+i)%n]].Node().Name] = s
		c.diag.AddPluginStatus(s)
	}
	c.diag.NodeToStatus = framework.NewNodeToStatus(m, c.diag.NodeToStatus.AbsentNodesStatus())
}

// filterStatuses is the Evaluator's scratch for n Filter statuses. Each
// cycle reads only the entries it wrote; the previous cycle's are cleared
// so that they do not keep its statuses alive.
func (e *Evaluator) filterStatuses(n int) []*fwk.Status {
	if cap(e.statuses) < n {
		e.statuses = make([]*fwk.Status, n)
	}
	clear(e.statuses[:cap(e.statuses)])
	return e.statuses[:n]
}

// Each chunk of filter is one Parallelizer.Until call: its goroutines
// start and the cycle waits for the slowest, so chunks are large enough to
// keep that below the filtering itself (512 was the fastest fixed size of
// 64, 256 and 512 for simulate --pending -A at 5,000 nodes). What a chunk
// filters beyond the last node taken is wasted: with fixed 512-node chunks,
// a share of that run's filter calls docs/PERFORMANCE.md#decisions gives.
const (
	maxFilterChunk = 512
	minFilterChunk = 64
)

// filterChunk is how many nodes to filter next, after done were taken: the
// whole wanted count first, then as many as the feasible share seen so far
// says the remaining wanted nodes need, plus an eighth, within
// [minFilterChunk, maxFilterChunk] (at least 4 per worker), or the most
// when none passed yet. Its size changes how much is filtered, never which
// nodes are taken.
func (c *cycle) filterChunk(want, done int) int {
	lo := max(minFilterChunk, 4*c.e.parallelism)
	found := len(c.feasible)
	switch {
	case done == 0:
		return max(lo, min(want, maxFilterChunk))
	case found == 0: // likely a pod no node takes: every node is filtered
		return maxFilterChunk
	}
	need := (want - found) * done / found
	return max(lo, min(need+need/8+1, maxFilterChunk))
}

// take records one filtered node's outcome, with diagnosis also into the
// cycle's diagnosis (else filter's diagnose writes it).
func (c *cycle) take(ni fwk.NodeInfo, s *fwk.Status, diagnosis bool) error {
	switch {
	case s.IsSuccess():
		c.feasible = append(c.feasible, ni)
		c.addFeasible(ni.Node().Name)
	case s.Code() == fwk.Error:
		return s.AsError()
	case c.countOnly && !diagnosis:
		c.tally(s) // no name needed: the common case of a run
	default:
		name := ni.Node().Name
		if diagnosis {
			c.diag.NodeToStatus.Set(name, s)
			c.diag.AddPluginStatus(s)
		}
		c.addRejected(name, s)
	}
	return nil
}
