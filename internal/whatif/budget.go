package whatif

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Texts of the eviction API (kube-apiserver v1.36.3,
// pkg/registry/core/pod/storage/eviction.go).
const (
	// BudgetViolation is the 429 answer kubectl drain retries every 5 s.
	BudgetViolation = "Cannot evict pod as it would violate the pod's disruption budget."
	// BudgetsMultiple is the 500 answer for a pod more than one budget
	// selects: kubectl drain gives up on the pod.
	BudgetsMultiple = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
)

// Admission is the eviction API's answer to one eviction.
type Admission int

const (
	// Admitted means: the pod is evicted.
	Admitted Admission = iota
	// Refused means: 429, the budget allows no disruption now; kubectl drain
	// retries until it does.
	Refused
	// Failed means: an error kubectl drain does not retry (several budgets, a
	// negative allowance).
	Failed
)

// Budget is one PodDisruptionBudget as a drain experiences it: its
// allowance and healthy count, moved by evictions and by replacements
// becoming Ready, as the eviction API and the disruption controller move
// them.
type Budget struct {
	PDB      *policyv1.PodDisruptionBudget
	selector labels.Selector
	// Allowed is status.disruptionsAllowed now; Healthy is
	// status.currentHealthy now.
	Allowed, Healthy int32
}

// Key is "namespace/name".
func (b *Budget) Key() string { return b.PDB.Namespace + "/" + b.PDB.Name }

// Budgets are the PodDisruptionBudgets of the cluster.
type Budgets struct {
	all []*Budget
}

// NewBudgets keeps the budgets of pdbs, at their status's allowance. A
// budget whose selector does not parse selects no pod, as for the
// eviction API.
func NewBudgets(pdbs []*policyv1.PodDisruptionBudget) *Budgets {
	bs := &Budgets{}
	for _, p := range pdbs {
		sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
		if err != nil {
			sel = labels.Nothing()
		}
		bs.all = append(bs.all, &Budget{PDB: p, selector: sel, Allowed: p.Status.DisruptionsAllowed, Healthy: p.Status.CurrentHealthy})
	}
	return bs
}

// Of returns the budgets that select pod: same namespace, selector
// matching its labels.
func (bs *Budgets) Of(pod *v1.Pod) []*Budget {
	var out []*Budget
	for _, b := range bs.all {
		if b.PDB.Namespace == pod.Namespace && b.selector.Matches(labels.Set(pod.Labels)) {
			out = append(out, b)
		}
	}
	return out
}

// Eviction is the outcome of Budgets.Evict.
type Eviction struct {
	Admission
	// Budget is the budget that decided, nil when none applies.
	Budget *Budget
	// Consumed: the eviction took one of Budget's allowance.
	Consumed bool
	// Message is the API's answer for a refusal or failure, with its
	// cause.
	Message string
}

// Evict is the eviction API's decision for pod, changing the budget's
// allowance as it does (kube-apiserver v1.36.3, eviction.go): a pod that
// is Pending, terminal or terminating ignores budgets; more than one
// budget fails; a pod that is not Ready goes without using the allowance
// when the budget's unhealthyPodEvictionPolicy is AlwaysAllow, or when it
// is healthy enough (currentHealthy >= desiredHealthy > 0); otherwise a
// status older than the spec or an allowance of 0 refuses (429), a
// negative one fails, and else the allowance drops by one.
func (bs *Budgets) Evict(pod *v1.Pod) Eviction {
	if ignoresBudgets(pod) {
		return Eviction{Admission: Admitted}
	}
	of := bs.Of(pod)
	switch len(of) {
	case 0:
		return Eviction{Admission: Admitted}
	case 1:
	default:
		return Eviction{Admission: Failed, Budget: of[0], Message: BudgetsMultiple}
	}
	b := of[0]
	st := &b.PDB.Status
	if !podReady(pod) {
		p := b.PDB.Spec.UnhealthyPodEvictionPolicy
		if p != nil && *p == policyv1.AlwaysAllow || b.Healthy >= st.DesiredHealthy && st.DesiredHealthy > 0 {
			return Eviction{Admission: Admitted, Budget: b}
		}
	}
	switch {
	case st.ObservedGeneration < b.PDB.Generation:
		return Eviction{Admission: Refused, Budget: b, Message: b.Refusal()}
	case b.Allowed < 0:
		return Eviction{Admission: Failed, Budget: b, Message: "pdb disruptions allowed is negative"}
	case b.Allowed == 0:
		return Eviction{Admission: Refused, Budget: b, Message: b.Refusal()}
	}
	b.Allowed--
	if podReady(pod) {
		b.Healthy--
	}
	return Eviction{Admission: Admitted, Budget: b, Consumed: true}
}

// Refusal is the eviction API's 429 answer for b as it is now, with its
// cause: the status is behind the spec, or the allowance is 0.
func (b *Budget) Refusal() string {
	if b.PDB.Status.ObservedGeneration < b.PDB.Generation {
		return fmt.Sprintf("%s (The disruption budget %s is still being processed by the server.)", BudgetViolation, b.PDB.Name)
	}
	return fmt.Sprintf("%s (%s)", BudgetViolation, b.cause())
}

// cause is the cause the API gives with a 429 for an allowance of 0.
func (b *Budget) cause() string {
	st := &b.PDB.Status
	if c := meta(st.Conditions, policyv1.DisruptionAllowedCondition); c != nil && c.Status == metav1.ConditionFalse && c.Message != "" && c.Reason == policyv1.SyncFailedReason {
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", b.PDB.Name, c.Message)
	}
	if b.Healthy <= st.DesiredHealthy {
		return fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", b.PDB.Name, st.DesiredHealthy, b.Healthy)
	}
	return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", b.PDB.Name)
}

// Restore records that an evicted pod's replacement is running and Ready:
// the disruption controller counts it healthy again, and the allowance
// grows by one (disruptionsAllowed = currentHealthy - desiredHealthy).
func (b *Budget) Restore() {
	b.Allowed++
	b.Healthy++
}

func meta(cs []metav1.Condition, t string) *metav1.Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// ignoresBudgets: the eviction API deletes such a pod without looking at
// budgets (canIgnorePDB: phase Succeeded, Failed or Pending, or a
// deletion timestamp).
func ignoresBudgets(pod *v1.Pod) bool {
	switch pod.Status.Phase {
	case v1.PodSucceeded, v1.PodFailed, v1.PodPending:
		return true
	}
	return pod.DeletionTimestamp != nil
}

// podReady: the pod's Ready condition is True (the eviction API's and the
// disruption controller's notion of healthy).
func podReady(pod *v1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodReady {
			return c.Status == v1.ConditionTrue
		}
	}
	return false
}
