package views

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// DrainReport renders a drain's outcome as the DrainReport kind, with its
// one-line verdict. Its pods lead with what makes the drain unsafe:
// blocked, then unschedulable, then not recreated, then scheduled, then
// skipped (the pods a blocked node keeps last of all); within a result,
// in the order the drain met them.
func DrainReport(source, config string, o *whatif.DrainOutcome) *v1alpha1.DrainReport {
	out := &v1alpha1.DrainReport{Source: source, Config: config, Nodes: append([]string{}, o.Nodes...), Safe: o.Safe(), Pods: []v1alpha1.DrainPod{}}
	v1alpha1.SetKind(out, "DrainReport")
	for _, p := range o.Pods {
		d := v1alpha1.DrainPod{Pod: podKey(p.Pod), From: p.From, Result: string(p.Result), Node: p.Node, Message: p.Message,
			Budget: p.Budget, Replacement: p.Replacement}
		if v := p.Verdict; v != nil && v.Preemption != nil {
			d.Preemption = &v1alpha1.PreemptionDecision{NominatedNode: v.Preemption.NominatedNode, Victims: []string{}}
			for _, victim := range v.Preemption.Victims {
				d.Preemption.Victims = append(d.Preemption.Victims, podKey(victim))
			}
		}
		out.Pods = append(out.Pods, d)
	}
	sort.SliceStable(out.Pods, func(i, j int) bool { return drainRank(&out.Pods[i]) < drainRank(&out.Pods[j]) })
	out.Verdict = drainVerdict(out)
	return out
}

// drainRank orders a drain's pods, what blocks the drain first.
func drainRank(p *v1alpha1.DrainPod) int {
	switch whatif.DrainResult(p.Result) {
	case whatif.DrainBlocked:
		return 0
	case whatif.DrainUnschedulable:
		return 1
	case whatif.DrainNotRecreated:
		return 2
	case whatif.DrainScheduled:
		return 3
	}
	if strings.HasPrefix(p.Message, whatif.NotEvicted) {
		return 5 // kept only because of other pods: "other pods block the drain"
	}
	return 4
}

// drainVerdict says whether the drain is safe and why not, e.g. "not
// safe: 2 pods blocked (by PodDisruptionBudget shop/web-pdb), 1
// replacement unschedulable".
func drainVerdict(r *v1alpha1.DrainReport) string {
	count := map[string]int{}
	var budgets []string
	seen := map[string]bool{}
	for _, p := range r.Pods {
		if p.From == "" && p.Result == string(whatif.DrainUnschedulable) {
			count["pending"]++ // pending before the drain (--include-pending)
			continue
		}
		count[p.Result]++
		if p.Result == string(whatif.DrainBlocked) && p.Budget != "" && !seen[p.Budget] {
			seen[p.Budget] = true
			budgets = append(budgets, "PodDisruptionBudget "+p.Budget)
		}
	}
	nodes := termtext.Count(len(r.Nodes), "node")
	if r.Safe {
		moved := count[string(whatif.DrainScheduled)]
		if len(r.Pods) == 0 || moved == 0 {
			return fmt.Sprintf("safe: nothing to evict from %s", nodes)
		}
		return fmt.Sprintf("safe: %s evicted from %s, every replacement scheduled", termtext.Count(moved, "pod"), nodes)
	}
	var why []string
	if n := count[string(whatif.DrainBlocked)]; n > 0 {
		s := termtext.Count(n, "pod") + " blocked"
		if len(budgets) > 0 {
			s += " (by " + strings.Join(budgets, ", ") + ")"
		}
		why = append(why, s)
	}
	if n := count[string(whatif.DrainUnschedulable)]; n > 0 {
		why = append(why, termtext.Count(n, "replacement")+" unschedulable")
	}
	if n := count["pending"]; n > 0 {
		why = append(why, termtext.Count(n, "pending pod")+" unschedulable")
	}
	if n := count[string(whatif.DrainNotRecreated)]; n > 0 {
		why = append(why, termtext.Count(n, "pod")+" not recreated")
	}
	return "not safe: " + strings.Join(why, ", ")
}
