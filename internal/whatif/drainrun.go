package whatif

import (
	"context"
	"fmt"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
)

// DrainResult is what becomes of one pod in a drain.
type DrainResult string

const (
	// DrainScheduled means: evicted, and its replacement is placed on Node.
	DrainScheduled DrainResult = "scheduled"
	// DrainUnschedulable means: evicted, and its replacement stays Pending
	// (Message is the FailedScheduling message).
	DrainUnschedulable DrainResult = "unschedulable"
	// DrainBlocked means: not evicted, and the drain cannot finish (a kubectl
	// rule, or a disruption budget; Message says which).
	DrainBlocked DrainResult = "blocked"
	// DrainNotRecreated means: evicted, and nothing recreates it.
	DrainNotRecreated DrainResult = "not-recreated"
	// DrainSkipped means: stays where it is without blocking (DaemonSet and
	// mirror pods, the other pods of a node whose drain is blocked).
	DrainSkipped DrainResult = "skipped"
)

// DrainInput is what Drain works on.
type DrainInput struct {
	// Model is the cluster's model. Drain changes its cache (nodes
	// cordoned, pods terminating, replacements assumed): pass a model
	// built for the purpose.
	Model *model.Model
	// Objects are the loaded objects: the scheduling kinds (for the
	// scheduler's plugins), the PodDisruptionBudgets and the DaemonSets.
	Objects []runtime.Object
	// Config is the scheduler configuration; nil means the default.
	Config *decide.Config
	// Nodes are the nodes to drain, in kubectl's order.
	Nodes []string
	Rules DrainRules
	// IncludePending also places the pods that were Pending before the
	// drain, in the queue with the replacements (ahead of them at equal
	// priority: they were queued first).
	IncludePending bool
	// Now is the drain's time: the deletion timestamp of evicted pods.
	Now time.Time
	// Timeout is kubectl drain's --timeout: how long kubectl retries the
	// evictions a disruption budget refuses before it gives up on the node
	// and goes on with the next one; 0 retries for ever. Any positive
	// value is taken to outlast the node's replacements becoming Ready.
	Timeout time.Duration
}

// PodOutcome is one pod's fate in a drain.
type PodOutcome struct {
	Pod *v1.Pod
	// From is the drained node the pod was on ("" for a pod that was
	// Pending before the drain).
	From   string
	Result DrainResult
	// Node is where its replacement (or, for a pending pod, the pod) is
	// placed; for an unschedulable one the node preemption would
	// nominate, if any.
	Node    string
	Message string
	// Budget is the "namespace/name" of the PodDisruptionBudget that
	// blocked the pod, or whose allowance its eviction used.
	Budget string
	// Replacement is the replacement's name (see Replacement).
	Replacement string
	// Verdict is the replacement's scheduling cycle, nil when none ran.
	Verdict *decide.Verdict
}

// DrainOutcome is a drain's result: every pod of the drained nodes that
// kubectl lists, in report order (the placements in the order the
// scheduler made them, then blocked, not recreated and skipped pods in
// kubectl's order), and the notes worth saying once.
type DrainOutcome struct {
	Nodes []string
	Pods  []PodOutcome
	// AssumedDaemonSets: see DrainPlan.
	AssumedDaemonSets []string
	// PendingBefore counts the pods that were Pending before the drain.
	PendingBefore int
}

// Safe reports whether every evicted pod's replacement lands and nothing blocks.
func (o *DrainOutcome) Safe() bool {
	for _, p := range o.Pods {
		if p.Result != DrainScheduled && p.Result != DrainSkipped {
			return false
		}
	}
	return true
}

