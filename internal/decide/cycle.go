package decide

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// quiet gives a cycle's context a logger that discards, as the plugin
// discards klog's output: the framework names its logger per node and
// filter call (RunFilterPluginsWithNominatedPods), and klog's default
// logger allocates for every name, a tenth of a simulation's garbage.
func quiet(ctx context.Context) context.Context {
	return klog.NewContext(ctx, logr.Discard())
}

// noNodesMessage is kube-scheduler's ErrNoNodesAvailable (scheduler.go).
const noNodesMessage = "no nodes available to schedule pods"

// Evaluate runs one scheduling cycle for pod against the current state, as
// if it were the next pod kube-scheduler took from its queue, and changes
// nothing. The scan starts at the first node of the NodeTree order (a live
// scheduler's start index rotates from cycle to cycle; on clusters of fewer
// than 100 nodes every node is filtered either way).
//
// The error is for failures the scheduler would report as SchedulerError
// (a plugin returning an internal error), not for unschedulable pods.
//
// Evaluate reuses a verdict for a pod that reads, to every plugin, exactly
// as one evaluated before since the state last changed (Refresh,
// SetPending, Schedule): the same pod but for its name, UID and the like
// (see classKey), as the pending replicas of one workload are; unless
// Input.EvaluateEach.
func (e *Evaluator) Evaluate(ctx context.Context, pod *v1.Pod) (*Verdict, error) {
	ctx = quiet(ctx)
	c, v := e.newCycle(ctx, pod)
	if c == nil {
		return v, nil
	}
	key := e.classKey(c.fw.ProfileName(), pod)
	if prev, ok := e.memo[key]; ok && key != "" {
		return prev.forPod(pod), nil
	}
	c.countOnly = e.omitNodes
	v, err := c.run(ctx, 0)
	if err == nil {
		err = c.explain(ctx)
	}
	if ierr := interrupted(ctx); ierr != nil { // whatever else went wrong
		err = ierr
	}
	if err != nil {
		return nil, err
	}
	if e.omitNodes {
		v.Nodes = nil
	}
	if key != "" {
		e.memo[key] = v
	}
	return v, nil
}

// FilterAll runs the PreFilter and Filter plugins (with nominated pods) for
// pod on every node, not only on the numFeasibleNodesToFind nodes a cycle
// stops at, and neither scores nor runs PostFilter: it answers "which nodes
// could take this pod now", node by node. The pod is evaluated as given,
// pending or not (callers clear spec.nodeName to ask about a bound pod),
// scheduling gates and deletion aside; the profile is its schedulerName's,
// else the first profile of the configuration. The verdict is Scheduled
// (Node empty) when some node passes, else Unschedulable with the
// FailedScheduling message's node part.
func (e *Evaluator) FilterAll(ctx context.Context, pod *v1.Pod) (*Verdict, error) {
	ctx = quiet(ctx)
	fw, ok := e.frameworks[pod.Spec.SchedulerName]
	if !ok {
		fw = e.frameworks[e.cfg.SchedulerNames()[0]]
	}
	e.listPod(pod)
	e.shared.begin()
	e.nominator.publish()
	c := &cycle{
		e: e, fw: fw, pod: pod, all: true,
		v:     &Verdict{Pod: pod, Profile: fw.ProfileName(), NumAllNodes: len(e.lister.list)},
		state: framework.NewCycleState(),
		diag:  framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()},
	}
	v, err := c.filterOnly(ctx)
	if ierr := interrupted(ctx); ierr != nil {
		return nil, ierr
	}
	return v, err
}

// interrupted is ctx's error once it is done. A cycle checks it last, and
// it wins over any other error: the framework's parallel steps skip the
// nodes left once the context is done (a skipped Filter reads as a pass, a
// skipped Score is missing), so a cycle interrupted midway has a verdict,
// or an error, that is not the scheduler's, and is dropped.
func interrupted(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("scheduling cycle interrupted: %w", context.Cause(ctx))
	}
	return nil
}

