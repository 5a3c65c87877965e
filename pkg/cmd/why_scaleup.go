package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// addScaleUpFlag registers --scale-up (why).
func (o *WhyOptions) addScaleUpFlag(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.ScaleUp, "scale-up", o.ScaleUp, "For each node group, how many new nodes like one of its nodes schedule the selected pending pods (or --pod-file's replicas), or why the group cannot take them; and which group cluster-autoscaler's least-waste expander would grow")
}

// completeScaleUp has the input carry the DaemonSets (a new node's
// DaemonSet pods) and, from files, cluster-autoscaler's status ConfigMap
// (live, it is read with one GET).
func (o *WhyOptions) completeScaleUp() {
	if !o.ScaleUp {
		return
	}
	o.Input.ExtraKinds = append(o.Input.ExtraKinds, load.DaemonSetKind())
	if len(o.Input.Filenames) > 0 {
		o.Input.ExtraKinds = append(o.Input.ExtraKinds, configMapKind)
	}
}

// validateScaleUp checks --scale-up's combinations.
func (o *WhyOptions) validateScaleUp() error {
	switch {
	case !o.ScaleUp:
		return nil
	case len(o.Pods) > 0:
		return errors.New("--scale-up works on the selected pending pods or on --pod-file's replicas: it cannot be used with POD arguments")
	case o.WhatIf.UntilFits:
		return errors.New("--scale-up and --until-fits cannot be used together: --scale-up tries every node group, --until-fits one template")
	case len(o.ConfigFiles) > 1:
		return errors.New("--scale-up cannot be used with more than one --config")
	case o.ShowNodes:
		return errors.New("--show-nodes cannot be used with --scale-up")
	}
	return nil
}

// runScaleUp is why --scale-up: one row per node group (how many new
// nodes, the waste, or why not), least-waste's choice on stderr. Exit 1
// when no group can take the pods and they do not fit as the cluster is.
func (o *WhyOptions) runScaleUp(ctx context.Context, in *whatIfInput, cfg *pipeline.Config) error {
	var notes pipeline.Notes
	pods, ok, err := o.podsToPlace(in, &notes)
	if err != nil || !ok {
		return err
	}
	report, err := pipeline.ScaleUp(ctx, in, cfg, pods, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return pipelineError(err)
	}
	table := func(printers.TableOptions) (*printers.Table, error) { return printers.ScaleUpTable(report), nil }
	if err := o.Output.PrintTable(o.Out, report, table, nil); err != nil {
		return err
	}
	fmt.Fprintln(o.ErrOut, oneLine(report.Verdict))
	return scaleUpExit(report)
}

// scaleUpExit: exit 1 when no group is chosen and the pods do not fit
// the cluster as it is.
func scaleUpExit(r *v1alpha1.ScaleUpReport) error {
	if len(r.Chosen) > 0 {
		return nil
	}
	for _, g := range r.Groups {
		if g.Result == "not-needed" {
			return nil
		}
	}
	return &exitError{code: ExitError, err: errNotScheduled, silent: true}
}
