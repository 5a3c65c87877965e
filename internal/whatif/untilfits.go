package whatif

import (
	"context"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// UntilFitsInput is what the scale-up estimate runs on.
type UntilFitsInput struct {
	// Model is the cluster (edits applied) without any copy of Template.
	// Its cache is changed during the search and restored before the end.
	Model   *model.Model
	Objects []runtime.Object
	Config  *decide.Config
	// Template is the node to copy; Bound its node-bound pods (DaemonSet
	// and static pods), copied onto every copy (nil for a file template).
	Template *v1.Node
	Bound    []*v1.Pod
	// FromFile: Template was read from a file (the input's CSINode of the
	// same name, if any, is not its own).
	FromFile bool
	// Pods are the pending pods to schedule: the selected pending pods of
	// the model, or a workload's replicas (then not in Model.Pending, and
	// Workload names it, e.g. "Deployment shop/api").
	Pods     []*v1.Pod
	Workload string
	// Shared, when set, is the Evaluator and the run with no copy shared
	// with other searches on the same cluster and pods (NewShared).
	Shared *Shared
	// WithoutBound searches as if there were no bound (lowerBound): from
	// the guess, doubling after each count that fails, then bisecting; for
	// checking that the bound changes no answer.
	WithoutBound bool
	// CountsOnly: the placements' verdicts keep no result per node
	// (decide.Evaluator.ScheduleCounts; the same placements), for callers
	// that print none of them (scale-up). Searches sharing a Shared must
	// agree on it.
	CountsOnly bool
}

// Estimate is the scale-up estimate (internal/views maps it to the
// report's untilFits field): the template and the workload whose replicas
// were placed (empty: pending pods), the smallest count of copies (-1:
// even MaxTried copies leave StillPending pending), the count below which
// the pods' requests cannot fit (Bound, lowerBound; 0 when there is no
// bound: counts below it are not tried), each count tried, and the pods
// one empty copy rejects; Cycles, for the benchmarks.
type Estimate struct {
	Template string
	Workload string
	Count    int
	MaxTried int
	Bound    int
	Trials   []Trial
	// Cycles counts the scheduling cycles the search's runs made (the
	// shared run with no copy by the search that made it).
	Cycles       int
	NeverFit     []NeverFit
	StillPending []string
}

// Trial is one count of copies placed: whether every pod fit, and how
// many were left pending (counted only when every pod was placed).
type Trial struct {
	Count   int
	Fits    bool
	Pending int
}

// NeverFit is a pod one empty copy rejects: the filter plugin and its
// reasons.
type NeverFit struct {
	Pod     string
	Plugin  string
	Reasons []string
}

// UntilFitsResult is the estimate and the placement at its count.
type UntilFitsResult struct {
	Estimate Estimate
	// Verdicts are the pods' outcomes, in queue order, with Estimate.Count copies
	// (with Estimate.MaxTried when Count is -1).
	Verdicts []*decide.Verdict
}

// UntilFits finds the smallest number of copies of in.Template with which
// every pod of in.Pods that fits one empty copy alone is scheduled, when
// the pods are placed one after the other in the scheduler's queue order,
// each assumed on its node before the next one's cycle (as simulate
// --pending places them). Each count tried is a full placement run.
//
// No count below lowerBound is tried: the pods' requests cannot fit
// fewer copies. The search steps up from there (run) until every such pod
// is scheduled (at most as many copies as there are such pods), then
// bisects between the last count that failed and the first that worked.
// The bisection assumes monotonicity (if k copies are enough, so are
// k+1), which the scheduler does not promise: scores change with every
// node added, so placements may differ; the count reported was placed and
// works, and the count below it failed (or is below the bound).
//
// A pod that does not fit one empty copy of the template, on the cluster
// as it is, is listed in NeverFit with the filter that rejects it on that
// copy, and not waited for.
func UntilFits(ctx context.Context, in UntilFitsInput) (*UntilFitsResult, error) {
	s := &search{in: in, snap: cache.NewEmptySnapshot(), queue: decide.QueueOrder(in.Pods)}
	if in.Shared != nil {
		s.e, s.snap = in.Shared.e, in.Shared.snap
	} else {
		if err := in.Model.Cache.UpdateSnapshot(s.snap); err != nil {
			return nil, err
		}
		e, err := decide.New(ctx, decide.Input{Snapshot: s.snap, Pending: in.Model.Pending, Objects: s.objects(), Config: in.Config})
		if err != nil {
			return nil, err
		}
		defer e.Close()
		s.e = e
	}
	res := &UntilFitsResult{Estimate: Estimate{Template: in.Template.Name, Workload: in.Workload}}
	s.out = &res.Estimate
	if err := s.neverFit(ctx, &res.Estimate); err != nil {
		return nil, err
	}
	return res, s.run(ctx, res)
}

type search struct {
	in    UntilFitsInput
	e     *decide.Evaluator
	snap  *cache.Snapshot
	queue []*v1.Pod
	// never are the UIDs of the pods that do not fit one copy alone, or
	// that no cycle places (gated, skipped); out lists them.
	never sets.Set[types.UID]
	out   *Estimate
	// room is what the pods could use, read by neverFit, for lowerBound.
	room capacity
}

// objects are the input's objects and, when the template has a CSINode, a
// copy for every copy that may be added (at most one per pod).
func (s *search) objects() []runtime.Object {
	var csi *storagev1.CSINode
	for _, o := range s.in.Objects {
		if c, ok := o.(*storagev1.CSINode); ok && c.Name == s.in.Template.Name {
			csi = c
		}
	}
	if csi == nil || s.in.FromFile {
		return s.in.Objects
	}
	out := append([]runtime.Object(nil), s.in.Objects...)
	for i := 1; i <= len(s.in.Pods); i++ {
		c := csi.DeepCopy()
		c.ObjectMeta = metav1.ObjectMeta{Name: CopyName(s.in.Template.Name, i), UID: types.UID("whatif-" + CopyName(s.in.Template.Name, i))}
		out = append(out, c)
	}
	return out
}

// run places the pods with no copy, then searches upward from the count
// lowerBound proves necessary (no smaller count is tried: none can fit),
// or from the first guess (estimate) when that is higher. After a count
// that fails it steps up by the copies the pods left unplaced would fill,
// doubling the step on each further failure; once a count fits it bisects
// between the last count that failed and it, probing the count just below
// first. When the first count tried is the bound and fits, that one run
// is the whole search, and the count is the smallest with no
// monotonicity assumed. Only the first run and the runs that fit place
// every pod: a run stops at the first pod left pending, which decides it.
func (s *search) run(ctx context.Context, res *UntilFitsResult) error {
	// try runs count k and says whether it fits and how many of the pods
	// that fit a copy alone it scheduled.
	try := func(k int, full bool) (bool, int, error) {
		left, vs, err := s.trial(ctx, k, full)
		if err != nil {
			return false, 0, err
		}
		t := Trial{Count: k, Fits: len(left) == 0}
		if full || t.Fits {
			t.Pending = len(left)
		}
		res.Estimate.Trials = append(res.Estimate.Trials, t)
		res.Estimate.MaxTried = max(res.Estimate.MaxTried, k)
		if t.Fits || full {
			res.Verdicts = vs
		}
		return t.Fits, s.scheduled(vs), nil
	}
	fits, _, err := try(0, true)
	if err != nil || fits {
		return err
	}
	// The first run found the gated and skipped pods.
	want := len(s.queue) - s.never.Len()
	bound, perCopy := lowerBound(s.e, s.room, s.wanted())
	if s.in.WithoutBound {
		bound, perCopy = 0, 0
	}
	bound = min(bound, want)
	res.Estimate.Bound = bound
	lo, hi := max(bound-1, 0), -1
	k := min(max(s.estimate(res.Verdicts), bound, 1), want)
	for step := 0; ; k = min(k+step, want) {
		fits, placed, err := try(k, false)
		if err != nil {
			return err
		}
		if fits {
			hi = k
			break
		}
		lo = k
		if k >= want {
			return s.noCount(res, try, want)
		}
		step = max(2*step, stepAfter(k, want-placed, perCopy))
	}
	for probe := hi - 1; hi-lo > 1; probe = (lo + hi) / 2 {
		if fits, _, err = try(probe, false); err != nil {
			return err
		}
		if fits {
			hi = probe
		} else {
			lo = probe
		}
	}
	// The verdicts are those of the last run that fit: hi's.
	res.Estimate.Count = hi
	return nil
}

// stepAfter is how many copies to add after count k failed with unplaced
// pods not scheduled: as many as those pods fill, perCopy to a copy (at
// least 1); k (doubling) when perCopy is unknown.
func stepAfter(k, unplaced int, perCopy int64) int {
	if perCopy <= 0 {
		return k
	}
	return max(1, int((int64(unplaced)+perCopy-1)/perCopy))
}

// wanted are the queued pods that fit one copy alone: those a count must
// schedule.
func (s *search) wanted() []*v1.Pod {
	var out []*v1.Pod
	for _, p := range s.queue {
		if !s.never.Has(p.UID) {
			out = append(out, p)
		}
	}
	return out
}

// scheduled counts the verdicts of wanted pods that are Scheduled.
func (s *search) scheduled(vs []*decide.Verdict) int {
	n := 0
	for _, v := range vs {
		if v.Result == decide.Scheduled && !s.never.Has(v.Pod.UID) {
			n++
		}
	}
	return n
}

// noCount: even want copies leave pods pending; place them in full once
// more to list those pods.
func (s *search) noCount(res *UntilFitsResult, try func(int, bool) (bool, int, error), want int) error {
	res.Estimate.Count = -1
	res.Estimate.Trials = res.Estimate.Trials[:len(res.Estimate.Trials)-1]
	if _, _, err := try(want, true); err != nil {
		return err
	}
	for _, v := range res.Verdicts {
		if v.Result != decide.Scheduled && !s.never.Has(v.Pod.UID) {
			res.Estimate.StillPending = append(res.Estimate.StillPending, v.Pod.Namespace+"/"+v.Pod.Name)
		}
	}
	return nil
}

// neverFit evaluates every pod against the cluster with one empty copy of
// the template and keeps those the copy rejects.
func (s *search) neverFit(ctx context.Context, out *Estimate) error {
	s.never = sets.New[types.UID]()
	undo, err := s.addCopies(1)
	if err != nil {
		return err
	}
	defer undo()
	name := CopyName(s.in.Template.Name, 1)
	use := newUsable(s.snap.NumNodes())
	// Pods of one class (a workload's replicas) get one verdict: nothing
	// changes between these FilterAll calls.
	byClass := map[string]*NeverFit{}
	for _, p := range s.queue {
		key := s.e.ClassKey(p)
		nf, seen := byClass[key]
		if !seen || key == "" {
			v, err := s.e.FilterAll(ctx, p)
			if err != nil {
				return fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
			}
			nf = rejection(v, name)
			if nf == nil {
				use.add(v)
			}
			if key != "" {
				byClass[key] = nf
			}
		}
		if nf != nil {
			nf := *nf
			s.never.Insert(p.UID)
			nf.Pod = p.Namespace + "/" + p.Name
			out.NeverFit = append(out.NeverFit, nf)
		}
	}
	s.room = use.capacity(s.snap, name)
	return nil
}

// rejection is why the verdict of FilterAll does not take node, or nil
// when node passes: the Filter plugin that rejected it, else (a PreFilter
// rejection, which ends the cycle for every node, or a PreFilter node
// subset that leaves the node out) the FailedScheduling message.
func rejection(v *decide.Verdict, node string) *NeverFit {
	for _, n := range v.Nodes {
		if n.Name != node {
			continue
		}
		if n.Feasible {
			return nil
		}
		if n.Plugin != "" {
			return &NeverFit{Plugin: n.Plugin, Reasons: n.Reasons}
		}
	}
	if v.Result == decide.Scheduled {
		return nil // the node was not among those filtered: not reached
	}
	return &NeverFit{Plugin: "PreFilter", Reasons: []string{v.Message}}
}

// addCopies adds k copies of the template (and their node-bound pods) to
// the cache and brings the Evaluator up to date; undo takes them out
// again.
func (s *search) addCopies(k int) (undo func(), err error) {
	c := s.in.Model.Cache
	var nodes []*v1.Node
	var pods []*v1.Pod
	for i := 1; i <= k; i++ {
		n := CopyNode(s.in.Template, CopyName(s.in.Template.Name, i))
		c.AddNode(n)
		nodes = append(nodes, n)
		for _, p := range s.in.Bound {
			cp := copyBoundPod(p, n.Name)
			if err := c.AddPod(cp); err == nil {
				pods = append(pods, cp)
			}
		}
	}
	undo = func() {
		for _, p := range pods {
			_ = c.RemovePod(p)
		}
		for _, n := range nodes {
			_ = c.RemoveNode(n)
		}
	}
	if err := s.refresh(); err != nil {
		undo()
		return nil, err
	}
	return undo, nil
}

func (s *search) refresh() error {
	if err := s.in.Model.Cache.UpdateSnapshot(s.snap); err != nil {
		return err
	}
	s.e.Refresh(s.snap)
	return nil
}

// trial places the pods with k copies, each assumed before the next, and
// returns the pods that fit a copy alone but stayed pending, and the pods'
// verdicts; unless full, it stops at the first such pod. The cache is restored before it returns.
func (s *search) trial(ctx context.Context, k int, full bool) ([]*v1.Pod, []*decide.Verdict, error) {
	if sh := s.in.Shared; k == 0 && sh != nil {
		if sh.zero == nil {
			_, vs, err := s.place(ctx, 0, true)
			if err != nil {
				return nil, nil, err
			}
			sh.zero = &zeroRun{verdicts: vs}
		}
		return s.replayZero(), sh.zero.verdicts, nil
	}
	return s.place(ctx, k, full)
}

// replayZero is the shared run with no copy for this search: its gated
// and skipped pods noted as never fitting, and its pending pods but
// those this template never takes.
func (s *search) replayZero() []*v1.Pod {
	z := s.in.Shared.zero
	for _, v := range z.verdicts {
		if (v.Result == decide.Gated || v.Result == decide.Skipped) && !s.never.Has(v.Pod.UID) {
			s.never.Insert(v.Pod.UID)
			s.out.NeverFit = append(s.out.NeverFit, NeverFit{Pod: v.Pod.Namespace + "/" + v.Pod.Name, Plugin: string(v.Result), Reasons: []string{v.Message}})
		}
	}
	var left []*v1.Pod
	for _, v := range z.verdicts {
		if v.Result != decide.Scheduled && !s.never.Has(v.Pod.UID) {
			left = append(left, v.Pod)
		}
	}
	return left
}

// place is trial's placement run.
func (s *search) place(ctx context.Context, k int, full bool) ([]*v1.Pod, []*decide.Verdict, error) {
	undo, err := s.addCopies(k)
	if err != nil {
		return nil, nil, err
	}
	defer undo()
	c := s.in.Model.Cache
	var assumed []*v1.Pod
	defer func() {
		for _, p := range assumed {
			_ = c.ForgetPod(p)
		}
	}()
	s.e.Restart()
	// The scheduler's queue: the pending pods not placed yet.
	queued := slices.Clone(s.in.Model.Pending)
	var left []*v1.Pod
	verdicts := make([]*decide.Verdict, 0, len(s.queue))
	defer func() { s.out.Cycles += len(verdicts) }()
	for _, p := range s.queue {
		s.e.SetPending(queued)
		v, err := s.schedule(ctx, p)
		if err != nil {
			return nil, nil, fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		verdicts = append(verdicts, v)
		if (v.Result == decide.Gated || v.Result == decide.Skipped) && !s.never.Has(p.UID) {
			// No cycle runs for it, whatever the nodes (why says why).
			s.never.Insert(p.UID)
			s.out.NeverFit = append(s.out.NeverFit, NeverFit{Pod: p.Namespace + "/" + p.Name, Plugin: string(v.Result), Reasons: []string{v.Message}})
		}
		if v.Result != decide.Scheduled {
			if !s.never.Has(p.UID) {
				left = append(left, p)
				if !full {
					return left, verdicts, nil // the run fails: no need to go on
				}
			}
			continue
		}
		a := p.DeepCopy()
		a.Spec.NodeName = v.Node
		if err := c.AssumePod(a); err != nil {
			return nil, nil, fmt.Errorf("assuming pod %s/%s on %s: %w", p.Namespace, p.Name, v.Node, err)
		}
		assumed = append(assumed, a)
		if i := slices.IndexFunc(queued, func(q *v1.Pod) bool { return q.UID == p.UID }); i >= 0 {
			queued = slices.Delete(queued, i, i+1)
		}
		if err := s.refresh(); err != nil {
			return nil, nil, err
		}
	}
	return left, verdicts, nil
}

// estimate is a first guess of the count, only to start the search near
// it: the requests of the pods left pending with no copy (cpu, memory, pod
// count), summed and divided by what one copy has free once its node-bound
// pods run, rounded up, the largest of the three. Placement decides the
// answer; a guess too low or too high only costs runs.
func (s *search) estimate(verdicts []*decide.Verdict) int {
	free := s.in.Template.Status.Allocatable.DeepCopy()
	var pods int64
	take := func(total v1.ResourceList, p *v1.Pod, sign int64) {
		for _, r := range []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory} {
			q := total[r]
			req := resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{})[r]
			if sign < 0 {
				q.Sub(req)
			} else {
				q.Add(req)
			}
			total[r] = q
		}
	}
	for _, p := range s.in.Bound {
		take(free, p, -1)
	}
	need := v1.ResourceList{}
	for _, v := range verdicts {
		if v.Result != decide.Scheduled && !s.never.Has(v.Pod.UID) {
			take(need, v.Pod, 1)
			pods++
		}
	}
	guess := 1
	ratio := func(need, free int64) {
		if free > 0 {
			guess = max(guess, int((need+free-1)/free))
		}
	}
	cpu, mem := need[v1.ResourceCPU], need[v1.ResourceMemory]
	fcpu, fmem := free[v1.ResourceCPU], free[v1.ResourceMemory]
	ratio(cpu.MilliValue(), fcpu.MilliValue())
	ratio(mem.Value(), fmem.Value())
	fpods := free[v1.ResourcePods]
	ratio(pods, fpods.Value()-int64(len(s.in.Bound)))
	return guess
}

// schedule places p with the search's Evaluator, keeping a result per
// node in its verdict unless the input asks for counts only.
func (s *search) schedule(ctx context.Context, p *v1.Pod) (*decide.Verdict, error) {
	if s.in.CountsOnly {
		return s.e.ScheduleCounts(ctx, p)
	}
	return s.e.Schedule(ctx, p)
}
