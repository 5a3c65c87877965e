package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// runUntilFits is why --until-fits: the scale-up estimate for the selected
// pending pods, or for the replicas of --pod-file, printed as the why table
// of the placement at the count found, with the estimate on stderr (and in
// the report's whatIf field). Exit 1 when no count up to the number of pods
// is enough, or when some pod does not fit the template even alone.
func (o *WhyOptions) runUntilFits(ctx context.Context, in *whatIfInput, cfg *pipeline.Config) error {
	m := in.Model
	input := whatif.UntilFitsInput{Model: m, Objects: in.Cluster.Objects, Config: cfg}
	if o.PodFile != "" {
		if err := o.untilFitsReplicas(&input); err != nil {
			return err
		}
	} else {
		targets, err := o.targets(m)
		if err != nil || len(targets) == 0 {
			return err
		}
		warnMissing(o.ErrOut, targets, in.Cluster.Objects)
		input.Pods = targets
	}
	t := o.WhatIf.template
	input.Template, input.FromFile = t.Node, t.File != ""
	if t.File == "" {
		input.Bound = whatif.NodeBoundPods(in.Cluster.Pods, t.Node.Name)
	}
	res, err := whatif.UntilFits(ctx, input)
	if err != nil {
		return err
	}
	report := views.SchedulingReport(m.Source, cfg.Source, res.Verdicts)
	w := in.Applied.API
	w.UntilFits = &res.API
	report.WhatIf = &w
	table := func(printers.TableOptions) (*printers.Table, error) { return printers.SchedulingTable(report), nil }
	if err := o.Output.PrintTable(o.Out, report, table, nil); err != nil {
		return err
	}
	for _, line := range untilFitsNotes(&res.API) {
		fmt.Fprintln(o.ErrOut, line)
	}
	if res.API.Count < 0 || len(res.API.NeverFit) > 0 {
		return &exitError{code: ExitError, err: errNotScheduled, silent: true}
	}
	return nil
}

// untilFitsReplicas makes --pod-file's replicas the pods of the search.
// A DaemonSet is refused: it runs one pod per node, so every node added
// brings its own.
func (o *WhyOptions) untilFitsReplicas(input *whatif.UntilFitsInput) error {
	w, err := readPodFile(o.PodFile, o.In, o.Input, o.ErrOut)
	if err != nil {
		return err
	}
	if w.PerNode {
		return usageError(fmt.Errorf("--until-fits with --pod-file %s: a %s runs one pod on every node, so no count of nodes is missing; give a Deployment, StatefulSet, Job or Pod", oneLine(o.PodFile), w.Kind))
	}
	pods, objects, err := o.replicasOf(w, input.Model, input.Objects)
	if err != nil {
		return err
	}
	input.Pods, input.Objects, input.Workload = pods, objects, fmt.Sprintf("%s %s/%s", w.Kind, w.Namespace, w.Name)
	return nil
}

// untilFitsNotes are the estimate's lines for stderr: the count (or that
// none was enough), the trials, and each pod the template never takes.
func untilFitsNotes(u *v1alpha1.UntilFits) []string {
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
	pods := "every pending pod"
	if u.Workload != "" {
		pods = "every replica of " + oneLine(u.Workload)
	}
	var out []string
	switch {
	case u.Count == 0:
		out = append(out, fmt.Sprintf("note: what-if: no node like %s is needed: %s that fits one is scheduled as the cluster is (%s)", oneLine(u.Template), pods, tried))
	case u.Count < 0:
		out = append(out, fmt.Sprintf("note: what-if: even %s like %s leave %s pending that %s one alone: %s (%s)",
			termtext.Count(u.MaxTried, "node"), oneLine(u.Template), termtext.Count(len(u.StillPending), "pod"), termtext.Agree(len(u.StillPending), "fits", "fit"), oneLine(strings.Join(u.StillPending, ", ")), tried))
	case u.Count == 1:
		out = append(out, fmt.Sprintf("note: what-if: 1 node like %s (%s) schedules %s that fits one (%s)",
			oneLine(u.Template), oneLine(whatif.CopyName(u.Template, 1)), pods, tried))
	default:
		out = append(out, fmt.Sprintf("note: what-if: %d nodes like %s (%s..%d) schedule %s that fits one (%s)",
			u.Count, oneLine(u.Template), oneLine(whatif.CopyName(u.Template, 1)), u.Count, pods, tried))
	}
	return append(out, neverFitNotes(u)...)
}

// neverFitNotes: one line per pod one empty copy rejects; a workload's
// replicas, alike, rejected for the same reasons, fold into one
// ("shop/api-1 and 4 other pods do not fit…"). Pending pods, each its own,
// are named one by one.
func neverFitNotes(u *v1alpha1.UntilFits) []string {
	type group struct {
		first, why string
		others     int
	}
	var groups []*group
	byWhy := map[string]*group{}
	for _, n := range u.NeverFit {
		why := oneLine(n.Plugin) + ": " + oneLine(strings.Join(n.Reasons, ", "))
		if g := byWhy[why]; g != nil && u.Workload != "" {
			g.others++
			continue
		}
		g := &group{first: oneLine(n.Pod), why: why}
		byWhy[why] = g
		groups = append(groups, g)
	}
	out := make([]string, 0, len(groups))
	for _, g := range groups {
		who := g.first + " does"
		if g.others > 0 {
			who = fmt.Sprintf("%s and %s do", g.first, termtext.Count(g.others, "other pod"))
		}
		out = append(out, fmt.Sprintf("note: what-if: %s not fit a node like %s even alone: %s", who, oneLine(u.Template), g.why))
	}
	return out
}
