package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// validateWhatIf checks the what-if flags of why.
func (o *WhyOptions) validateWhatIf() error {
	if err := o.WhatIf.Validate(); err != nil {
		return err
	}
	if o.WhatIf.UntilFits && (o.PodFile != "" || len(o.Pods) > 0) {
		return errors.New("--until-fits works on the selected pending pods: it cannot be used with POD arguments or --pod-file")
	}
	return nil
}

// whatIfChanges, with edits, adds them to report and, when the pods were
// selected as the pending pods of a namespace (or -A), evaluates the same
// pods on the cluster as it is and lists those whose result differs, in the
// report and on stderr.
func (o *WhyOptions) whatIfChanges(ctx context.Context, report *v1alpha1.SchedulingReport, in *whatIfInput, cfg *decide.Config, verdicts []*decide.Verdict) error {
	if in.Applied == nil {
		return nil
	}
	w := in.Applied.API
	report.WhatIf = &w
	// The cluster's scheduler judged the cluster as it is, not as edited:
	// its recorded verdicts are no check of these decisions (the changes
	// against the cluster as it is are listed instead).
	for i := range report.Pods {
		report.Pods[i].ClusterScheduler = nil
	}
	if len(o.Pods) > 0 {
		return nil
	}
	before, err := o.beforeEdits(ctx, in, cfg, verdicts)
	if err != nil {
		return err
	}
	for _, v := range verdicts {
		key := v.Pod.Namespace + "/" + v.Pod.Name
		b := before[key]
		if b.result == string(v.Result) && b.node == v.Node {
			continue
		}
		report.WhatIf.Changed = append(report.WhatIf.Changed, v1alpha1.ChangedPod{Pod: key, Before: b.result, BeforeNode: b.node, After: string(v.Result), AfterNode: v.Node})
	}
	for _, c := range report.WhatIf.Changed {
		fmt.Fprintf(o.ErrOut, "note: what-if: %s was %s, now %s\n", oneLine(c.Pod), resultOn(c.Before, c.BeforeNode), resultOn(c.After, c.AfterNode))
	}
	if len(report.WhatIf.Changed) == 0 {
		fmt.Fprintln(o.ErrOut, "note: what-if: no pod's result changed against the cluster as it is")
	}
	return nil
}

func resultOn(result, node string) string {
	if node == "" {
		return result
	}
	if result == boundResult {
		return "bound to " + node
	}
	return result + " on " + node
}

// boundResult is the "before" of a replacement: the pod it replaces was
// bound to a node.
const boundResult = "bound"

type outcomeOn struct{ result, node string }

// beforeEdits evaluates, on the unedited input, the pods of verdicts that
// were pending there; a replacement's "before" is the node its pod was
// bound to.
func (o *WhyOptions) beforeEdits(ctx context.Context, in *whatIfInput, cfg *decide.Config, verdicts []*decide.Verdict) (map[string]outcomeOn, error) {
	m, err := o.Input.BuildModel(ctx, in.Original, cache.Options{}, io.Discard)
	if err != nil {
		return nil, err
	}
	pending := map[string]*v1.Pod{}
	for _, p := range m.Pending {
		pending[p.Namespace+"/"+p.Name] = p
	}
	bound := map[string]string{}
	for _, p := range in.Original.Pods {
		if p.Spec.NodeName != "" {
			bound[p.Namespace+"/"+p.Name] = p.Spec.NodeName
		}
	}
	replaced := map[string]string{}
	for _, g := range in.Applied.API.Evicted {
		replaced[g.Replacement] = g.Pod
	}
	for _, r := range in.Applied.API.RemovedNodes {
		for _, g := range r.Pods {
			replaced[g.Replacement] = g.Pod
		}
	}
	out := map[string]outcomeOn{}
	var targets []*v1.Pod
	for _, v := range verdicts {
		key := v.Pod.Namespace + "/" + v.Pod.Name
		if orig, ok := replaced[key]; ok {
			out[key] = outcomeOn{result: boundResult, node: bound[orig]}
		} else if p := pending[key]; p != nil {
			targets = append(targets, p)
		}
	}
	// The same evaluation, its notes and warnings already said once; only
	// each verdict's result and node are read, so it keeps no per-node
	// results and computes no near misses.
	quiet := *o
	quiet.ErrOut = io.Discard
	vs, err := quiet.evaluateWith(ctx, m, in.Original.Objects, cfg, targets, true, 0)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		out[v.Pod.Namespace+"/"+v.Pod.Name] = outcomeOn{result: string(v.Result), node: v.Node}
	}
	return out, nil
}
