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
	// origins are the pods of the input the assumed replacements stand
	// for (a replacement moved again replaces the same pod).
	origins map[*v1.Pod]*v1.Pod
}

// newSimulation builds the scheduler over a snapshot of in's cache; cycles
// is about how many it will run (decide.Input.Cycles).
func newSimulation(ctx context.Context, in Input, cycles int) (*simulation, error) {
	s := &simulation{in: in, c: in.Model.Cache, snap: cache.NewEmptySnapshot(), origins: map[*v1.Pod]*v1.Pod{}}
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
}

// remove takes node and its pods out of the cache and places the
// replacements of toMove on the nodes left, each by its own full cycle.
// When one finds no place, the node and its pods are put back and the
// replacements placed so far forgotten.
//
// No verdict is carried over from an identical pod (same class key) that
// found no place before, though it would be the same verdict whenever
// only filters that more pods and fewer nodes cannot turn had rejected
// it: the answer is the first pod in the queue's order to find no place,
// which needs every pod before it placed; its message counts the nodes
// per reason as they are at its turn (a node that gained pods may add
// "Insufficient memory" to "Insufficient cpu"); and the cycles skipped
// would have moved the scheduler's own state for the later candidates
// (the node the next scan starts from, OpportunisticBatching's cycle
// count). TestFirstPodWithoutPlaceIsTheAnswer shows such a shortcut
// naming a pod kube-scheduler never gets to.
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
	var assumed []*v1.Pod
	for _, r := range reps {
		if err := s.c.UpdateSnapshot(s.snap); err != nil {
			return nil, err
		}
		s.e.Refresh(s.snap)
		v, err := s.e.ScheduleCounts(ctx, r)
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", r.Namespace, r.Name, err)
		}
		res.cycles++
		if v.Result != decide.Scheduled {
			res.failed, res.message = origin[r], v.Message
			s.forgetFailed(v)
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

// forgetFailed clears what a failed cycle leaves in the evaluator: a
// nomination preemption made for a pod that will not exist.
func (s *simulation) forgetFailed(v *decide.Verdict) {
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