func (c *cycle) filterOnly(ctx context.Context) (*Verdict, error) {
	if len(c.e.lister.list) == 0 {
		c.v.Result, c.v.Message = Unschedulable, noNodesMessage
		return c.v, nil
	}
	preRes, s, unschedulable := c.fw.RunPreFilterPlugins(ctx, c.state, c.pod)
	if !s.IsSuccess() {
		if !s.IsRejected() {
			return c.v, s.AsError()
		}
		c.diag.NodeToStatus.SetAbsentNodesStatus(s)
		c.diag.PreFilterMsg = s.Message()
		c.rejectAll(s)
	} else if err := c.filter(ctx, c.candidates(preRes, unschedulable), 0); err != nil {
		return c.v, err
	}
	c.v.FeasibleNodes = len(c.feasible)
	c.v.EvaluatedNodes = len(c.e.lister.list)
	if len(c.feasible) > 0 {
		c.v.Result = Scheduled
		return c.v, nil
	}
	c.v.Result = Unschedulable
	c.v.Message = (&framework.FitError{Pod: c.pod, NumAllNodes: len(c.e.lister.list), Diagnosis: c.diag}).Error()
	return c.v, nil
}

// cycle is one scheduling cycle of one pod (schedule_one.go's
// schedulingAlgorithm and the functions it calls).
type cycle struct {
	e     *Evaluator
	fw    framework.Framework
	pod   *v1.Pod
	state *framework.CycleState
	diag  framework.Diagnosis
	v     *Verdict
	// feasible nodes, in evaluation order.
	feasible []fwk.NodeInfo
	// carry is the table of kept Filter outcomes of the pod's shape, nil
	// when its Filter plugins are not all node-local (carriedFilters).
	carry *carryTable
	// batch is set for consecutive cycles (Schedule), nil for Evaluate.
	batch *batchCycle
	// all: filter every node (FilterAll), not only numFeasibleNodesToFind.
	all bool
	// countOnly: the verdict keeps no per-node results, so each node's
	// outcome goes straight into RejectedBy and the scores into TopNodes
	// (Evaluate with Input.OmitNodes; the near misses read the cycle's
	// diagnosis, not the per-node results): the same verdict without a
	// NodeResult per node, which at 5,000 nodes was a third of the
	// cycles' garbage.
	countOnly bool
	// asks: the pod's requests the near misses' shortfalls read.
	asks podAsks
	// nominatedAt: the nominations by node position (filterNode).
	nominatedAt [][]fwk.PodInfo
	// unrecorded counts the nodes a scan rejected that are not in diag
	// (filter's diagnose): they count as evaluated all the same.
	unrecorded int
	// tallied are the rejections tallied and not yet counted (tally).
	tallied struct {
		s *fwk.Status
		n int
	}
}

// newCycle applies what happens before a cycle: pods the scheduler never
// schedules (Skipped) and pods a PreEnqueue plugin holds back (Gated). It
// returns a nil cycle with the final verdict in those cases.
func (e *Evaluator) newCycle(ctx context.Context, pod *v1.Pod) (*cycle, *Verdict) {
	v := &Verdict{Pod: pod, NumAllNodes: len(e.lister.list)}
	switch {
	case pod.DeletionTimestamp != nil:
		// The scheduler's own event text (skipPodSchedule, schedule_one.go).
		return nil, skipped(v, fmt.Sprintf("skip schedule deleting pod: %s/%s", pod.Namespace, pod.Name))
	case pod.Spec.NodeName != "":
		return nil, skipped(v, fmt.Sprintf("already bound to node %s", pod.Spec.NodeName))
	}
	fw, ok := e.frameworks[pod.Spec.SchedulerName]
	if !ok {
		return nil, skipped(v, fmt.Sprintf("no profile serves schedulerName %q (profiles: %v); this kube-scheduler never picks the pod up", pod.Spec.SchedulerName, e.Profiles()))
	}
	v.Profile = pod.Spec.SchedulerName
	for _, pl := range fw.PreEnqueuePlugins() {
		if s := pl.PreEnqueue(ctx, pod); !s.IsSuccess() {
			v.Result, v.Message = Gated, fmt.Sprintf("%s: %s", pl.Name(), s.Message())
			return nil, v
		}
	}
	// DefaultPreemption reads the pod back from the pod lister.
	e.listPod(pod)
	e.shared.begin()
	e.nominator.publish()
	return &cycle{
		e: e, fw: fw, pod: pod, v: v,
		state: framework.NewCycleState(),
		diag:  framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()},
	}, nil
}

