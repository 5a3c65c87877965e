package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// DrainReport is the outcome of "drain": a dry run of `kubectl drain
// NODES` followed by kube-scheduler placing the evicted pods'
// replacements.
type DrainReport struct {
	metav1.TypeMeta `json:",inline"`
	// Source describes where the nodes and pods came from.
	Source string `json:"source"`
	// Config names the scheduler configuration: "default" or the --config file.
	Config string `json:"config"`
	// Nodes are the drained nodes, in the order given.
	Nodes []string `json:"nodes"`
	// Safe: every evicted pod's replacement is placed and nothing blocks
	// the drain.
	Safe bool `json:"safe"`
	// Verdict is the one-line verdict: "safe: …" or "not safe: …".
	Verdict string `json:"verdict"`
	// Pods are every pod of the drained nodes that kubectl drain lists
	// (and, with --include-pending, the pods pending before the drain):
	// first the placements, in the order the scheduler makes them, then
	// the others in kubectl's order (node, namespace, name).
	Pods []DrainPod `json:"pods"`
	// WhatIf lists the what-if edits applied to the input before the drain
	// (absent without).
	WhatIf *WhatIf `json:"whatIf,omitempty"`
}

// DrainPod is one pod's fate in the drain.
type DrainPod struct {
	// Pod is "namespace/name" of the pod on the drained node.
	Pod string `json:"pod"`
	// From is the drained node it ran on ("" for a pod pending before the
	// drain).
	From string `json:"from"`
	// Result is "scheduled" (its replacement is placed on Node),
	// "unschedulable" (its replacement stays Pending; Message is the
	// FailedScheduling message), "blocked" (not evicted, and the drain
	// cannot finish; Message says why, Budget names a disruption budget),
	// "not-recreated" (evicted, and nothing recreates it) or "skipped"
	// (stays without blocking: DaemonSet and mirror pods, the other pods
	// of a node whose drain is blocked).
	Result  string `json:"result"`
	Node    string `json:"node,omitempty"`
	Message string `json:"message,omitempty"`
	// Budget is "namespace/name" of the PodDisruptionBudget that blocks the
	// pod, or whose allowance its eviction used.
	Budget string `json:"budget,omitempty"`
	// Replacement is the name given to the pod its controller creates
	// (a StatefulSet's keeps the pod's name; others get "-replacement").
	Replacement string `json:"replacement,omitempty"`
	// Preemption is set when DefaultPreemption would nominate a node for
	// the unschedulable replacement and evict victims.
	Preemption *PreemptionDecision `json:"preemption,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *DrainReport) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
