package decide

import (
	"context"
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Sequence schedules pods one after another over a cache, the way the
// scheduler works through its queue: each pod's cycle runs with
// Evaluator.Schedule, and a scheduled pod is assumed on its node in the
// cache (AssumePod, as the scheduler does before binding) before the next
// pod's cycle sees the new snapshot. The cache is changed: pass a cache
// built for the purpose.
type Sequence struct {
	e    *Evaluator
	c    cache.Cache
	snap *cache.Snapshot
	// assumed are the copies assumed in c, for Undo.
	assumed []*v1.Pod
}

// NewSequence builds an Evaluator over a fresh snapshot of c. in.Snapshot
// is ignored.
func NewSequence(ctx context.Context, c cache.Cache, in Input) (*Sequence, error) {
	s := &Sequence{c: c, snap: cache.NewEmptySnapshot()}
	if err := c.UpdateSnapshot(s.snap); err != nil {
		return nil, err
	}
	in.Snapshot = s.snap
	e, err := New(ctx, in)
	if err != nil {
		return nil, err
	}
	s.e = e
	return s, nil
}

// Next runs the next pod's cycle. A scheduled pod is assumed in the cache
// as a copy with spec.nodeName set; the returned Verdict keeps the pod as
// given.
func (s *Sequence) Next(ctx context.Context, pod *v1.Pod) (*Verdict, error) {
	v, err := s.e.Schedule(ctx, pod)
	if err != nil || v.Result != Scheduled {
		return v, err
	}
	assumed := pod.DeepCopy()
	assumed.Spec.NodeName = v.Node
	if err := s.c.AssumePod(assumed); err != nil {
		return v, fmt.Errorf("assuming pod %s/%s on %s: %w", pod.Namespace, pod.Name, v.Node, err)
	}
	s.assumed = append(s.assumed, assumed)
	if err := s.c.UpdateSnapshot(s.snap); err != nil {
		return v, err
	}
	s.e.Refresh(s.snap)
	return v, nil
}

// Undo forgets every pod the sequence assumed (ForgetPod, as the scheduler
// does when a binding fails), so that the cache holds again what it held
// before the first Next; the Evaluator is not refreshed.
func (s *Sequence) Undo() error {
	for i := len(s.assumed) - 1; i >= 0; i-- {
		if err := s.c.ForgetPod(s.assumed[i]); err != nil {
			return err
		}
	}
	s.assumed = nil
	return nil
}

// PlaceTogether places pods one after another in kube-scheduler's queue
// order (QueueOrder), each assumed on its node before the next pod's cycle,
// as simulate --pending places them, and returns their verdicts in that
// order. The pods assumed are forgotten before it returns: c ends holding
// what it held. in.Snapshot is ignored. Errors: the engine's, named by pod;
// the cache's.
func PlaceTogether(ctx context.Context, c cache.Cache, in Input, pods []*v1.Pod) ([]*Verdict, error) {
	seq, err := NewSequence(ctx, c, in)
	if err != nil {
		return nil, err
	}
	defer seq.Close()
	out := make([]*Verdict, 0, len(pods))
	for _, p := range QueueOrder(pods) {
		if err := ctx.Err(); err != nil {
			return nil, errors.Join(err, seq.Undo())
		}
		v, err := seq.Next(ctx, p)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err), seq.Undo())
		}
		out = append(out, v)
	}
	return out, seq.Undo()
}

// Evaluator returns the Evaluator the sequence runs on.
func (s *Sequence) Evaluator() *Evaluator { return s.e }

// Close releases the Evaluator.
func (s *Sequence) Close() { s.e.Close() }
