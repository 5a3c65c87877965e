package pipeline

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// DrainRules are kubectl drain's flags that decide which pods go
// (--force, --ignore-daemonsets, --delete-emptydir-data, --pod-selector;
// whatif.DrainRules).
type DrainRules = whatif.DrainRules

// DrainRequest is what drain asks: the nodes to drain, in kubectl's
// order, kubectl's rules, and the run's own flags.
type DrainRequest struct {
	Nodes []string
	Rules DrainRules
	// IncludePending also places the pods Pending before the drain.
	IncludePending bool
	// Now is the drain's time (the evicted pods' deletion timestamp).
	Now time.Time
	// Timeout is kubectl drain's --timeout (0: for ever).
	Timeout time.Duration
}

// Drain is `kubectl drain NODES` followed by kube-scheduler v1.36 on in's
// model with cfg (whatif.Drain: kubectl v0.36's rules and eviction order,
// disruption budgets, each replacement placed by a scheduling cycle),
// reported as the drain table shows it, with in's edits in WhatIf. It
// changes in's model. Notes: the DaemonSets the input lacks and that are
// taken to exist, the pods Pending before the drain left where they are,
// what the placed pods refer to that the input lacks. Errors: whatif.Drain's.
func Drain(ctx context.Context, in *Input, cfg *Config, req DrainRequest, notes *Notes) (*v1alpha1.DrainReport, error) {
	out, err := whatif.Drain(ctx, whatif.DrainInput{Model: in.Model, Objects: in.Cluster.Objects, Config: cfg, Nodes: req.Nodes, Rules: req.Rules,
		IncludePending: req.IncludePending, Now: req.Now, Timeout: req.Timeout})
	if err != nil {
		return nil, err
	}
	drainNotes(out, req.IncludePending, notes)
	var placed []*v1.Pod
	for _, p := range out.Pods {
		if p.Verdict != nil {
			placed = append(placed, p.Verdict.Pod)
		}
	}
	WarnMissing(notes, placed, in.Cluster.Objects)
	report := views.DrainReport(in.Model.Source, cfg.Source, out)
	report.WhatIf = in.WhatIf()
	return report, nil
}

// drainNotes says once what the drain assumed.
func drainNotes(out *whatif.DrainOutcome, includePending bool, notes *Notes) {
	if ds := out.AssumedDaemonSets; len(ds) > 0 {
		whose := "its"
		if len(ds) > 1 {
			whose = "their"
		}
		notes.Add(SeverityNote, "%s", termtext.Fold("the input has no DaemonSet "+termtext.Line(ds[0]), ds)+
			": "+whose+" pods are taken as managed by an existing DaemonSet")
	}
	if out.PendingBefore > 0 && !includePending {
		notes.Add(SeverityNote, "%s %s Pending before the drain: they keep their state and are not placed, though they compete with the replacements in a real drain (--include-pending places them)",
			termtext.Count(out.PendingBefore, "pod"), termtext.Agree(out.PendingBefore, "was", "were"))
	}
}
