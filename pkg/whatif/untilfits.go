package whatif

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
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
	// Pods are the pending pods to schedule.
	Pods []*v1.Pod
}

// UntilFitsResult is the estimate and the placement at its count.
type UntilFitsResult struct {
	API v1alpha1.UntilFits
	// Verdicts are the pods' outcomes, in queue order, with API.Count copies
	// (with API.MaxTried when Count is -1).
	Verdicts []*decide.Verdict
}

// UntilFits finds the smallest number of copies of in.Template with which
// every pod of in.Pods that fits one empty copy alone is scheduled, when
// the pods are placed one after the other in the scheduler's queue order,
// each assumed on its node before the next one's cycle (as simulate
// --pending places them). Each count tried is a full placement run.
//
// The search doubles the count from 1 until every such pod is scheduled
// (at most as many copies as there are such pods), then bisects between
// the last count that failed and the first that worked. That assumes
// monotonicity (if k copies are enough, so are k+1), which the scheduler
// does not promise: scores change with every node added, so placements
// may differ; the count reported was placed and works.
//
// A pod that does not fit one empty copy of the template, on the cluster
// as it is, is listed in NeverFit with the filter that rejects it on that
// copy, and not waited for.
func UntilFits(ctx context.Context, in UntilFitsInput) (*UntilFitsResult, error) {
	s := &search{in: in, snap: cache.NewEmptySnapshot(), queue: decide.QueueOrder(in.Pods)}
	if err := in.Model.Cache.UpdateSnapshot(s.snap); err != nil {
		return nil, err
	}
	e, err := decide.New(ctx, decide.Input{Snapshot: s.snap, Pending: in.Model.Pending, Objects: s.objects(), Config: in.Config})
	if err != nil {
		return nil, err
	}
	defer e.Close()
	s.e = e
	res := &UntilFitsResult{API: v1alpha1.UntilFits{Template: in.Template.Name}}
	if err := s.neverFit(ctx, &res.API); err != nil {
		return nil, err
	}
	return res, s.run(ctx, res)
}

type search struct {
	in    UntilFitsInput
	e     *decide.Evaluator
	snap  *cache.Snapshot
	queue []*v1.Pod
	// never are the UIDs of the pods that do not fit one copy alone.
	never sets.Set[types.UID]
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

// run doubles, then bisects.
func (s *search) run(ctx context.Context, res *UntilFitsResult) error {
	want := len(s.queue) - s.never.Len()
	try := func(k int) (int, []*decide.Verdict, error) {
		left, vs, err := s.trial(ctx, k)
		if err == nil {
			res.API.Trials = append(res.API.Trials, v1alpha1.UntilFitsTrial{Count: k, Pending: len(left)})
			res.API.MaxTried = max(res.API.MaxTried, k)
		}
		return len(left), vs, err
	}
	n, vs, err := try(0)
	if err != nil || n == 0 {
		res.Verdicts = vs
		return err
	}
	lo, hi := 0, -1
	for k := 1; ; k = min(2*k, want) {
		n, vs, err = try(k)
		if err != nil {
			return err
		}
		if n == 0 {
			hi, res.Verdicts = k, vs
			break
		}
		lo = k
		if k >= want {
			res.API.Count, res.Verdicts = -1, vs
			for _, v := range vs {
				if v.Result != decide.Scheduled && !s.never.Has(v.Pod.UID) {
					res.API.StillPending = append(res.API.StillPending, v.Pod.Namespace+"/"+v.Pod.Name)
				}
			}
			return nil
		}
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if n, vs, err = try(mid); err != nil {
			return err
		}
		if n == 0 {
			hi, res.Verdicts = mid, vs
		} else {
			lo = mid
		}
	}
	res.API.Count = hi
	return nil
}

// neverFit evaluates every pod against the cluster with one empty copy of
// the template and keeps those the copy rejects.
func (s *search) neverFit(ctx context.Context, out *v1alpha1.UntilFits) error {
	s.never = sets.New[types.UID]()
	undo, err := s.addCopies(1)
	if err != nil {
		return err
	}
	defer undo()
	name := CopyName(s.in.Template.Name, 1)
	for _, p := range s.queue {
		v, err := s.e.FilterAll(ctx, p)
		if err != nil {
			return fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		if v.Result == decide.Gated || v.Result == decide.Skipped {
			s.never.Insert(p.UID)
			out.NeverFit = append(out.NeverFit, v1alpha1.NeverFit{Pod: p.Namespace + "/" + p.Name, Plugin: string(v.Result), Reasons: []string{v.Message}})
			continue
		}
		for _, n := range v.Nodes {
			if n.Name == name && !n.Feasible {
				s.never.Insert(p.UID)
				out.NeverFit = append(out.NeverFit, v1alpha1.NeverFit{Pod: p.Namespace + "/" + p.Name, Plugin: n.Plugin, Reasons: n.Reasons})
			}
		}
	}
	return nil
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
// returns the pods that fit a copy alone but stayed pending, and every
// pod's verdict. The cache is restored before it returns.
func (s *search) trial(ctx context.Context, k int) ([]*v1.Pod, []*decide.Verdict, error) {
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
	placed := sets.New[types.UID]()
	var left []*v1.Pod
	verdicts := make([]*decide.Verdict, 0, len(s.queue))
	for _, p := range s.queue {
		s.e.SetPending(s.queued(placed))
		v, err := s.e.Schedule(ctx, p)
		if err != nil {
			return nil, nil, fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		verdicts = append(verdicts, v)
		if v.Result != decide.Scheduled {
			if !s.never.Has(p.UID) {
				left = append(left, p)
			}
			continue
		}
		a := p.DeepCopy()
		a.Spec.NodeName = v.Node
		if err := c.AssumePod(a); err != nil {
			return nil, nil, fmt.Errorf("assuming pod %s/%s on %s: %w", p.Namespace, p.Name, v.Node, err)
		}
		assumed = append(assumed, a)
		placed.Insert(p.UID)
		if err := s.refresh(); err != nil {
			return nil, nil, err
		}
	}
	return left, verdicts, nil
}

// queued are the pending pods not placed yet: the scheduler's queue.
func (s *search) queued(placed sets.Set[types.UID]) []*v1.Pod {
	out := make([]*v1.Pod, 0, len(s.in.Model.Pending))
	for _, p := range s.in.Model.Pending {
		if !placed.Has(p.UID) {
			out = append(out, p)
		}
	}
	return out
}