// Drain models `kubectl drain NODES` followed by the scheduler: the nodes
// are cordoned; kubectl's rules decide which pods are evicted and which
// block (PlanDrain); then the nodes are drained one after another, in the
// order given, as kubectl v0.36's RunDrain does (see drainNode). On each,
// the eviction API's budget accounting decides when each pod is evicted
// (Budgets); each evicted pod turns terminating in the cache (it keeps
// its place until its grace period ends: the replacements are scheduled
// meanwhile) and its controller's replacement (Replacement) joins the
// scheduling queue, whose pods are placed one after another by
// kube-scheduler's cycle (decide.Evaluator), each assumed before the
// next, in the queue's order: priority descending, then the order they
// were queued. A replacement that is placed makes its budget allow one
// more eviction, so a pod waiting on that budget is evicted then; one
// that stays Pending does not. A StatefulSet's replacement is created
// only once its pod is gone: when the rest of the node's queue is placed,
// the node's evicted pods end and the StatefulSets' replacements are
// queued (placeNode). Only when the queue is empty does the next node's
// turn come.
//
// Errors: a --pod-selector that does not parse, the cache refusing an
// update, the scheduler's framework failing to build.
func Drain(ctx context.Context, in DrainInput) (*DrainOutcome, error) {
	m := in.Model
	drained := sets.New(in.Nodes...)
	podsOf := map[string][]*v1.Pod{}
	for _, p := range m.Pods {
		if drained.Has(p.Spec.NodeName) {
			podsOf[p.Spec.NodeName] = append(podsOf[p.Spec.NodeName], p)
		}
	}
	var daemonSets []*appsv1.DaemonSet
	var pdbs []*policyv1.PodDisruptionBudget
	var others []runtime.Object
	for _, o := range in.Objects {
		switch t := o.(type) {
		case *appsv1.DaemonSet:
			daemonSets = append(daemonSets, t)
			continue
		case *policyv1.PodDisruptionBudget:
			pdbs = append(pdbs, t)
		}
		others = append(others, o)
	}
	plan, err := PlanDrain(ctx, in.Nodes, podsOf, daemonSets, in.Rules)
	if err != nil {
		return nil, err
	}
	cordon(m, in.Nodes)
	r := &drainRun{in: in, budgets: NewBudgets(pdbs), waiting: map[*Budget][]waiter{}, objects: others,
		out: &DrainOutcome{Nodes: in.Nodes, AssumedDaemonSets: plan.AssumedDaemonSets, PendingBefore: len(m.Pending)}}
	defer r.close()
	if in.IncludePending {
		// Queued before the drain: ahead of every replacement at equal
		// priority.
		for _, p := range m.Pending {
			r.enqueue(&queued{pod: p, outcome: PodOutcome{Pod: p}})
		}
	}
	// Node by node, as kubectl's RunDrain: each node's evictions, then its
	// replacements placed, before the next node's evictions.
	for i, nr := range plan.Nodes {
		if err := r.drainNode(ctx, nr, i == len(plan.Nodes)-1); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(r.rest, func(i, j int) bool { return r.rest[i].order < r.rest[j].order })
	for _, o := range r.rest {
		r.out.Pods = append(r.out.Pods, o.PodOutcome)
	}
	return r.out, nil
}

// drainNode is one node's turn in kubectl drain (k8s.io/kubectl v0.36.3,
// RunDrain and Helper.DeleteOrEvictPods): a node whose pods a filter
// blocks is skipped; otherwise every evictable pod is evicted at once (so
// the scheduler's first cycle sees them all terminating), the queue is
// placed (each placed replacement giving its budget's allowance back),
// and the pods a budget still holds back stop the drain: kubectl retries
// them until --timeout (DrainInput.Timeout) gives up on the node, or for
// ever, so that the nodes after it are never drained. Unless last, the
// node's evicted pods are then gone from the cache: kubectl waits for
// their deletion before it goes on.
func (r *drainRun) drainNode(ctx context.Context, nr NodeRules, last bool) error {
	var evicted []*v1.Pod
	for _, pr := range nr.Pods {
		r.order++
		switch {
		case nr.Blocked && pr.Disposition == Block:
			r.report(PodOutcome{Pod: pr.Pod, From: nr.Node, Result: DrainBlocked, Message: pr.Message})
		case pr.Disposition == Leave:
			r.report(PodOutcome{Pod: pr.Pod, From: nr.Node, Result: DrainSkipped, Message: leaveMessage(pr)})
		case nr.Blocked:
			r.report(PodOutcome{Pod: pr.Pod, From: nr.Node, Result: DrainSkipped,
				Message: BlockedByOthers(nr.Node)})
		case r.stuck != "":
			r.report(PodOutcome{Pod: pr.Pod, From: nr.Node, Result: DrainSkipped,
				Message: fmt.Sprintf(NotEvicted+"kubectl drain waits for ever on node %s, whose pods a disruption budget holds back (--timeout gives up on a node)", r.stuck)})
		default:
			evicted = append(evicted, pr.Pod)
			if err := r.evict(waiter{pod: pr.Pod, from: nr.Node, order: r.order}); err != nil {
				return err
			}
		}
	}
	if err := r.placeNode(ctx, evicted); err != nil {
		return err
	}
	if r.blockWaiting() && r.in.Timeout == 0 {
		r.stuck = nr.Node
	}
	if last {
		return nil
	}
	return r.terminate(evicted)
}

// placeNode places the queue until nothing is left to place: when only
// StatefulSet replacements remain to be created, the node's evicted pods
// have ended (their grace period outlasts the other replacements'
// cycles), and the StatefulSets create theirs, which are placed in turn,
// possibly giving back budgets that release more evictions.
func (r *drainRun) placeNode(ctx context.Context, evicted []*v1.Pod) error {
	for {
		if err := r.place(ctx); err != nil {
			return err
		}
		if len(r.awaiting) == 0 {
			return nil
		}
		if err := r.terminate(evicted); err != nil {
			return err
		}
		for _, q := range r.awaiting {
			r.enqueue(q)
		}
		r.awaiting = nil
	}
}

// terminate removes the evicted pods from the cache, as their kubelet does
// once their grace period ends; the pods a budget held back stay.
func (r *drainRun) terminate(pods []*v1.Pod) error {
	c := r.in.Model.Cache
	for _, p := range pods {
		cached, err := c.GetPod(p)
		if err != nil || cached.DeletionTimestamp == nil {
			continue // never in the cache (model.Refused), or not evicted
		}
		if err := c.RemovePod(cached); err != nil {
			return fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	return nil
}

// NotEvicted starts the message of a pod kept, without blocking anything
// itself, only because of other pods: those of its node (BlockedByOthers)
// or those a budget holds back on an earlier node.
const NotEvicted = "not evicted: "

// BlockedByOthers is the message of a pod a node keeps, without blocking
// its drain itself, because other pods on it do (kubectl drain evicts
// nothing from such a node).
func BlockedByOthers(node string) string {
	return NotEvicted + "other pods block the drain of node " + node
}

// leaveMessage says why a pod stays: kubectl's warning, or the mirror pod
// rule (kubectl says nothing of those).
func leaveMessage(pr PodRule) string {
	if pr.Message != "" {
		return pr.Message
	}
	if _, ok := pr.Pod.Annotations[v1.MirrorPodAnnotationKey]; ok {
		return "mirror pod: kubectl drain leaves static pods to their kubelet"
	}
	return "kubectl drain leaves it"
}

// cordon marks the nodes unschedulable, as kubectl drain does first.
func cordon(m *model.Model, nodes []string) {
	for _, name := range nodes {
		for _, n := range m.Nodes {
			if n.Name != name || n.Spec.Unschedulable {
				continue
			}
			c := n.DeepCopy()
			c.Spec.Unschedulable = true
			m.Cache.UpdateNode(n, c)
		}
	}
}

func priority(p *v1.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// terminating is pod with a deletion timestamp at now.
func terminating(pod *v1.Pod, now time.Time) *v1.Pod {
	t := pod.DeepCopy()
	ts := metav1.NewTime(now)
	t.DeletionTimestamp = &ts
	return t
}
