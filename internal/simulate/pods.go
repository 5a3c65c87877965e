package simulate

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// tracked is what the simulator knows about one simulated pod. Its cache
// state is never guessed: it changes only with the transitions the cache
// reports to the Observer.
type tracked struct {
	// orig is the pod as given; assume copies it and sets spec.nodeName.
	orig *v1.Pod
	// cur is the last object the cache accepted for the pod (the assumed
	// copy, the added or updated object); later operations pass it, as the
	// scheduler passes its assumed pod to FinishBinding and ForgetPod.
	cur *v1.Pod
	req cache.Resource

	state cache.PodState
	// cause is the Cache method of the last transition; node the node it named.
	cause     string
	node      string
	changedAt time.Duration

	// finished and deadline mirror the cache's podState, which the Cache
	// interface does not expose: set by FinishBinding on an assumed pod.
	finished    bool
	finishedAt  time.Duration
	hasDeadline bool
	deadline    time.Duration

	// unschedulable holds the reasons of the last placement that found no
	// node, and their summary; cleared by any transition.
	unschedulable     []NodeReasons
	unschedulableNote string
}

func podName(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

// quotedPod names p in messages, escaped (termtext.Line).
func quotedPod(p *v1.Pod) string { return termtext.Line(podName(p)) }

// registry holds the simulated pods in the order they became known.
type registry struct {
	byName map[string]*tracked
	byUID  map[types.UID]*tracked
	order  []*tracked
}

func newRegistry() *registry {
	return &registry{byName: map[string]*tracked{}, byUID: map[types.UID]*tracked{}}
}

// add registers p, whose cache state is state and which requests req, or
// fails if a pod with the same namespace/name is known.
func (r *registry) add(p *v1.Pod, state cache.PodState, req cache.Resource) (*tracked, error) {
	if _, ok := r.byName[podName(p)]; ok {
		return nil, fmt.Errorf("pod %s is given twice", quotedPod(p))
	}
	t := &tracked{
		orig:  p,
		cur:   p,
		req:   req,
		state: state,
		node:  p.Spec.NodeName,
	}
	r.byName[podName(p)] = t
	r.byUID[p.UID] = t
	r.order = append(r.order, t)
	return t, nil
}

// apply updates the pod the transition concerns and returns the node it
// was on before, or "" if the pod is not tracked.
func (r *registry) apply(tr cache.Transition, now time.Duration) string {
	t := r.byUID[tr.Pod.UID]
	if t == nil {
		return ""
	}
	prev := t.node
	t.state, t.cause, t.node, t.changedAt = tr.To, tr.Cause, tr.Node, now
	t.finished, t.hasDeadline, t.unschedulable, t.unschedulableNote = false, false, nil, ""
	return prev
}

// finishBinding mirrors the cache's FinishBinding: only an assumed pod
// starts its TTL, and only a TTL > 0 sets a deadline, unless a TTL of 0
// expires too (before v1.25: the deadline is the finish time).
func (t *tracked) finishBinding(now, ttl time.Duration, zeroNeverExpires bool) {
	if t.state != cache.StateAssumed {
		return
	}
	t.finished, t.finishedAt = true, now
	t.hasDeadline, t.deadline = ttl > 0 || !zeroNeverExpires, now+ttl
}
