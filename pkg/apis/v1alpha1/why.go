package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// SchedulingReport is the outcome of "why": for each pod, what
// kube-scheduler's scheduling cycle decides for it against the cluster as
// it is, as if it were the next pod the scheduler took.
type SchedulingReport struct {
	metav1.TypeMeta `json:",inline"`
	// Source describes where the nodes and pods came from.
	Source string `json:"source"`
	// Config names the scheduler configuration: "default" or the --config file.
	Config string        `json:"config"`
	Pods   []PodDecision `json:"pods"`
	// Replicas summarises a --pod-file run: the replicas placed one after
	// the other, each assumed before the next.
	Replicas *ReplicaSummary `json:"replicas,omitempty"`
	// WhatIf lists the what-if edits applied to the input (absent without).
	WhatIf *WhatIf `json:"whatIf,omitempty"`
}

// ReplicaSummary is how many replicas of a Pod or workload fit, and where.
type ReplicaSummary struct {
	// Workload is "<Kind> <namespace>/<name>", e.g. "Deployment shop/web".
	Workload string `json:"workload"`
	// Requested is the number of replicas asked for (--replicas, else the
	// workload's own; for a DaemonSet, the number of nodes).
	Requested int `json:"requested"`
	// Fit is how many were placed before the first that did not fit (for
	// a DaemonSet, whose pods are each tied to a node: how many nodes run one).
	Fit int `json:"fit"`
	// Nodes maps a node to the replicas placed on it.
	Nodes map[string]int `json:"nodes"`
	// FirstUnfit is "namespace/name" of the first replica that did not fit.
	FirstUnfit string `json:"firstUnfit,omitempty"`
}

// PodDecision is one pod's scheduling cycle.
type PodDecision struct {
	// Pod is "namespace/name".
	Pod string `json:"pod"`
	// Profile is the schedulerName whose profile ran ("" when skipped).
	Profile string `json:"profile,omitempty"`
	// Result is "scheduled" (Node is where it would be bound),
	// "unschedulable" (Message is the FailedScheduling message), "gated"
	// (a PreEnqueue plugin holds the pod back; Message says which and why)
	// or "skipped" (the scheduler runs no cycle for it; Message says why).
	Result string `json:"result"`
	Node   string `json:"node,omitempty"`
	// Message is, for an unschedulable pod, the text kube-scheduler v1.36
	// writes into the pod's PodScheduled condition; its FailedScheduling
	// event carries the same text cut to 1024 bytes.
	Message string `json:"message,omitempty"`
	// NominatedNodeName is the pod's status.nominatedNodeName (an earlier
	// preemption's nomination), which the cycle tries before all others.
	NominatedNodeName string `json:"nominatedNodeName,omitempty"`
	// Preemption is set when DefaultPreemption would nominate a node and
	// evict victims to make room.
	Preemption *PreemptionDecision `json:"preemption,omitempty"`
	// NumAllNodes is the N of "0/N nodes are available".
	NumAllNodes int `json:"numAllNodes"`
	// EvaluatedNodes and FeasibleNodes count the nodes the cycle evaluated
	// and the feasible nodes it kept: the scheduler keeps
	// numFeasibleNodesToFind feasible nodes and stops at the next node that
	// passes, which it drops (counted in neither).
	EvaluatedNodes int `json:"evaluatedNodes"`
	FeasibleNodes  int `json:"feasibleNodes"`
	// ScorePlugins are the Score plugins that scored the feasible nodes, in
	// the profile's order (plugins whose PreScore skipped the pod are absent).
	ScorePlugins []string `json:"scorePlugins,omitempty"`
	// Nodes are the evaluated nodes in the order the cycle filtered them.
	Nodes []NodeDecision `json:"nodes,omitempty"`
}

// PreemptionDecision is what DefaultPreemption would do.
type PreemptionDecision struct {
	NominatedNode string `json:"nominatedNode"`
	// Victims are "namespace/name" of the pods it would delete.
	Victims []string `json:"victims"`
	// TerminatingVictims are "namespace/name" of the victims it chose that
	// are already being deleted (deletionTimestamp set): the scheduler
	// sends no delete for them. Absent when there are none.
	TerminatingVictims []string `json:"terminatingVictims,omitempty"`
}

// NodeDecision is one node's outcome.
type NodeDecision struct {
	Name string `json:"name"`
	// Filter is "Success", or "<Plugin>: <reason>, <reason>" with the
	// scheduler's plugin names and reason strings.
	Filter string `json:"filter"`
	// Plugin, Code and Reasons are Filter's parts for a rejected node
	// (Code: "Unschedulable", which preemption may resolve, or
	// "UnschedulableAndUnresolvable").
	Plugin  string   `json:"plugin,omitempty"`
	Code    string   `json:"code,omitempty"`
	Reasons []string `json:"reasons,omitempty"`
	// Score is the weighted total after normalisation, for nodes that were
	// scored (a cycle with a single feasible node scores nothing).
	Score *int64 `json:"score,omitempty"`
	// Scores maps each Score plugin to its normalised score times its weight.
	Scores map[string]int64 `json:"scores,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *SchedulingReport) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
