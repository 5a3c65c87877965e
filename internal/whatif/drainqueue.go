package whatif

import (
	"container/heap"
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// drainRun is one Drain's state: the budgets' allowances, the pods waiting
// for one, the scheduling queue, and what has been decided.
type drainRun struct {
	in      DrainInput
	budgets *Budgets
	// waiting are the pods each budget refused, in eviction order; budgets
	// is the order budgets first refused one.
	waiting map[*Budget][]waiter
	refused []*Budget
	queue   queue
	seq     int
	// objects are the scheduling kinds the evaluator reads.
	objects []runtime.Object
	// snap and engine are the scheduler's snapshot and cycle, built on
	// the first placement and kept from node to node.
	snap   *cache.Snapshot
	engine *decide.Evaluator
	// awaiting are the StatefulSet replacements waiting for their pod to
	// be gone, in eviction order.
	awaiting []*queued
	// stuck is the node kubectl drain would wait on for ever (a budget
	// holds back its pods and there is no --timeout), "" while none.
	stuck string
	order int // kubectl's order of the pod being handled
	rest  []ordered
	out   *DrainOutcome
}

// waiter is an evictable pod: its node and its place in kubectl's order.
type waiter struct {
	pod   *v1.Pod
	from  string
	order int
}

// ordered is an outcome reported in kubectl's order.
type ordered struct {
	PodOutcome
	order int
}

func (r *drainRun) report(o PodOutcome) { r.rest = append(r.rest, ordered{o, r.order}) }

// evict asks the eviction API for w's pod: refused, it waits for its
// budget; failed, it blocks; admitted, it turns terminating in the cache
// and its replacement is queued (or it is reported not recreated).
func (r *drainRun) evict(w waiter) error {
	pod := w.pod
	if pod.DeletionTimestamp != nil {
		r.rest = append(r.rest, ordered{PodOutcome{Pod: pod, From: w.from, Result: DrainSkipped,
			Message: "terminating already: its controller has made its replacement"}, w.order})
		return nil
	}
	ev := r.budgets.Evict(pod)
	switch ev.Admission {
	case Refused:
		if _, seen := r.waiting[ev.Budget]; !seen {
			r.refused = append(r.refused, ev.Budget)
		}
		r.waiting[ev.Budget] = append(r.waiting[ev.Budget], w)
		return nil
	case Failed:
		r.rest = append(r.rest, ordered{PodOutcome{Pod: pod, From: w.from, Result: DrainBlocked, Budget: ev.Budget.Key(), Message: ev.Message}, w.order})
		return nil
	}
	// A pod the cache refused (model.Refused) has no place to keep.
	if cached, err := r.in.Model.Cache.GetPod(pod); err == nil {
		if err := r.in.Model.Cache.UpdatePod(cached, terminating(cached, r.in.Now)); err != nil {
			return fmt.Errorf("pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
	}
	o := PodOutcome{Pod: pod, From: w.from}
	if ev.Budget != nil {
		o.Budget = ev.Budget.Key()
	}
	switch RecreationOf(pod) {
	case Recreated:
		rep := Replacement(pod)
		o.Replacement = rep.Name
		q := &queued{pod: rep, outcome: o}
		if ev.Budget != nil {
			q.budget = ev.Budget
		}
		if ref := metav1.GetControllerOfNoCopy(pod); ref != nil && ref.Kind == "StatefulSet" {
			// The pod's name is its identity: the StatefulSet creates
			// the replacement once the pod is gone.
			r.awaiting = append(r.awaiting, q)
			break
		}
		r.enqueue(q)
	case NotMoved:
		o.Result, o.Message = DrainNotRecreated, "evicted: its DaemonSet does not place it on another node"
		r.rest = append(r.rest, ordered{o, w.order})
	default:
		o.Result, o.Message = DrainNotRecreated, notRecreatedMessage(pod)
		r.rest = append(r.rest, ordered{o, w.order})
	}
	return nil
}

func notRecreatedMessage(pod *v1.Pod) string {
	if ref := metav1.GetControllerOfNoCopy(pod); ref != nil {
		return fmt.Sprintf("evicted: its controller %s %s is not known to recreate pods", ref.Kind, ref.Name)
	}
	return "evicted: it has no controller, nothing recreates it"
}

// release evicts the pods waiting on b while it allows it. A pod refused
// again (a budget whose status is behind its spec) goes back to the head
// of the line, and the others wait with it.
func (r *drainRun) release(b *Budget) error {
	for b.Allowed > 0 && len(r.waiting[b]) > 0 {
		w := r.waiting[b][0]
		r.waiting[b] = r.waiting[b][1:]
		if err := r.evict(w); err != nil {
			return err
		}
		if q := r.waiting[b]; len(q) > 0 && q[len(q)-1] == w {
			r.waiting[b] = append([]waiter{w}, q[:len(q)-1]...)
			return nil
		}
	}
	return nil
}

// blockWaiting reports the pods still waiting for a budget when the queue
// is empty, and forgets them: kubectl drain retries their evictions until
// --timeout, or for ever. It says whether there were any.
func (r *drainRun) blockWaiting() bool {
	msg := func(b *Budget) string { return b.Refusal() }
	if t := r.in.Timeout; t > 0 {
		msg = func(b *Budget) string {
			return fmt.Sprintf("%s; kubectl drain gives up after --timeout %v and goes on with the next node", b.Refusal(), t)
		}
	}
	held := false
	for _, b := range r.refused {
		for _, w := range r.waiting[b] {
			held = true
			r.rest = append(r.rest, ordered{PodOutcome{Pod: w.pod, From: w.from, Result: DrainBlocked, Budget: b.Key(),
				Message: msg(b)}, w.order})
		}
	}
	r.refused, r.waiting = nil, map[*Budget][]waiter{}
	return held
}

// place runs the queue: each pod's scheduling cycle over the cache as it
// is now, a placed pod assumed before the next, a placed replacement
// restoring its budget (and so releasing the pods waiting on it).
func (r *drainRun) place(ctx context.Context) error {
	if r.queue.Len() == 0 {
		return nil
	}
	c := r.in.Model.Cache
	if r.engine == nil {
		r.snap = cache.NewEmptySnapshot()
		if err := c.UpdateSnapshot(r.snap); err != nil {
			return err
		}
		e, err := decide.New(ctx, decide.Input{Snapshot: r.snap, Pending: r.in.Model.Pending, Objects: r.objects, Config: r.in.Config, OmitNodes: true})
		if err != nil {
			return err
		}
		r.engine = e
	}
	for r.queue.Len() > 0 {
		q := heap.Pop(&r.queue).(*queued)
		if err := c.UpdateSnapshot(r.snap); err != nil {
			return err
		}
		r.engine.Refresh(r.snap)
		v, err := r.engine.Schedule(ctx, q.pod)
		if err != nil {
			return fmt.Errorf("pod %s/%s: %w", q.pod.Namespace, q.pod.Name, err)
		}
		o := q.outcome
		o.Verdict = v
		if v.Result != decide.Scheduled {
			o.Result, o.Message = DrainUnschedulable, unschedulableMessage(v)
			r.out.Pods = append(r.out.Pods, o)
			continue
		}
		o.Result, o.Node = DrainScheduled, v.Node
		r.out.Pods = append(r.out.Pods, o)
		assumed := q.pod.DeepCopy()
		assumed.Spec.NodeName = v.Node
		if err := c.AssumePod(assumed); err != nil {
			return fmt.Errorf("assuming pod %s/%s on %s: %w", q.pod.Namespace, q.pod.Name, v.Node, err)
		}
		if q.budget != nil {
			q.budget.Restore()
			if err := r.release(q.budget); err != nil {
				return err
			}
		}
	}
	return nil
}

// close releases the scheduler's cycle, if one was built.
func (r *drainRun) close() {
	if r.engine != nil {
		r.engine.Close()
	}
}

// unschedulableMessage is the FailedScheduling message, plus what
// preemption would do (as simulate says it).
func unschedulableMessage(v *decide.Verdict) string {
	msg := v.Message
	if p := v.Preemption; p != nil {
		msg += fmt.Sprintf(" (preemption would nominate %s and evict %s)", p.NominatedNode, termtext.Count(len(p.Victims), "pod"))
	}
	return msg
}

// queued is a pod in the scheduling queue: a replacement (budget is the
// budget its placement restores) or a pod pending before the drain.
type queued struct {
	pod     *v1.Pod
	seq     int
	outcome PodOutcome
	budget  *Budget
}

func (r *drainRun) enqueue(q *queued) {
	r.seq++
	q.seq = r.seq
	heap.Push(&r.queue, q)
}

// queue is the scheduling queue's activeQ order (PrioritySort, v1.36):
// higher priority first, then the earlier queued.
type queue []*queued

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if pi, pj := priority(q[i].pod), priority(q[j].pod); pi != pj {
		return pi > pj
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*queued)) }
func (q *queue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
