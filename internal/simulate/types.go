package simulate

// The run's answer in simulate's own types; internal/views maps it to the
// output kind (views.Simulation: v1alpha1.Simulation, whose fields
// document the meaning, units and order of each of these).

// Result is a run's timeline, touched nodes and final pod states.
// Events, Nodes and Pods are never nil (empty lists print as []).
type Result struct {
	Source   string
	Settings Settings
	Events   []Event
	Nodes    []Node
	Pods     []Pod
}

// Settings are the inputs that shaped the run; offsets are given as Go
// duration strings and whole milliseconds. Timeline is nil in script mode.
type Settings struct {
	Mode, Start            string
	TTL                    string
	TTLMillis              int64
	TTLSource, KubeVersion string
	ZeroTTLExpires         bool
	End                    string
	EndMillis              int64
	Timeline               *TimelineSettings
}

// TimelineSettings are the timeline mode's bind outcomes and periods.
type TimelineSettings struct {
	Bind                string
	BindFor             []BindOverride
	Node                string
	BindLatency         string
	BindLatencyMillis   int64
	CleanupPeriod       string
	CleanupPeriodMillis int64
	Until               string
	UntilMillis         int64
}

// BindOverride is one pod's bind outcome ("pod" or "namespace/pod").
type BindOverride struct {
	Pod, Outcome string
}

// Event is one cache operation, or one pod expired by a cleanup
// (Event is one of the Event* kinds). Pod is nil for node and clock
// events; Requested is nil when Node has no NodeInfo after the event.
type Event struct {
	At        string
	AtMillis  int64
	Step      int
	Event     string
	Pod       *PodRef
	Node      string
	From, To  string
	Requested *Usage
	Note      string
	Error     string
	TiedNodes []string
}

// PodRef names a pod; the cache keys pods by UID.
type PodRef struct {
	Namespace, Name, UID string
}

// Usage is a NodeInfo's requested (or allocatable) milliCPU, memory in
// bytes and pod count, with the quantities whose int64 sums wrapped.
type Usage struct {
	MilliCPU, Memory, Pods int64
	Overflow               []string
}

// Node is one touched node's requests before the first event and after
// the last one (nil: no NodeInfo then).
type Node struct {
	Name               string
	Allocatable        Usage
	Before, After      *Usage
	Placeholder, Ghost bool
}

// Pod is one simulated pod's final state (a cache state or
// StateUnschedulable) and why.
type Pod struct {
	PodRef
	Requested     Usage
	State         string
	Node          string
	Detail        string
	Unschedulable []NodeReasons
}

// NodeReasons is why kube-scheduler's filters reject a pod on one node.
type NodeReasons struct {
	Node, Plugin string
	Reasons      []string
}
