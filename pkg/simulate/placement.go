package simulate

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/decide"
)

// placement decides where pods go the way kube-scheduler v1.36 does: a
// decide.Evaluator runs each pod's scheduling cycle (every default plugin,
// or the --config profiles) over a snapshot of the simulation's cache, and
// consecutive placements behave as consecutive cycles (the scan start
// rotates, batching hints apply). The snapshot is brought up to date before
// every placement, so each pod sees the pods assumed, forgotten or expired
// before it.
type placement struct {
	eval *decide.Evaluator
	snap *cache.Snapshot
}

// placer returns the simulation's placement, built on first use.
func (s *Simulator) placer() (*placement, error) {
	if s.placement != nil {
		return s.placement, nil
	}
	p := &placement{snap: cache.NewEmptySnapshot()}
	if err := s.model.Cache.UpdateSnapshot(p.snap); err != nil {
		return nil, err
	}
	e, err := decide.New(context.Background(), decide.Input{
		Snapshot: p.snap, Pending: s.model.Pending, Objects: s.objects, Config: s.opts.SchedulerConfig,
	})
	if err != nil {
		return nil, err
	}
	p.eval = e
	s.placement = p
	return p, nil
}

// place runs the pod's scheduling cycle against the cache as it is now,
// assumed pods included. A pod that is unschedulable gets its
// FailedScheduling message and, per node, the filter that rejected it.
func (s *Simulator) place(pod *v1.Pod) (*decide.Verdict, error) {
	p, err := s.placer()
	if err != nil {
		return nil, err
	}
	if err := s.model.Cache.UpdateSnapshot(p.snap); err != nil {
		return nil, err
	}
	p.eval.Refresh(p.snap)
	p.eval.SetPending(s.queued(pod))
	return p.eval.Schedule(context.Background(), pod)
}

// queued lists the pods the scheduler's queue would hold now: the input's
// pending pods and the simulated ones (next among them) that are not in the
// cache (never assumed, forgotten, expired or removed). A tracked pod's
// state is the one the cache last reported; an untracked pending pod was
// never given to the cache (only a script step could, and it tracks the
// pod first).
func (s *Simulator) queued(next *v1.Pod) []*v1.Pod {
	out := make([]*v1.Pod, 0, len(s.model.Pending)+1)
	seen := make(map[types.UID]bool, len(s.model.Pending)+len(s.pods.order)+1)
	add := func(p *v1.Pod) {
		if seen[p.UID] {
			return
		}
		seen[p.UID] = true
		if t := s.pods.byUID[p.UID]; t == nil || !inCache(t.state) {
			out = append(out, p)
		}
	}
	for _, p := range s.model.Pending {
		add(p)
	}
	add(next)
	for _, t := range s.pods.order {
		add(t.orig)
	}
	return out
}

// inCache: the cache holds a pod in state (GetPod finds it).
func inCache(state cache.PodState) bool {
	return state == cache.StateAssumed || state == cache.StateAdded
}

// Close releases the decision engine, if one was built.
func (s *Simulator) Close() {
	if s.placement != nil {
		s.placement.eval.Close()
	}
}

// rejections lists, for an unschedulable verdict, each evaluated node with
// the Filter plugin that rejected it and its reasons.
func rejections(v *decide.Verdict) []v1alpha1.NodeReasons {
	var out []v1alpha1.NodeReasons
	for _, n := range v.Nodes {
		if !n.Feasible {
			out = append(out, v1alpha1.NodeReasons{Node: n.Name, Plugin: n.Plugin, Reasons: n.Reasons})
		}
	}
	return out
}

// placedNote describes a placement: the node's score among the feasible
// nodes, or that it was the only one.
func placedNote(v *decide.Verdict) string {
	switch v.TakenFirst {
	case "nominated":
		return "kube-scheduler's choice: its nominated node, tried first, passes every filter"
	case "hint":
		return "kube-scheduler's choice: the previous identical pod's runner-up (batching hint) passes every filter"
	}
	if v.FeasibleNodes <= 1 {
		return fmt.Sprintf("kube-scheduler's choice: the only feasible node of %d", v.NumAllNodes)
	}
	for _, n := range v.Nodes {
		if n.Name == v.Node {
			return fmt.Sprintf("kube-scheduler's choice: score %d, highest of %d feasible nodes", n.Total, v.FeasibleNodes)
		}
	}
	return fmt.Sprintf("kube-scheduler's choice of %d feasible nodes", v.FeasibleNodes)
}

// unschedulableNote is the FailedScheduling message, plus what preemption
// would do.
func unschedulableNote(v *decide.Verdict) string {
	msg := v.Message
	if p := v.Preemption; p != nil {
		msg += fmt.Sprintf(" (preemption would nominate %s and evict %d pods)", p.NominatedNode, len(p.Victims))
	}
	return msg
}

// fitReasons is why a pod does not fit node by resources now; nil when
// it fits or the node has no node object (the cache would create a
// placeholder, which has nothing allocatable and is not checked).
func (s *Simulator) fitReasons(req *cache.Resource, node string) []string {
	ni, ok := s.model.Cache.GetNodeInfo(node)
	if !ok || ni.Node() == nil {
		return nil
	}
	return cache.InsufficientResources(req, ni)
}