func skipped(v *Verdict, msg string) *Verdict {
	v.Result, v.Message = Skipped, msg
	return v
}

// run is the cycle proper: PreFilter, the nominated (or hinted) node,
// Filter, then Score or PostFilter.
func (c *cycle) run(ctx context.Context, start int) (*Verdict, error) {
	nodes := c.e.lister.list
	if len(nodes) == 0 {
		c.v.Result, c.v.Message = Unschedulable, noNodesMessage
		return c.v, nil
	}
	preRes, s, unschedulable := c.fw.RunPreFilterPlugins(ctx, c.state, c.pod)
	c.diag.UnschedulablePlugins = unschedulable
	if !s.IsSuccess() {
		if !s.IsRejected() {
			return c.v, s.AsError()
		}
		c.diag.NodeToStatus.SetAbsentNodesStatus(s)
		c.diag.PreFilterMsg = s.Message()
		c.diag.AddPluginStatus(s)
		c.rejectAll(s)
		return c.fail(ctx)
	}
	if nnn, why := c.nominatedOrHinted(c.batch.hint(ctx, c)); nnn != "" {
		ok, err := c.tryNode(ctx, nnn)
		if ok {
			c.v.TakenFirst = why
		}
		if err != nil || ok {
			return c.v, err
		}
	}
	candidates := c.candidates(preRes, unschedulable)
	if err := c.filter(ctx, candidates, start); err != nil {
		return c.v, err
	}
	c.v.FeasibleNodes = len(c.feasible)
	c.v.EvaluatedNodes = len(c.feasible) + c.diag.NodeToStatus.Len() + c.unrecorded
	c.batch.advance(c.e, start, c.v.EvaluatedNodes)
	switch len(c.feasible) {
	case 0:
		return c.fail(ctx)
	case 1:
		c.choose(c.feasible[0].Node().Name)
		return c.v, nil
	}
	return c.v, c.score(ctx)
}

// rejectAll records a PreFilter rejection as every node's outcome.
func (c *cycle) rejectAll(s *fwk.Status) {
	c.v.EvaluatedNodes = len(c.e.lister.list)
	if c.countOnly {
		c.countRejected(s, len(c.e.lister.list))
		return
	}
	c.v.Nodes = slices.Grow(c.v.Nodes, len(c.e.lister.list))
	for _, ni := range c.e.lister.list {
		c.v.Nodes = append(c.v.Nodes, rejected(ni.Node().Name, s))
	}
}

// addRejected records one node a Filter plugin rejected, in scan order.
func (c *cycle) addRejected(name string, s *fwk.Status) {
	if c.countOnly {
		c.countRejected(s, 1)
		return
	}
	c.v.Nodes = append(c.v.Nodes, rejected(name, s))
}

// addFeasible records one node that passed every Filter plugin.
func (c *cycle) addFeasible(name string) {
	if !c.countOnly {
		c.v.Nodes = append(c.v.Nodes, NodeResult{Name: name, Feasible: true})
	}
}

// countRejected adds n nodes rejected with s to RejectedBy, under the key
// rejectedBy gives their NodeResults.
func (c *cycle) countRejected(s *fwk.Status, n int) {
	if c.v.RejectedBy == nil {
		c.v.RejectedBy = map[string]int{}
	}
	c.v.RejectedBy[rejectedKey(s.Plugin(), s.Reasons())] += n
}

func rejected(name string, s *fwk.Status) NodeResult {
	return NodeResult{Name: name, Plugin: s.Plugin(), Code: s.Code().String(), Reasons: s.Reasons()}
}

// nominatedOrHinted is the node tried before all others: the pod's
// status.nominatedNodeName (set by an earlier preemption), else the
// OpportunisticBatching hint (evaluateNominatedNode, v1.36).
func (c *cycle) nominatedOrHinted(hint string) (string, string) {
	if nnn := c.pod.Status.NominatedNodeName; nnn != "" {
		return nnn, "nominated"
	}
	return hint, "hint"
}

