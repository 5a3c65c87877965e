package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// runUntilFits is why --until-fits: the scale-up estimate for the selected
// pending pods, printed as the why table of the placement at the count
// found, with the estimate on stderr (and in the report's whatIf field).
// Exit 1 when no count up to the number of pods is enough, or when some pod
// does not fit the template even alone.
func (o *WhyOptions) runUntilFits(ctx context.Context, in *whatIfInput, cfg *decide.Config) error {
	m := in.Model
	targets, err := o.targets(m)
	if err != nil || len(targets) == 0 {
		return err
	}
	warnMissing(o.ErrOut, targets, in.Cluster.Objects)
	t := o.WhatIf.template
	input := whatif.UntilFitsInput{Model: m, Objects: in.Cluster.Objects, Config: cfg, Template: t.Node, Pods: targets, FromFile: t.File != ""}
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
	var out []string
	switch {
	case u.Count == 0:
		out = append(out, fmt.Sprintf("note: what-if: no node like %s is needed: every pending pod that fits one is scheduled as the cluster is (%s)", oneLine(u.Template), tried))
	case u.Count < 0:
		out = append(out, fmt.Sprintf("note: what-if: even %d nodes like %s leave %d pods pending that fit one alone: %s (%s)",
			u.MaxTried, oneLine(u.Template), len(u.StillPending), oneLine(strings.Join(u.StillPending, ", ")), tried))
	case u.Count == 1:
		out = append(out, fmt.Sprintf("note: what-if: 1 node like %s (%s) schedules every pending pod that fits one (%s)",
			oneLine(u.Template), oneLine(whatif.CopyName(u.Template, 1)), tried))
	default:
		out = append(out, fmt.Sprintf("note: what-if: %d nodes like %s (%s..%d) schedule every pending pod that fits one (%s)",
			u.Count, oneLine(u.Template), oneLine(whatif.CopyName(u.Template, 1)), u.Count, tried))
	}
	for _, n := range u.NeverFit {
		out = append(out, fmt.Sprintf("note: what-if: %s does not fit a node like %s even alone: %s: %s",
			oneLine(n.Pod), oneLine(u.Template), oneLine(n.Plugin), oneLine(strings.Join(n.Reasons, ", "))))
	}
	return out
}
