package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// RequestedReport is per-node requested resources as the scheduler accounts them.
type RequestedReport struct {
	metav1.TypeMeta `json:",inline"`
	Source          string `json:"source"`
	// Resources lists the resource columns: cpu, memory, ephemeral-storage,
	// pods, then every scalar resource present on any node, sorted.
	Resources []string        `json:"resources"`
	Nodes     []NodeRequested `json:"nodes"`
	// Total sums every row.
	Total NodeRequested `json:"total"`
	// Pod is set when a pod's fit was checked (--pod / --pod-file).
	Pod *FitPod `json:"pod,omitempty"`
	// Pods, with --pods, is one row per pod on the selected nodes (in the
	// namespace of -n), sorted by namespace and name, or by --sort-by.
	Pods []PodRequested `json:"pods,omitempty"`
	// Namespaces, with --by namespace, is one row per namespace with pods
	// on the selected nodes, sorted by name, or by --sort-by.
	Namespaces []NamespaceRequested `json:"namespaces,omitempty"`
	// WhatIf lists the what-if edits applied to the input (absent without).
	WhatIf *WhatIf `json:"whatIf,omitempty"`
}

// PodRequested is one pod's requests as the scheduler counts them on its
// node: what it adds to that node's requested and nonZeroRequested.
type PodRequested struct {
	Namespace        string          `json:"namespace"`
	Name             string          `json:"name"`
	Node             string          `json:"node"`
	Requested        Resource        `json:"requested"`
	NonZeroRequested NonZeroResource `json:"nonZeroRequested"`
	// Limits is set with --limits: the pod's limits (component-helpers'
	// resource.PodLimits).
	Limits *Resource `json:"limits,omitempty"`
}

// NamespaceRequested sums the requests of one namespace's pods over the
// selected nodes: each pod counted once, on the node it is bound to.
type NamespaceRequested struct {
	Namespace string `json:"namespace"`
	// Pods counts the namespace's pods; Nodes the nodes they are on.
	Pods             int             `json:"pods"`
	Nodes            int             `json:"nodes"`
	Requested        Resource        `json:"requested"`
	NonZeroRequested NonZeroResource `json:"nonZeroRequested"`
	// Limits is set with --limits.
	Limits *Resource `json:"limits,omitempty"`
}

// NodeRequested is one node's requested resources.
type NodeRequested struct {
	Name string `json:"name"`
	// Placeholder: pods on a node that does not exist (allocatable 0).
	Placeholder      bool            `json:"placeholder,omitempty"`
	Ghost            bool            `json:"ghost,omitempty"`
	Pods             int             `json:"pods"`
	Requested        Resource        `json:"requested"`
	NonZeroRequested NonZeroResource `json:"nonZeroRequested"`
	Allocatable      Resource        `json:"allocatable"`
	// Limits is set with --limits: the sum of the node's pods' limits
	// (component-helpers' resource.PodLimits; a container without a limit
	// adds nothing).
	Limits *Resource `json:"limits,omitempty"`
	// Fit is set when a pod's fit was checked.
	Fit *Fit `json:"fit,omitempty"`
	// Overflow lists, sorted, the resources whose numbers on this node went
	// beyond int64 (its allocatable, a pod's request or the sum of the
	// requests): kube-scheduler's arithmetic wraps them, and so do the
	// numbers here.
	Overflow []string `json:"overflow,omitempty"`
}

// FitPod identifies the pod whose fit was checked and its scheduler requests.
type FitPod struct {
	Namespace string   `json:"namespace"`
	Name      string   `json:"name"`
	Requested Resource `json:"requested"`
	// FitsNodes counts the nodes where every kube-scheduler filter passes.
	FitsNodes int `json:"fitsNodes"`
}

// Fit is kube-scheduler's Filter verdict for the pod on one node (every
// PreFilter and Filter plugin of the profile, nominated pods included).
type Fit struct {
	Fits bool `json:"fits"`
	// Plugin is the plugin that rejected the pod, e.g. "NodeResourcesFit".
	Plugin string `json:"plugin,omitempty"`
	// Reasons as the plugin words them, e.g. "Insufficient cpu", "Too many
	// pods", "node(s) had untolerated taint(s)".
	Reasons []string `json:"reasons,omitempty"`
}

// Amounts returns the row's requested and allocatable amounts of one
// resource column ("cpu" in milliCPU, "memory" and "ephemeral-storage" in
// bytes, "pods" as the pod count against allowed pods, or a scalar resource).
func (n *NodeRequested) Amounts(resource string) (requested, allocatable int64) {
	switch resource {
	case "cpu":
		return n.Requested.MilliCPU, n.Allocatable.MilliCPU
	case "memory":
		return n.Requested.Memory, n.Allocatable.Memory
	case "ephemeral-storage":
		return n.Requested.EphemeralStorage, n.Allocatable.EphemeralStorage
	case "pods":
		return int64(n.Pods), n.Allocatable.AllowedPodNumber
	default:
		return n.Requested.ScalarResources[resource], n.Allocatable.ScalarResources[resource]
	}
}
