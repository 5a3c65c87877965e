package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ScaleUpReport is the outcome of "why --scale-up": for each node group,
// how many new nodes like one of its nodes schedule every pod (placed by
// kube-scheduler's own cycle), or why the group cannot take them; and
// which group cluster-autoscaler's least-waste expander would grow.
type ScaleUpReport struct {
	metav1.TypeMeta `json:",inline"`
	// Source describes where the nodes and pods came from.
	Source string `json:"source"`
	// Config names the scheduler configuration: "default" or the --config file.
	Config string `json:"config"`
	// Workload is "<Kind> <namespace>/<name>" of the --pod-file whose
	// replicas are placed; absent for the selected pending pods.
	Workload string `json:"workload,omitempty"`
	// Pods counts the pods to place.
	Pods int `json:"pods"`
	// Groups are the node groups, by name.
	Groups []ScaleUpGroup `json:"groups"`
	// Expander is the expander whose choice Chosen is: "least-waste".
	Expander string `json:"expander"`
	// Chosen are the groups the expander keeps among those that fit: one,
	// or several on a tie (cluster-autoscaler picks one of them at
	// random); empty when no group fits.
	Chosen []string `json:"chosen"`
	// Verdict is the one-line choice printed on stderr.
	Verdict string `json:"verdict"`
	// WhatIf lists the what-if edits applied to the input first (absent
	// without).
	WhatIf *WhatIf `json:"whatIf,omitempty"`
}

// ScaleUpGroup is one node group's answer.
type ScaleUpGroup struct {
	// Group is the group's name: its node-pool label's value, else the
	// instance type.
	Group string `json:"group"`
	// Template is the node the new nodes are copied from.
	Template string `json:"template"`
	// Size counts the group's nodes in the cluster; MaxSize is its
	// maximum from cluster-autoscaler's status and Allowed how many nodes
	// it may still add (absent when the status does not give them).
	Size    int  `json:"size"`
	MaxSize *int `json:"maxSize,omitempty"`
	Allowed *int `json:"allowed,omitempty"`
	// TemplatePods are the pods ("namespace/name" on the template node,
	// or "namespace/<DaemonSet name>" for a DaemonSet added) every new
	// node runs: DaemonSet and mirror pods.
	TemplatePods []string `json:"templatePods,omitempty"`
	// Result is "fits" (Nodes new nodes schedule every pod that fits one
	// alone), "not-needed" (the pods are scheduled as the cluster is),
	// "ruled-out" (no pod fits one new node even alone: NeverFit says
	// why), "too-few" (even one new node per pod leaves StillPending
	// pending) or "over-max" (Nodes are needed, more than Allowed).
	Result string `json:"result"`
	// Nodes is the number of new nodes found ("fits", "over-max").
	Nodes int `json:"nodes"`
	// PodsOnNewNodes counts the pods placed on the new nodes ("fits").
	PodsOnNewNodes int `json:"podsOnNewNodes,omitempty"`
	// CPUWaste and MemoryWaste are least-waste's shares (0 to 1) of the
	// new nodes' cpu and memory capacity those pods leave unrequested
	// ("fits").
	CPUWaste    *float64 `json:"cpuWaste,omitempty"`
	MemoryWaste *float64 `json:"memoryWaste,omitempty"`
	// NeverFit are the pods one new node rejects even alone, with the
	// filter that rejects them.
	NeverFit []NeverFit `json:"neverFit,omitempty"`
	// StillPending are the pods left pending with one new node per pod
	// ("too-few").
	StillPending []string `json:"stillPending,omitempty"`
	// Bound is the count of new nodes below which the pods' requests
	// cannot fit (UntilFits.Bound): smaller counts are not placed.
	Bound int `json:"bound,omitempty"`
	// Trials are the counts of new nodes placed, in the order tried.
	Trials []UntilFitsTrial `json:"trials,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *ScaleUpReport) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
