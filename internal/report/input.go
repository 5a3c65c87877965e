package report

import (
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// Input is what a report shows, taken from the views the other commands
// print; Write renders it.
type Input struct {
	// Source says where the cluster was read from (a context, files).
	Source string
	// Generated is when the report was made (shown in the header, UTC).
	Generated time.Time
	// Version is the kube-scheduler version the cache model follows
	// (--kube-version, or the server's); Decisions the version whose
	// framework decided the verdicts.
	Version, Decisions string
	// Config names the scheduler configuration of the verdicts ("" for the
	// default profile).
	Config string
	// Summary holds the cache's counts (views.Dump's summary).
	Summary v1alpha1.DumpSummary
	// Requested is views.Requested of every node: the grid and the table.
	Requested *v1alpha1.RequestedReport
	// Nodes are the Node objects, for cordons and taints.
	Nodes []*v1.Node
	// Order is views.NodeOrder with one slot per node (the NodeTree.List
	// order, which groups the grid by zone) and the first cycles.
	Order *v1alpha1.NodeOrder
	// Pending are the pending pods' decisions, as why -A's table and JSON
	// show them (their rejectedBy counts kept without per-node results);
	// nil when no pod is pending.
	Pending *v1alpha1.SchedulingReport
	// Warnings are the lines the commands print on stderr for this input
	// (warnings and notes), shown in the header.
	Warnings []string
	// WhatIf is set when what-if edits were applied before everything
	// above was computed: the page then shows the edited cluster, and says
	// so first.
	WhatIf *WhatIf
	// ScaleDown is scale-down's answer for the cluster (report
	// --scale-down), nil when not asked: the grid marks the removable
	// nodes and the page shows the totals.
	ScaleDown *v1alpha1.ScaleDownReport
}

// WhatIf is what the page says of the what-if edits.
type WhatIf struct {
	// Edits is the one-line summary of the edits applied, as the commands'
	// "note: what-if: …" on stderr.
	Edits string
	// Changed are the pending pods whose verdict differs from the one on
	// the cluster as it is (why -A's "what changed").
	Changed []v1alpha1.ChangedPod
}
