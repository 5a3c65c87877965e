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
	// Together is, when at least two of the pending pods selected are
	// scheduled (each judged alone, as if it were the next), those pods
	// placed one after another instead (absent otherwise).
	Together *Together `json:"together,omitempty"`
}

// Together is the pods a why run calls scheduled, each judged alone on the
// cluster as it is, considered together: first whether they all fit on the
// nodes named for them (their requests, per node); if not, placed one
// after another in kube-scheduler's queue order (PrioritySort: priority,
// then arrival), each assumed on its node before the next pod's cycle, as
// "simulate --pending" places them — unless there are more than 200 of
// them (one scheduling cycle each: "simulate --pending" is the tool then).
type Together struct {
	// Scheduled is how many pods were considered: those called scheduled.
	Scheduled int `json:"scheduled"`
	// FitWhereNamed: they all fit together on the nodes named for them, so
	// none would stay Pending; nothing was placed.
	FitWhereNamed bool `json:"fitWhereNamed"`
	// Placed: they were placed one after another (StayPending is the
	// outcome); false when they fit where named, or were too many.
	Placed bool `json:"placed"`
	// StayPending are the pods ("namespace/name", in queue order) no node
	// takes once the pods before them are placed.
	StayPending []string `json:"stayPending,omitempty"`
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
	// Nodes are the evaluated nodes in the order the cycle filtered them:
	// for the pods named on the command line, and for the others only with
	// --show-nodes (at 5,000 nodes they are most of the output).
	Nodes []NodeDecision `json:"nodes,omitempty"`
	// RejectedBy counts the rejected nodes per plugin, each node under the
	// plugin the scheduler records for it (the first Filter plugin that
	// rejected it; a PreFilter rejection counts every node).
	RejectedBy map[string]int `json:"rejectedBy,omitempty"`
	// TopNodes are, for a scheduled pod whose feasible nodes were scored,
	// the best of them (up to 3) with their scores, the chosen node first.
	TopNodes []NodeDecision `json:"topNodes,omitempty"`
	// NearMisses are this tool's analysis of an unschedulable pod, not the
	// scheduler's: the nodes rejected by the fewest Filter plugins (a few,
	// every rejected node with --show-nodes), fewest first, each with every
	// plugin that rejects the pod there (the scheduler stops at the first).
	NearMisses []NearMiss `json:"nearMisses,omitempty"`
	// ClusterScheduler is the verdict the cluster's own scheduler last
	// recorded in the pod (its PodScheduled condition), when it recorded
	// one as Unschedulable and this decision is scheduled or unschedulable.
	ClusterScheduler *RecordedVerdict `json:"clusterScheduler,omitempty"`
}

// NearMiss is one node that rejects the pod, with every rejection.
type NearMiss struct {
	Node       string      `json:"node"`
	Rejections []Rejection `json:"rejections"`
}

// Rejection is one Filter plugin's rejection of the pod on a node.
type Rejection struct {
	Plugin string `json:"plugin"`
	// Code: "Unschedulable" or "UnschedulableAndUnresolvable".
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
	// Shortfalls are, for NodeResourcesFit, the resources the node lacks.
	Shortfalls []Shortfall `json:"shortfalls,omitempty"`
	// Taint is, for TaintToleration, the first taint the pod does not
	// tolerate: "key=value:Effect".
	Taint string `json:"taint,omitempty"`
	// Fix is a hint at what would lift this rejection, e.g. "uncordon it"
	// (empty when the reasons say it best).
	Fix string `json:"fix,omitempty"`
}

// Shortfall is one resource a node lacks for the pod, as NodeResourcesFit
// computes it. Units: milliCPU for "cpu", bytes for "memory" and
// "ephemeral-storage", pods for "pods", the resource's own otherwise.
type Shortfall struct {
	Resource  string `json:"resource"`
	Requested int64  `json:"requested"`
	// Free is the node's allocatable minus what its pods request.
	Free int64 `json:"free"`
}

// RecordedVerdict is what the cluster's scheduler recorded in the pod.
type RecordedVerdict struct {
	// Reason is the PodScheduled condition's reason: "Unschedulable".
	Reason string `json:"reason"`
	// Message is the condition's message (the FailedScheduling text).
	Message string `json:"message,omitempty"`
	// Time is the condition's lastTransitionTime.
	Time *metav1.Time `json:"lastTransitionTime,omitempty"`
	// Differs is true when this decision is "scheduled", or
	// "unschedulable" with another message: the input may be partial or
	// stale, or the cluster's scheduler's version or configuration differ.
	Differs bool `json:"differs"`
	// Cause names the difference's cause when the two messages tell it
	// (e.g. a phrase only newer schedulers write); empty otherwise.
	Cause string `json:"cause,omitempty"`
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
