package scaledown

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// simulation removes nodes from the model's cache and places their pods
// with kube-scheduler's cycle.
type simulation struct {
	in   Input
	c    cache.Cache
	snap *cache.Snapshot
	e    *decide.Evaluator
	// hopeless are the class keys of replacements that found no place for
	// reasons only more room on a node could undo (hopelessPlugins): the
	// nodes left can only have less.
	hopeless map[string]bool
	// origins are the pods of the input the assumed replacements stand
	// for (a replacement moved again replaces the same pod).
	origins map[*v1.Pod]*v1.Pod
}

// hopelessPlugins are the filters whose rejection of a node stays while
// pods are only added to the nodes that stay and nodes only leave:
// resources and ports only fill up, taints, labels, names and the
// unschedulable flag do not change. A class rejected by these alone finds
// no place later either.
var hopelessPlugins = map[string]bool{
	"NodeResourcesFit": true, "NodePorts": true, "TaintToleration": true,
	"NodeAffinity": true, "NodeName": true, "NodeUnschedulable": true,
}

// newSimulation builds the scheduler over a snapshot of in's cache; cycles
// is about how many it will run (decide.Input.Cycles).
func newSimulation(ctx context.Context, in Input, cycles int) (*simulation, error) {
	s := &simulation{in: in, c: in.Model.Cache, snap: cache.NewEmptySnapshot(), hopeless: map[string]bool{}, origins: map[*v1.Pod]*v1.Pod{}}
	if err := s.c.UpdateSnapshot(s.snap); err != nil {
		return nil, err
	}
	e, err := decide.New(ctx, decide.Input{Snapshot: s.snap, Pending: in.Model.Pending, Objects: in.Objects, Config: in.Config, OmitNodes: true, Cycles: cycles})
	if err != nil {
		return nil, err
	}
	s.e = e
	return s, nil
}

func (s *simulation) close() { s.e.Close() }

// removal is what became of one node's removal.
type removal struct {
	moves   []Move
	failed  *v1.Pod
	message string
	cycles  int
	settled bool
}

// remove takes node and its pods out of the cache and places the
// replacements of toMove on the nodes left. When one finds no place, the
// node and its pods are put back and the replacements placed so far
// forgotten.
func (s *simulation) remove(ctx context.Context, node *v1.Node, pods, toMove []*v1.Pod) (*removal, error) {
	cached, err := s.takeOut(node, pods)
	if err != nil {
		return nil, err
	}
	origin := map[*v1.Pod]*v1.Pod{}
	var reps []*v1.Pod
	for _, p := range toMove {
		r := whatif.Replacement(p)
		origin[r] = p
		if o := s.origins[p]; o != nil {
			origin[r] = o
		}
		reps = append(reps, r)
	}
	reps = decide.QueueOrder(reps)
	res := &removal{}
	if done, err := s.probeHopeless(ctx, reps, origin, res); done || err != nil {
		if err == nil {
			err = s.putBack(node, cached, nil)
		}
		return res, err
	}
	var assumed []*v1.Pod
	for _, r := range reps {
		if err := s.c.UpdateSnapshot(s.snap); err != nil {
			return nil, err
		}
		s.e.Refresh(s.snap)
		v, err := s.e.Schedule(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", r.Namespace, r.Name, err)
		}
		res.cycles++
		if v.Result != decide.Scheduled {
			res.failed, res.message = origin[r], v.Message
			s.remember(r, v)
			return res, s.putBack(node, cached, assumed)
		}
		a := r.DeepCopy()
		a.Spec.NodeName = v.Node
		if err := s.c.AssumePod(a); err != nil {
			return nil, fmt.Errorf("assuming pod %s/%s on %s: %w", a.Namespace, a.Name, v.Node, err)
		}
		assumed = append(assumed, a)
		s.origins[a] = origin[r]
		res.moves = append(res.moves, Move{Pod: origin[r], Node: v.Node})
	}
	return res, nil
}

// probeHopeless runs, for the first replacement of a class known to find
// no place, one cycle on the nodes left before any other pod moves. If
// only hopelessPlugins reject it again, it finds no place at its turn
// either (its turn only sees more pods), and the node is settled: done.
// Otherwise the probe decides nothing (Evaluate leaves the scheduler's
// sequence as it was) and the pods are placed in order.
func (s *simulation) probeHopeless(ctx context.Context, reps []*v1.Pod, origin map[*v1.Pod]*v1.Pod, res *removal) (bool, error) {
	for _, r := range reps {
		if key := s.e.ClassKey(r); key == "" || !s.hopeless[key] {
			continue
		}
		if err := s.c.UpdateSnapshot(s.snap); err != nil {
			return false, err
		}
		s.e.Refresh(s.snap)
		v, err := s.e.Evaluate(ctx, r)
		if err != nil {
			return false, fmt.Errorf("pod %s/%s: %w", r.Namespace, r.Name, err)
		}
		res.cycles++
		if onlyHopeless(v) {
			res.failed, res.message, res.settled = origin[r], v.Message, true
			return true, nil
		}
		return false, nil
	}
	return false, nil
}

// onlyHopeless: v is unschedulable and only hopelessPlugins rejected
// nodes (Evaluate counts them in RejectedBy, Schedule lists Nodes).
func onlyHopeless(v *decide.Verdict) bool {
	if v.Result != decide.Unschedulable || len(v.RejectedBy) == 0 && len(v.Nodes) == 0 {
		return false
	}
	for plugin := range v.RejectedBy {
		if !hopelessPlugins[plugin] {
			return false
		}
	}
	for _, n := range v.Nodes {
		if !n.Feasible && !hopelessPlugins[n.Plugin] {
			return false
		}
	}
	return true
}

// remember keeps r's class as hopeless when only hopelessPlugins rejected
// it, and clears what a failed cycle leaves in the evaluator: a
// nomination preemption made for a pod that will not exist.
func (s *simulation) remember(r *v1.Pod, v *decide.Verdict) {
	if key := s.e.ClassKey(r); key != "" && onlyHopeless(v) {
		s.hopeless[key] = true
	}
	if v.Preemption != nil {
		s.e.SetPending(s.in.Model.Pending)
	}
}

// takeOut removes node's pods (the cache's own objects) and node from the
// cache; it returns the pods, to put back.
func (s *simulation) takeOut(node *v1.Node, pods []*v1.Pod) ([]*v1.Pod, error) {
	for _, p := range pods {
		if err := s.c.RemovePod(p); err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	if err := s.c.RemoveNode(node); err != nil {
		return nil, fmt.Errorf("node %s: %w", node.Name, err)
	}
	return pods, nil
}

// putBack undoes a removal: the assumed replacements are forgotten, the
// node and its pods added back (the node re-enters the NodeTree at the
// end of its zone).
func (s *simulation) putBack(node *v1.Node, cached, assumed []*v1.Pod) error {
	for i := len(assumed) - 1; i >= 0; i-- {
		if err := s.c.ForgetPod(assumed[i]); err != nil {
			return fmt.Errorf("pod %s/%s: %w", assumed[i].Namespace, assumed[i].Name, err)
		}
	}
	s.c.AddNode(node)
	for _, p := range cached {
		if err := s.c.AddPod(p); err != nil {
			return fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	return nil
}