// tryNode filters the pod on one node first; if it passes, the scheduler
// takes it without scoring. A name that is not a node is ignored.
func (c *cycle) tryNode(ctx context.Context, name string) (bool, error) {
	ni, err := c.e.lister.Get(name)
	if err != nil {
		return false, nil
	}
	s := c.filterNode(ctx, ni, -1)
	switch {
	case s.Code() == fwk.Error:
		return false, s.AsError()
	case s.IsSuccess():
		c.addFeasible(name)
		c.v.EvaluatedNodes, c.v.FeasibleNodes = 1, 1
		c.choose(name)
		return true, nil
	}
	c.diag.NodeToStatus.Set(name, s)
	c.diag.AddPluginStatus(s)
	return false, nil
}

// candidates are the nodes to filter: all of them, or the PreFilter
// plugins' node subset (the others get the scheduler's "didn't satisfy
// plugin(s)" status), in NodeTree order.
func (c *cycle) candidates(preRes *fwk.PreFilterResult, unschedulable sets.Set[string]) []int {
	all := c.e.lister.list
	// The Evaluator's scratch: a cycle only reads its candidates, and the
	// next cycle starts after this one is done (5,000 ints a cycle at
	// 5,000 nodes).
	idx := slices.Grow(c.e.candidates[:0], len(all))
	defer func() { c.e.candidates = idx[:0] }()
	if preRes.AllNodes() {
		for i := range all {
			idx = append(idx, i)
		}
		return idx
	}
	absent := fwk.NewStatus(fwk.UnschedulableAndUnresolvable, fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sets.List(unschedulable)))
	c.diag.NodeToStatus.SetAbsentNodesStatus(absent)
	for i, ni := range all {
		if preRes.NodeNames.Has(ni.Node().Name) {
			idx = append(idx, i)
		} else if !c.countOnly {
			c.v.Nodes = append(c.v.Nodes, rejected(ni.Node().Name, absent))
		}
	}
	if c.countOnly && len(idx) < len(all) {
		c.countRejected(absent, len(all)-len(idx))
	}
	return idx
}

// choose records the scheduling decision.
func (c *cycle) choose(node string) {
	c.v.Result, c.v.Node = Scheduled, node
	c.batch.store(c, node, nil)
}

// fail runs the PostFilter plugins for a pod no node fits and records the
// FitError message the scheduler emits (framework.FitError.Error with the
// PostFilter message appended, schedule_one.go schedulingAlgorithm).
func (c *cycle) fail(ctx context.Context) (*Verdict, error) {
	c.v.Result = Unschedulable
	if c.fw.HasPostFilterPlugins() {
		res, s := c.fw.RunPostFilterPlugins(ctx, c.state, c.pod, c.diag.NodeToStatus)
		c.diag.PostFilterMsg = s.Message()
		if s.IsSuccess() && res != nil && res.NominatingInfo != nil && res.NominatedNodeName != "" {
			p := &Preemption{NominatedNode: res.NominatedNodeName}
			p.Victims, p.TerminatingVictims = c.e.victims.take(c.pod.UID, p.NominatedNode)
			c.v.Preemption = p
		} else {
			c.e.victims.forget(c.pod.UID)
		}
	}
	fitErr := &framework.FitError{Pod: c.pod, NumAllNodes: len(c.e.lister.list), Diagnosis: c.diag}
	c.v.Message = fitErr.Error()
	return c.v, nil
}

// numFeasibleNodesToFind applies the profile's percentageOfNodesToScore,
// else the configuration's (cache.NumFeasibleNodesToFind mirrors upstream).
func (c *cycle) numFeasibleNodesToFind(n int) int {
	if c.all {
		return n
	}
	if !c.fw.HasScorePlugins() {
		return 1
	}
	var pct int32
	if p := c.fw.PercentageOfNodesToScore(); p != nil {
		pct = *p
	} else if p := c.e.cfg.cfg.PercentageOfNodesToScore; p != nil {
		pct = *p
	}
	return int(cache.NumFeasibleNodesToFind(pct, int32(n)))
}
