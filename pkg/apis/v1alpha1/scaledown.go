package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ScaleDownReport is the outcome of "scale-down": which nodes could be
// removed now, cluster-autoscaler's way (candidates under the utilization
// threshold, its drainability rules, node groups' minimum sizes), every
// moved pod placed by kube-scheduler's own cycle on the nodes that stay.
type ScaleDownReport struct {
	metav1.TypeMeta `json:",inline"`
	// Source describes where the nodes and pods came from.
	Source string `json:"source"`
	// Config names the scheduler configuration: "default" or the --config file.
	Config string `json:"config"`
	// UtilizationThreshold is --utilization-threshold (0 to 1).
	UtilizationThreshold float64 `json:"utilizationThreshold"`
	// Removable are the names of the removable nodes, in removal order:
	// each removed with the pods of the earlier ones where they landed.
	Removable []string `json:"removable"`
	// Nodes are every node considered: the candidates in the order they
	// were examined (empty nodes first, then by name), then the others by
	// name.
	Nodes []ScaleDownNode `json:"nodes"`
	// Totals add the nodes up.
	Totals ScaleDownTotals `json:"totals"`
	// Verdict is the one-line summary printed on stderr, e.g. "2 of 12
	// nodes removable (3 cpu, 12Gi memory allocatable freed)".
	Verdict string `json:"verdict"`
	// WhatIf lists the what-if edits applied to the input first (absent
	// without).
	WhatIf *WhatIf `json:"whatIf,omitempty"`
}

// ScaleDownNode is the decision for one node.
type ScaleDownNode struct {
	Node string `json:"node"`
	// Group is the node's group: the value of its node-pool label
	// (GKE, EKS, AKS, Karpenter), else its instance type; "" for none.
	Group string `json:"group,omitempty"`
	// Result is "removable", "blocked" (Pod can never move: Rule),
	// "no-place" (Pod finds no place on the nodes that stay: Message is
	// its FailedScheduling message), "not-under-threshold",
	// "scale-down-disabled", "min-size-reached" (its group is at its
	// minimum size) or "not-examined" (left out by the bounds: Message
	// says which).
	Result string `json:"result"`
	// Utilization is the node's utilization (0 to 1): the highest of
	// CPU and Memory, or GPU on a GPU node; UtilizationResource names it.
	Utilization         float64 `json:"utilization"`
	UtilizationResource string  `json:"utilizationResource"`
	// CPU and Memory are the requested shares of allocatable (0 to 1).
	CPU    float64 `json:"cpu"`
	Memory float64 `json:"memory"`
	// Pod is "namespace/name" of the pod that blocks the node or finds no
	// place.
	Pod string `json:"pod,omitempty"`
	// Rule is cluster-autoscaler's name of the blocking reason:
	// NotReplicated, UnmovableKubeSystemPod, NotSafeToEvictAnnotation,
	// LocalStorageRequested or NotEnoughPdb.
	Rule string `json:"rule,omitempty"`
	// Message says why, in words.
	Message string `json:"message,omitempty"`
	// Moves are, for a removable node, where each of its moved pods lands,
	// in the order they were placed.
	Moves []ScaleDownMove `json:"moves,omitempty"`
}

// ScaleDownMove is a moved pod and the node its replacement lands on.
type ScaleDownMove struct {
	// Pod is "namespace/name" of the pod on the removed node.
	Pod  string `json:"pod"`
	Node string `json:"node"`
}

// ScaleDownTotals add the decisions up.
type ScaleDownTotals struct {
	// Nodes counts the nodes considered; Candidates those under the
	// threshold and not disabled; Examined the candidates decided;
	// NotExamined those the bounds left out; Removable the removable ones.
	Nodes       int `json:"nodes"`
	Candidates  int `json:"candidates"`
	Examined    int `json:"examined"`
	NotExamined int `json:"notExamined"`
	Removable   int `json:"removable"`
	// Pool is the most non-empty candidates examined:
	// max(ceil(nodes × --scale-down-candidates-pool-ratio),
	// --scale-down-candidates-pool-min-count).
	Pool int `json:"pool"`
	// TimedOut: --scale-down-simulation-timeout ran out.
	TimedOut bool `json:"timedOut"`
	// Cycles counts the scheduling cycles run.
	Cycles int `json:"cycles"`
	// Freed is the allocatable of the removable nodes, added up.
	Freed Resource `json:"freed"`
	// Groups are the node groups, by name.
	Groups []ScaleDownGroup `json:"groups"`
}

// ScaleDownGroup is one node group's part.
type ScaleDownGroup struct {
	// Group is the group's name ("" for nodes without one).
	Group string `json:"group"`
	// Nodes counts the group's nodes in the cluster; Removable those
	// removable.
	Nodes     int `json:"nodes"`
	Removable int `json:"removable"`
	// MinSize is the group's minimum size from cluster-autoscaler's status
	// ConfigMap; absent when unknown.
	MinSize *int `json:"minSize,omitempty"`
	// Freed is the allocatable of the group's removable nodes.
	Freed Resource `json:"freed"`
}

// DeepCopyObject implements runtime.Object.
func (in *ScaleDownReport) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
