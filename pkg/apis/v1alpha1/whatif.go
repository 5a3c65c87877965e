package v1alpha1

// WhatIf lists the what-if edits (--cordon, --uncordon, --remove-node,
// --add-node, --add-node-file, --evict) a decision command applied to its
// input before deciding. It is the optional whatIf field of
// SchedulingReport, Simulation and RequestedReport; absent without edits.
type WhatIf struct {
	// Cordoned and Uncordoned are the nodes whose spec.unschedulable was
	// set or cleared.
	Cordoned   []string `json:"cordoned,omitempty"`
	Uncordoned []string `json:"uncordoned,omitempty"`
	// RemovedNodes are the nodes taken out, with what became of their pods.
	RemovedNodes []RemovedNode `json:"removedNodes,omitempty"`
	// AddedNodes are the copies added, per template.
	AddedNodes []AddedNodes `json:"addedNodes,omitempty"`
	// Evicted are the pods evicted with --evict.
	Evicted []GonePod `json:"evicted,omitempty"`
	// Changed (why with edits) lists the pods whose result differs from the
	// one on the cluster as it is.
	Changed []ChangedPod `json:"changed,omitempty"`
	// UntilFits is the scale-up estimate of why --until-fits.
	UntilFits *UntilFits `json:"untilFits,omitempty"`
}

// RemovedNode is a node removed with --remove-node.
type RemovedNode struct {
	Node string `json:"node"`
	// Pods are the node's pods ("namespace/name") and what became of each.
	Pods []GonePod `json:"pods,omitempty"`
}

// GonePod is a pod taken off its node and what its controller does.
type GonePod struct {
	// Pod is "namespace/name".
	Pod string `json:"pod"`
	// Recreation is "recreated" (a pending replacement is added),
	// "not-moved" (a DaemonSet pod: gone with its node, or recreated in
	// place when evicted) or "not-recreated" (no controller: gone).
	Recreation string `json:"recreation"`
	// Replacement is the replacement's "namespace/name" when recreated.
	Replacement string `json:"replacement,omitempty"`
}

// AddedNodes are the copies of one template node.
type AddedNodes struct {
	// Template is the node copied; File the --add-node-file it came from
	// (empty for a node of the input).
	Template string `json:"template"`
	File     string `json:"file,omitempty"`
	// Names of the copies, TEMPLATE-whatif-1..COUNT.
	Names []string `json:"names"`
}

// ChangedPod is a pod whose why result is different with the edits.
type ChangedPod struct {
	// Pod is "namespace/name".
	Pod string `json:"pod"`
	// Before and After are the results (scheduled, unschedulable, gated,
	// skipped) without and with the edits; BeforeNode and AfterNode the
	// nodes when scheduled.
	Before     string `json:"before"`
	BeforeNode string `json:"beforeNode,omitempty"`
	After      string `json:"after"`
	AfterNode  string `json:"afterNode,omitempty"`
}

// UntilFits is why --until-fits: the smallest number of copies of Template
// with which every selected pending pod that fits the template alone is
// scheduled, placing the pods one after the other.
type UntilFits struct {
	Template string `json:"template"`
	// Workload is "<Kind> <namespace>/<name>" of the --pod-file whose
	// replicas were placed; absent when the pods are the selected pending
	// pods.
	Workload string `json:"workload,omitempty"`
	// Count is that number; -1 when even MaxTried copies were not enough.
	Count int `json:"count"`
	// MaxTried is the largest count placed.
	MaxTried int `json:"maxTried"`
	// Bound is the count below which the pods' cpu, memory and pod-count
	// requests cannot fit (NodeResourcesFit's rule over the nodes the pods
	// may use and the copies): smaller counts are not placed. Absent when
	// there is no such bound.
	Bound int `json:"bound,omitempty"`
	// Trials are the counts placed, in the order tried.
	Trials []UntilFitsTrial `json:"trials"`
	// NeverFit are the pods that do not fit one empty copy of the template
	// even alone, with the filter that rejects them.
	NeverFit []NeverFit `json:"neverFit,omitempty"`
	// StillPending are the pods left pending at MaxTried when Count is -1.
	StillPending []string `json:"stillPending,omitempty"`
}

// UntilFitsTrial is one placement run of --until-fits.
type UntilFitsTrial struct {
	Count int `json:"count"`
	// Fits: every pod that fits the template alone was scheduled.
	Fits bool `json:"fits"`
	// Pending is how many of those pods stayed pending, for the runs that
	// placed every pod (the first, with no copy, and those that fit); a
	// run that fails stops at the first pod left pending (absent).
	Pending int `json:"pending,omitempty"`
}

// NeverFit is a pod an empty copy of the template rejects.
type NeverFit struct {
	Pod     string   `json:"pod"`
	Plugin  string   `json:"plugin"`
	Reasons []string `json:"reasons,omitempty"`
}
