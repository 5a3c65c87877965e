package pipeline

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// UntilFitsPods are the pods --until-fits schedules: the selected pending
// pods of the input's model (Pods), or the replicas of a --pod-file's
// workload (Workload, Replicas of them; negative: its own count), read
// from File (named in errors).
type UntilFitsPods struct {
	Pods     []*v1.Pod
	Workload *Workload
	Replicas int
	File     string
}

// UntilFitsResult is the scale-up estimate of why --until-fits.
type UntilFitsResult struct {
	// Report is the why table of the placement at the count found (at
	// the largest count tried when none was enough); Report.WhatIf holds
	// the edits applied and, in UntilFits, the estimate.
	Report *v1alpha1.SchedulingReport
	// After are the estimate's lines, said after the table: the count
	// (or that none was enough) with the counts tried, then the pods one
	// empty copy of the template rejects.
	After []Note
}

// Estimate is the estimate of the result (Report.WhatIf.UntilFits).
func (r *UntilFitsResult) Estimate() *v1alpha1.UntilFits { return r.Report.WhatIf.UntilFits }

// Unschedulable reports whether some pod stays pending at every count
// tried, or fits no copy of the template even alone: the command's exit
// code 1.
func (r *UntilFitsResult) Unschedulable() bool {
	u := r.Estimate()
	return u.Count < 0 || len(u.NeverFit) > 0
}

// UntilFits is why --until-fits on in (opened with Edits.UntilFits, so
// that in.Template holds the one template node, not applied): the
// smallest count of copies of the template with which every pod of pods
// that fits one copy alone is scheduled, the pods placed one after the
// other in kube-scheduler v1.36's queue order with cfg, each assumed
// before the next (whatif.UntilFits' search). A DaemonSet's replicas are
// refused (*UsageError): every node added brings its own pod. Notes: what
// the pods refer to that the input lacks, a workload's priority class
// without its value. Errors: the engine's; the workload's replicas'.
// detail.OmitNodes: the placements keep no result per node (the verdicts'
// Nodes nil, their RejectedBy counts instead: why's -o json without
// --show-nodes), the same placements; the rest of detail is not read.
func UntilFits(ctx context.Context, in *Input, cfg *Config, pods UntilFitsPods, detail Detail, notes *Notes) (*UntilFitsResult, error) {
	if in.Template == nil {
		return nil, fmt.Errorf("--until-fits: no template node")
	}
	input := whatif.UntilFitsInput{Model: in.Model, Objects: in.Cluster.Objects, Config: cfg, Pods: pods.Pods, CountsOnly: detail.OmitNodes}
	if w := pods.Workload; w != nil {
		if w.PerNode {
			return nil, &UsageError{Err: fmt.Errorf("--until-fits with --pod-file %s: a %s runs one pod on every node, so no count of nodes is missing; give a Deployment, StatefulSet, Job or Pod", termtext.Line(pods.File), w.Kind)}
		}
		replicas, objects, err := ReplicaPods(w, pods.Replicas, in.Model, in.Cluster.Objects, notes)
		if err != nil {
			return nil, err
		}
		input.Pods, input.Objects, input.Workload = replicas, objects, fmt.Sprintf("%s %s/%s", w.Kind, w.Namespace, w.Name)
	} else {
		WarnMissing(notes, pods.Pods, in.Cluster.Objects)
	}
	t := in.Template
	input.Template, input.FromFile = t.Node, t.File != ""
	if t.File == "" {
		input.Bound = whatif.NodeBoundPods(in.Cluster.Pods, t.Node.Name)
	}
	res, err := whatif.UntilFits(ctx, input)
	if err != nil {
		return nil, err
	}
	report := views.SchedulingReport(in.Model.Source, cfg.Source, res.Verdicts)
	report.WhatIf = in.WhatIf()
	if report.WhatIf == nil {
		report.WhatIf = &v1alpha1.WhatIf{}
	}
	report.WhatIf.UntilFits = views.UntilFits(&res.Estimate)
	return &UntilFitsResult{Report: report, After: untilFitsNotes(report.WhatIf.UntilFits)}, nil
}

