package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Simulation is the outcome of "simulate": a virtual-time timeline of the
// cache operations kube-scheduler performs when it assumes pods and their
// bindings complete, fail or are lost, with the requested resources of every
// node the timeline touched before and after, and each simulated pod's final
// cache state.
//
// Virtual time starts at Settings.Start (a fixed instant, never the wall
// clock); every offset is given twice: as a Go duration string ("100ms",
// "31s", "1m0.1s") and as whole milliseconds (rounded down). Quantities are
// exact integers: milliCPU in millicores, memory in bytes.
type Simulation struct {
	metav1.TypeMeta `json:",inline"`
	// Source describes where the nodes and pods came from.
	Source string `json:"source"`
	// Settings are the inputs that shaped the timeline.
	Settings SimulationSettings `json:"settings"`
	// Events in the order they happened (time order; ties in the order the
	// operations ran).
	Events []SimulationEvent `json:"events"`
	// Nodes lists every node an event touched (including the node an
	// assumed pod moved away from), input nodes first in input order, then
	// other names in the order they were first touched.
	Nodes []SimulatedNode `json:"nodes"`
	// Pods lists every simulated pod: in timeline mode the --pod-file pods
	// then the --pending pods; in script mode those, then every other pod a
	// script step names, in the order first named.
	Pods []SimulatedPod `json:"pods"`
	// WhatIf lists the what-if edits applied to the input (absent without).
	WhatIf *WhatIf `json:"whatIf,omitempty"`
}

// SimulationSettings are the simulation's inputs.
type SimulationSettings struct {
	// Mode is "timeline" (pods assumed at +0s, bound after the bind
	// latency, cleanup ticks every period) or "script" (--script: exactly
	// the listed operations; time moves only with "advance").
	Mode string `json:"mode"`
	// Start is the virtual instant of offset +0s, RFC 3339.
	Start string `json:"start"`
	// TTL is the assumed-pod TTL in force: an assumed pod whose binding
	// finished expires once the clock is past finishBinding + TTL. "0s"
	// means never.
	TTL       string `json:"ttl"`
	TTLMillis int64  `json:"ttlMillis"`
	// TTLSource says why that TTL: "--ttl", or the kube-scheduler version
	// whose default it is ("kube-scheduler v1.19 default", "latest
	// kube-scheduler default").
	TTLSource string `json:"ttlSource"`
	// KubeVersion is the kube-scheduler version modelled, whose TTL default
	// applies, when it was given by --kube-version or read from the live
	// server; absent with --ttl and for the default version (v1.36).
	KubeVersion string `json:"kubeVersion,omitempty"`
	// ZeroTTLExpires is true when the TTL is 0 and the version modelled
	// (before v1.25) expires an assumed pod at the first cleanup after its
	// binding finished, rather than never.
	ZeroTTLExpires bool `json:"zeroTTLExpires,omitempty"`
	// End is the virtual time when the simulation stopped.
	End       string `json:"end"`
	EndMillis int64  `json:"endMillis"`
	// Timeline holds the timeline-mode settings; absent in script mode.
	Timeline *TimelineSettings `json:"timeline,omitempty"`
}

// TimelineSettings are the flags of timeline mode.
type TimelineSettings struct {
	// Bind is the default binding outcome: "confirm" (FinishBinding, then
	// the pod's Add event), "fail" (FinishBinding, then ForgetPod) or
	// "lost" (FinishBinding, no Add event ever arrives).
	Bind string `json:"bind"`
	// BindFor lists per-pod outcome overrides (--bind-for), by pod name.
	BindFor []BindOverride `json:"bindFor,omitempty"`
	// Node is --node: every pod was assumed on it without a fit check.
	// Empty: placed where kube-scheduler v1.36 would place them.
	Node string `json:"node,omitempty"`
	// BindLatency is the time from AssumePod to FinishBinding.
	BindLatency       string `json:"bindLatency"`
	BindLatencyMillis int64  `json:"bindLatencyMillis"`
	// CleanupPeriod is the interval of the cleanup ticks (upstream's
	// cleanAssumedPeriod, 1s).
	CleanupPeriod       string `json:"cleanupPeriod"`
	CleanupPeriodMillis int64  `json:"cleanupPeriodMillis"`
	// Until is the length of the timeline.
	Until       string `json:"until"`
	UntilMillis int64  `json:"untilMillis"`
}

// BindOverride is one --bind-for NAMESPACE/NAME=OUTCOME.
type BindOverride struct {
	// Pod is "namespace/name".
	Pod     string `json:"pod"`
	Outcome string `json:"outcome"`
}

