package pipeline

import (
	"context"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// Decision is the answer for pending pods: the report every output shows
// (table, JSON, the report page), and the engine's verdicts behind it.
type Decision struct {
	Report   *v1alpha1.SchedulingReport
	Verdicts []*decide.Verdict
}

// Decide evaluates targets on in's model with cfg (Evaluate), maps the
// verdicts to the SchedulingReport (views), and with what-if edits adds
// them to the report; changes also lists the pods whose result differs on
// the cluster as it is (Changes), for a selection of pending pods. The
// cluster's scheduler's recorded verdicts are no check of an edited
// cluster's decisions, so they are dropped then. Notes as Evaluate's and
// Changes'.
func Decide(ctx context.Context, in *Input, cfg *Config, targets []*v1.Pod, d Detail, changes bool, notes *Notes) (*Decision, error) {
	verdicts, err := Evaluate(ctx, in.Model, in.Cluster.Objects, cfg, targets, d, notes)
	if err != nil {
		return nil, err
	}
	report := views.SchedulingReport(in.Model.Source, cfg.Source, verdicts)
	if in.Applied != nil {
		report.WhatIf = in.WhatIf()
		for i := range report.Pods {
			report.Pods[i].ClusterScheduler = nil
		}
		if changes {
			if report.WhatIf.Changed, err = Changes(ctx, in, cfg, verdicts, d, notes); err != nil {
				return nil, err
			}
		}
	}
	return &Decision{Report: report, Verdicts: verdicts}, nil
}

// Unschedulable reports whether some pod of the decision would stay
// Pending (unschedulable or gated): the commands' exit code 1.
func (d *Decision) Unschedulable() bool {
	for _, v := range d.Verdicts {
		if v.Result == decide.Unschedulable || v.Result == decide.Gated {
			return true
		}
	}
	return false
}
