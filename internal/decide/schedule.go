package decide

import (
	"context"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Schedule runs the next of a sequence of scheduling cycles, the way the
// scheduler runs consecutive ones: the node scan starts where the previous
// cycle's stopped (nextStartNodeIndex), and OpportunisticBatching (on by
// default in v1.36) may offer the previous cycle's runner-up as a hint when
// a pod with the same signature follows. It does not change the cluster
// state: the caller assumes a scheduled pod into its cache and calls
// Refresh with the new snapshot before the next pod. A nominated pod that
// is scheduled leaves the nominator; a pod for which preemption nominated a
// node joins it, as the scheduler's failure handler does.
func (e *Evaluator) Schedule(ctx context.Context, pod *v1.Pod) (*Verdict, error) {
	return e.schedule(ctx, pod, false)
}

// schedule is Schedule; countOnly keeps no per-node results
// (ScheduleCounts).
func (e *Evaluator) schedule(ctx context.Context, pod *v1.Pod, countOnly bool) (*Verdict, error) {
	ctx = quiet(ctx)
	e.forget()
	c, v := e.newCycle(ctx, pod)
	if c == nil {
		return v, nil
	}
	c.countOnly = countOnly
	e.cycle++
	c.batch = &batchCycle{count: e.cycle}
	if utilfeature.DefaultFeatureGate.Enabled(features.OpportunisticBatching) {
		c.batch.signature = c.fw.SignPod(ctx, pod)
		c.batch.enabled = true
	}
	v, err := c.run(ctx, e.nextStartNodeIndex)
	if ierr := interrupted(ctx); ierr != nil {
		return nil, ierr
	}
	if err != nil {
		return v, err
	}
	switch {
	case v.Result == Scheduled:
		e.nominator.DeleteNominatedPodIfExists(pod)
	case v.Preemption != nil:
		e.preempted[pod.UID] = v.Preemption.NominatedNode
		e.preemptions++
		e.nominator.AddNominatedPod(klog.Background(), e.podInfoOf(pod), &fwk.NominatingInfo{NominatedNodeName: v.Preemption.NominatedNode, NominatingMode: fwk.ModeOverride})
	}
	return v, nil
}

// SetPending replaces the pods the scheduler's queue holds: those of pods
// with status.nominatedNodeName, or nominated by an earlier Schedule's
// preemption, become the nominated pods. Callers that assume, bind or
// forget pods between cycles (a simulation) call it with the pods that are
// not in the cache, as the scheduler's queue drops a pod once it is bound
// and takes it back when its binding fails.
func (e *Evaluator) SetPending(pods []*v1.Pod) {
	e.forget()
	n := newNominator()
	for _, p := range pods {
		e.listPod(p)
		q := e.queuedPod(p)
		var ni *fwk.NominatingInfo
		if q.preempted != "" {
			ni = &fwk.NominatingInfo{NominatedNodeName: q.preempted, NominatingMode: fwk.ModeOverride}
		} else if q.nominated == "" {
			continue // the nominator would not take it (nominator.addLocked)
		}
		n.AddNominatedPod(klog.Background(), q.podInfo(p), ni)
	}
	e.nominator.replace(n)
}

// queuedPod is what SetPending reads of a pod object, kept by object: a
// simulation hands it the same objects before every placement, and reading
// each one's fields again costs a cache miss per pod.
type queuedPod struct {
	nominated string // status.nominatedNodeName
	preempted string // the node an earlier preemption nominated it to
	at        int    // the Evaluator's preemptions when preempted was read
	// info is the pod's PodInfo, one for the object's life (as the
	// scheduling queue keeps one per queued pod), so that the nominated
	// copies made with it hold from one SetPending to the next.
	info *framework.PodInfo
}

func (q *queuedPod) podInfo(p *v1.Pod) *framework.PodInfo {
	if q.info == nil {
		q.info = newPodInfo(p)
	}
	return q.info
}

// podInfoOf is p's PodInfo, the one SetPending nominates it with.
func (e *Evaluator) podInfoOf(p *v1.Pod) *framework.PodInfo { return e.queuedPod(p).podInfo(p) }

func (e *Evaluator) queuedPod(p *v1.Pod) *queuedPod {
	q := e.queued[p]
	if q == nil {
		q = &queuedPod{nominated: p.Status.NominatedNodeName, at: -1}
		e.queued[p] = q
	}
	if q.at != e.preemptions {
		q.preempted, q.at = e.preempted[p.UID], e.preemptions
	}
	return q
}

// listPod makes pod readable through the framework's pod lister, unless
// that very object already is: a simulation calls SetPending before every
// placement with every queued pod, and the informer's Add indexes the pod
// again each time. listed holds the objects the lister has; an object
// replaced under its key leaves it.
func (e *Evaluator) listPod(p *v1.Pod) {
	if e.listed[p] {
		return
	}
	key := types.NamespacedName{Namespace: p.Namespace, Name: p.Name}
	delete(e.listed, e.listedAs[key])
	_ = e.pods.Add(p)
	e.listed[p], e.listedAs[key] = true, p
}

// Refresh brings the Evaluator up to date with a newer snapshot of the same
// cache (after pods were assumed, added or removed): only NodeInfos whose
// generation changed are converted again.
func (e *Evaluator) Refresh(s *cache.Snapshot) {
	e.forget()
	e.lister.refresh(s)
}

// batchCycle carries one sequential cycle's OpportunisticBatching state
// (framework/runtime/batch.go, v1.36). A nil *batchCycle (Evaluate) does
// nothing.
type batchCycle struct {
	enabled   bool
	count     int64
	signature fwk.PodSignature
	hinted    string
}

// hint asks the framework for a node hint; it must run after PreFilter,
// because the framework filters the previous cycle's node with this cycle's
// state.
func (b *batchCycle) hint(ctx context.Context, c *cycle) string {
	if b == nil || !b.enabled {
		return ""
	}
	b.hinted = c.fw.GetNodeHint(ctx, c.pod, b.signature, c.state, b.count)
	return b.hinted
}

// advance moves the scan start past the nodes this cycle looked at
// (findNodesThatFitPod, v1.36).
func (b *batchCycle) advance(e *Evaluator, start, processed int) {
	if b == nil || len(e.lister.list) == 0 {
		return
	}
	e.nextStartNodeIndex = (start + processed) % len(e.lister.list)
}

// store hands the cycle's outcome to the framework's batching: the chosen
// node and the other scored nodes, best first.
func (b *batchCycle) store(c *cycle, chosen string, scored []NodeResult) {
	b.storeWith(c, chosen, func() framework.SortedScoredNodes { return runnersUp(scored, chosen) })
}

// storeWith is store with the runners-up made by others, called only when
// the framework reads them: to keep them for the next pod with the same
// signature, and not when its hint was taken.
func (b *batchCycle) storeWith(c *cycle, chosen string, others func() framework.SortedScoredNodes) {
	if b == nil || !b.enabled {
		return
	}
	var rest framework.SortedScoredNodes
	if b.signature != nil && b.hinted != chosen {
		rest = others()
	}
	c.fw.StoreScheduleResults(context.Background(), b.signature, b.hinted, chosen, rest, b.count)
}

// runnersUp orders the scored nodes other than chosen by total score,
// highest first (equal totals in scan order); nil when nothing was scored.
func runnersUp(scored []NodeResult, chosen string) framework.SortedScoredNodes {
	if scored == nil {
		return nil // a nil interface: the framework checks for it
	}
	return byTotal(len(scored), func(i int) (string, int64, bool) {
		n := &scored[i]
		return n.Name, n.Total, n.Feasible && n.Name != chosen
	})
}

// byTotal orders the n nodes that at(i) keeps by total score, highest
// first, equal totals in their order of i (scan order).
func byTotal(n int, at func(i int) (name string, total int64, keep bool)) *sortedNodes {
	type scored struct {
		name  string
		total int64
	}
	rest := make([]scored, 0, n)
	for i := range n {
		if name, total, keep := at(i); keep {
			rest = append(rest, scored{name, total})
		}
	}
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].total > rest[j].total })
	names := make([]string, len(rest))
	for i, r := range rest {
		names[i] = r.name
	}
	return &sortedNodes{names: names}
}

// sortedNodes implements framework.SortedScoredNodes.
type sortedNodes struct{ names []string }

func (s *sortedNodes) Pop() string {
	n := s.names[0]
	s.names = s.names[1:]
	return n
}

func (s *sortedNodes) Len() int { return len(s.names) }