// ReplicaPods makes n replicas of w (negative: its own count), defaulted
// as the API server would, and returns them with objects and the
// replicas' claims. Notes: a priority class named without its value (the
// pods are not admitted), what the first replica refers to that objects
// lack. Errors: the workload's (a claim template it cannot make).
func ReplicaPods(w *Workload, n int, m *model.Model, objects []runtime.Object, notes *Notes) ([]*v1.Pod, []runtime.Object, error) {
	if n < 0 {
		n = w.DefaultReplicas
	}
	pods, claims, err := w.Replicas(n, m.Nodes, objects)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pods {
		load.DefaultPod(p)
	}
	warnPriority(notes, pods)
	all := append(append([]runtime.Object{}, objects...), claims...)
	WarnMissing(notes, pods[:min(1, len(pods))], all)
	return pods, all, nil
}

// warnPriority: the API server's Priority admission gives a pod the
// value of its priorityClassName; pods made from a file are not admitted.
func warnPriority(notes *Notes, pods []*v1.Pod) {
	if len(pods) == 0 {
		return
	}
	if p := pods[0]; p.Spec.PriorityClassName != "" && p.Spec.Priority == nil {
		notes.Add(SeverityWarning, "the pods name PriorityClass %q but carry no spec.priority; they are evaluated with priority 0 (the API server's admission would set the class's value)", p.Spec.PriorityClassName)
	}
}

// untilFitsNotes are the estimate's lines: the count (or that none was
// enough), the trials, and each pod the template never takes.
func untilFitsNotes(u *v1alpha1.UntilFits) []Note {
	var trials []string
	for _, t := range u.Trials {
		switch {
		case t.Fits:
			trials = append(trials, fmt.Sprintf("%d (fits)", t.Count))
		case t.Pending > 0:
			trials = append(trials, fmt.Sprintf("%d (%d pending)", t.Count, t.Pending))
		default:
			trials = append(trials, fmt.Sprintf("%d (too few)", t.Count))
		}
	}
	tried := "copies tried: " + strings.Join(trials, ", ")
	if u.Bound > 1 {
		tried += fmt.Sprintf("; fewer than %d cannot hold the pods' requests", u.Bound)
	}
	pods := "every pending pod"
	if u.Workload != "" {
		pods = "every replica of " + termtext.Line(u.Workload)
	}
	tmpl := termtext.Line(u.Template)
	var text string
	switch {
	case u.Count == 0:
		text = fmt.Sprintf("what-if: no node like %s is needed: %s that fits one is scheduled as the cluster is (%s)", tmpl, pods, tried)
	case u.Count < 0:
		text = fmt.Sprintf("what-if: even %s like %s leave %s pending that %s one alone: %s (%s)",
			termtext.Count(u.MaxTried, "node"), tmpl, termtext.Count(len(u.StillPending), "pod"), termtext.Agree(len(u.StillPending), "fits", "fit"), termtext.Line(strings.Join(u.StillPending, ", ")), tried)
	case u.Count == 1:
		text = fmt.Sprintf("what-if: 1 node like %s (%s) schedules %s that fits one (%s)",
			tmpl, termtext.Line(whatif.CopyName(u.Template, 1)), pods, tried)
	default:
		text = fmt.Sprintf("what-if: %d nodes like %s (%s..%d) schedule %s that fits one (%s)",
			u.Count, tmpl, termtext.Line(whatif.CopyName(u.Template, 1)), u.Count, pods, tried)
	}
	return append([]Note{{Severity: SeverityNote, Text: text}}, neverFitNotes(u)...)
}

// neverFitNotes: one line per pod one empty copy rejects; a workload's
// replicas, alike, rejected for the same reasons, fold into one
// ("shop/api-1 and 4 other pods do not fit…"). Pending pods, each its own,
// are named one by one.
func neverFitNotes(u *v1alpha1.UntilFits) []Note {
	type group struct {
		first, why string
		others     int
	}
	var groups []*group
	byWhy := map[string]*group{}
	for _, n := range u.NeverFit {
		why := termtext.Line(n.Plugin) + ": " + termtext.Line(strings.Join(n.Reasons, ", "))
		if g := byWhy[why]; g != nil && u.Workload != "" {
			g.others++
			continue
		}
		g := &group{first: termtext.Line(n.Pod), why: why}
		byWhy[why] = g
		groups = append(groups, g)
	}
	out := make([]Note, 0, len(groups))
	for _, g := range groups {
		who := g.first + " does"
		if g.others > 0 {
			who = fmt.Sprintf("%s and %s do", g.first, termtext.Count(g.others, "other pod"))
		}
		out = append(out, Note{Severity: SeverityNote, Text: fmt.Sprintf("what-if: %s not fit a node like %s even alone: %s", who, termtext.Line(u.Template), g.why)})
	}
	return out
}