// SimulationEvent is one cache operation, or one pod expired by a cleanup.
type SimulationEvent struct {
	// At is the virtual time of the event, as an offset from Start.
	At       string `json:"at"`
	AtMillis int64  `json:"atMillis"`
	// Step is the 1-based script step that caused the event (script mode).
	Step int `json:"step,omitempty"`
	// Event is the operation: assume, finishBinding, add, update, forget,
	// remove, expire (a pod removed by a cleanup), cleanup (a script
	// cleanup that expired nothing), unschedulable (no node fits; nothing
	// was assumed), advance (script: the clock moved), addNode, updateNode,
	// removeNode.
	Event string `json:"event"`
	// Pod is the pod the operation concerned; absent for node and clock events.
	Pod *PodRef `json:"pod,omitempty"`
	// Node is the node whose NodeInfo the event concerns: the pod's node
	// after the change (before it for removals and expiry).
	Node string `json:"node,omitempty"`
	// From and To are the pod's cache states (Initial, Assumed, Added,
	// Expired, Deleted) before and after, as the cache reported the
	// transition; both absent when the state did not change.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Requested is Node's NodeInfo right after the event; absent when the
	// node has no NodeInfo (removed, or never existed).
	Requested *NodeUsage `json:"requested,omitempty"`
	// Note explains the event: placement, deadlines, moves, the reasons
	// no node fits.
	Note string `json:"note,omitempty"`
	// Error is the error the cache returned, verbatim.
	Error string `json:"error,omitempty"`
	// TiedNodes are, for an assume that kube-scheduler's scoring chose,
	// the other feasible nodes with the same highest total score, in the
	// order the cycle evaluated them. kube-scheduler v1.36 may bind the
	// pod to any of them (its score heap breaks equal totals by the order
	// its parallel filters finished in, or at random with extenders), and
	// every later placement may differ accordingly. Absent without a tie.
	TiedNodes []string `json:"tiedNodes,omitempty"`
}

// PodRef names a pod; the cache keys pods by UID.
type PodRef struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
}

// NodeUsage is a node's cpu, memory and pods: requested or allocatable.
type NodeUsage struct {
	// MilliCPU in millicores.
	MilliCPU int64 `json:"milliCPU"`
	// Memory in bytes.
	Memory int64 `json:"memory"`
	// Pods is the pod count (requested) or the allowed pod number
	// (allocatable).
	Pods int64 `json:"pods"`
	// Overflow lists, sorted, the resources whose numbers here
	// kube-scheduler's int64 arithmetic wraps (a quantity or a sum beyond
	// int64); the numbers are the scheduler's wrapped ones. Set for the
	// node summary, the simulated pods and the timeline events.
	Overflow []string `json:"overflow,omitempty"`
}

// SimulatedNode is one touched node's requested resources before the first
// event and after the last one.
type SimulatedNode struct {
	Name string `json:"name"`
	// Allocatable of the node (after the last event, or before it if the
	// NodeInfo is gone); zero for placeholders.
	Allocatable NodeUsage `json:"allocatable"`
	// Before is absent when the node had no NodeInfo at the start.
	Before *NodeUsage `json:"before,omitempty"`
	// After is absent when the node has no NodeInfo at the end.
	After *NodeUsage `json:"after,omitempty"`
	// Placeholder: at the end, pods are on a node that does not exist.
	Placeholder bool `json:"placeholder,omitempty"`
	// Ghost: at the end, the node was removed while pods remained.
	Ghost bool `json:"ghost,omitempty"`
}

// SimulatedPod is one simulated pod's final state.
type SimulatedPod struct {
	PodRef `json:",inline"`
	// Requested is what the pod adds to a node's Requested.
	Requested NodeUsage `json:"requested"`
	// State is the pod's final cache state (Initial, Assumed, Added,
	// Expired, Deleted), or Unschedulable when it fit no node and was never
	// assumed.
	State string `json:"state"`
	// Node is the node the pod is accounted on at the end (Assumed, Added),
	// or the last node it was on.
	Node string `json:"node,omitempty"`
	// Detail explains the state, e.g. "forgotten", "binding lost: never
	// expires (TTL 0)", "expired at +31s".
	Detail string `json:"detail,omitempty"`
	// Unschedulable lists, for a pod that no node could take, each node
	// the scheduling cycle evaluated and the filter that rejected it, in
	// evaluation order.
	Unschedulable []NodeReasons `json:"unschedulable,omitempty"`
}

// NodeReasons is why kube-scheduler's filters reject a pod on one node.
type NodeReasons struct {
	Node string `json:"node"`
	// Plugin is the Filter (or PreFilter) plugin that rejected the pod.
	Plugin string `json:"plugin,omitempty"`
	// Reasons as the plugin words them, e.g. "Insufficient cpu".
	Reasons []string `json:"reasons"`
}
