package views

import (
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// WhatIf is the reports' whatIf field of the edits a made, in a's order;
// nil when a is nil.
func WhatIf(a *whatif.Applied) *v1alpha1.WhatIf {
	if a == nil {
		return nil
	}
	w := &v1alpha1.WhatIf{Cordoned: a.Cordoned, Uncordoned: a.Uncordoned, Evicted: gonePods(a.Evicted)}
	for _, r := range a.RemovedNodes {
		w.RemovedNodes = append(w.RemovedNodes, v1alpha1.RemovedNode{Node: r.Node, Pods: gonePods(r.Pods)})
	}
	for _, n := range a.AddedNodes {
		w.AddedNodes = append(w.AddedNodes, v1alpha1.AddedNodes(n))
	}
	return w
}

func gonePods(pods []whatif.GonePod) []v1alpha1.GonePod {
	if pods == nil {
		return nil
	}
	out := make([]v1alpha1.GonePod, len(pods))
	for i, p := range pods {
		out[i] = v1alpha1.GonePod(p)
	}
	return out
}

// UntilFits is the report's untilFits field of the scale-up estimate e.
func UntilFits(e *whatif.Estimate) *v1alpha1.UntilFits {
	u := &v1alpha1.UntilFits{Template: e.Template, Workload: e.Workload, Count: e.Count, MaxTried: e.MaxTried, Bound: e.Bound, StillPending: e.StillPending,
		Trials: make([]v1alpha1.UntilFitsTrial, len(e.Trials))}
	for i, t := range e.Trials {
		u.Trials[i] = v1alpha1.UntilFitsTrial(t)
	}
	for _, n := range e.NeverFit {
		u.NeverFit = append(u.NeverFit, v1alpha1.NeverFit(n))
	}
	return u
}
