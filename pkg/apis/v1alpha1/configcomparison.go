package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ConfigComparison is the outcome of "simulate --config A --config B …"
// and "why --pod-file … --config A --config B …": the same pods placed
// under each scheduler configuration, from the same cluster state, and
// how full the nodes are afterwards.
type ConfigComparison struct {
	metav1.TypeMeta `json:",inline"`
	// Source describes where the nodes and pods came from.
	Source string `json:"source"`
	// Command is "simulate" or "why".
	Command string `json:"command"`
	// Configs are the outcomes, one per --config, in flag order.
	Configs []ConfigOutcome `json:"configs"`
}

// ConfigOutcome is one configuration's outcome.
type ConfigOutcome struct {
	// Config is the configuration file's base name; File its path as given.
	Config string `json:"config"`
	File   string `json:"file"`
	// Pods is the number of pods placed under this configuration (for why,
	// the replicas tried: it stops at the first that does not fit).
	Pods int `json:"pods"`
	// Placed are the pods that ended on a node (assumed or bound); Pending
	// the others.
	Placed  int `json:"placed"`
	Pending int `json:"pending"`
	// PlacedNodes is the number of distinct nodes the placed pods ended on:
	// the packing of the pods this comparison placed (fewer is tighter),
	// where NodesUsed also counts the nodes that held pods before.
	PlacedNodes int `json:"placedNodes"`
	// SchedulableNodes is the number of nodes the utilisation is over:
	// nodes without spec.unschedulable.
	SchedulableNodes int `json:"schedulableNodes"`
	// NodesUsed is the number of schedulable nodes holding at least one pod
	// that no DaemonSet owns, after placement.
	NodesUsed int `json:"nodesUsed"`
	// Utilisation is, per resource (cpu, memory, pods), the statistics of
	// requested/allocatable over the schedulable nodes after placement.
	Utilisation []ResourceUtilisation `json:"utilisation"`
	// ExitCode is what the plain command would exit with under this
	// configuration alone: 0, or 1 when a pod does not fit (why: a
	// replica; simulate: a pod ends Unschedulable).
	ExitCode int `json:"exitCode"`
}

// ResourceUtilisation is the distribution, over nodes, of one resource's
// requested/allocatable ratio (0.25 = a quarter requested). Nodes with
// nothing allocatable of the resource are left out.
type ResourceUtilisation struct {
	// Resource is "cpu", "memory" or "pods".
	Resource string `json:"resource"`
	// Nodes is how many nodes the figures are over.
	Nodes int `json:"nodes"`
	// Mean, StdDev (population standard deviation) and Max of the ratio.
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stdDev"`
	Max    float64 `json:"max"`
}
