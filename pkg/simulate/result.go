package simulate

import (
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Event kinds. Pod operations are named after the Cache method they call.
const (
	EventAssume        = "assume"
	EventFinishBinding = "finishBinding"
	EventAdd           = "add"
	EventUpdate        = "update"
	EventForget        = "forget"
	EventRemove        = "remove"
	// EventExpire is one pod expired by a cleanup.
	EventExpire = "expire"
	// EventCleanup is a script cleanup that expired nothing. Timeline
	// cleanup ticks that expire nothing are not recorded.
	EventCleanup = "cleanup"
	// EventUnschedulable: no node fits the pod; nothing was assumed.
	EventUnschedulable = "unschedulable"
	// EventAdvance: a script moved the clock.
	EventAdvance    = "advance"
	EventAddNode    = "addNode"
	EventUpdateNode = "updateNode"
	EventRemoveNode = "removeNode"
)

// StateUnschedulable is the final state of a pod that fit no node and was
// not assumed afterwards. It is not a cache state: the cache never saw it.
const StateUnschedulable cache.PodState = "Unschedulable"

// Result is a simulation's record.
type Result struct {
	// Script is true for RunScript, false for Run.
	Script bool
	// Source is the model's source (where the cluster came from).
	Source string
	// Options are the options the run used, with CleanupPeriod and Until
	// resolved to the values in effect.
	Options Options
	// End is the clock offset when the simulation stopped.
	End time.Duration
	// Events in the order they happened.
	Events []Event
	// Nodes every event touched, input nodes first in input order, then
	// others in the order first touched.
	Nodes []NodeChange
	// Pods simulated, in the order given, then in the order first named.
	Pods []PodOutcome
}

// Event is one cache operation, or one pod expired by a cleanup.
type Event struct {
	// At is the clock offset from Epoch.
	At time.Duration
	// Step is the 1-based script step; 0 in timeline mode.
	Step int
	// Kind is one of the Event* constants.
	Kind string
	// Pod is the object handed to the cache (the cached one for expiry);
	// nil for node and clock events.
	Pod *v1.Pod
	// Node is the node whose NodeInfo the event concerns.
	Node string
	// From and To are the cache's reported transition; both empty when
	// the pod's state did not change.
	From, To cache.PodState
	// Usage is Node's NodeInfo right after the event; nil when it has none.
	Usage *Usage
	// Note explains the event.
	Note string
	// Err is the cache's error, verbatim.
	Err error
}

// Usage is one NodeInfo's cpu, memory and pods, requested and allocatable.
type Usage struct {
	// MilliCPU and Memory (bytes) requested; Pods is the pod count.
	MilliCPU, Memory, Pods int64
	// Allocatable amounts; AllowedPods is the allowed pod number.
	AllocatableMilliCPU, AllocatableMemory, AllowedPods int64
	// Placeholder: pods on a node that does not exist. Ghost: the node was
	// removed while pods remained.
	Placeholder, Ghost bool
}

// NodeChange is a touched node before the first event and after the last.
type NodeChange struct {
	Name string
	// Before and After are nil when the node had no NodeInfo then.
	Before, After *Usage
}

// PodOutcome is a simulated pod's final state.
type PodOutcome struct {
	// Pod is the pod as given (before any nodeName was set).
	Pod *v1.Pod
	// Requested is what the pod adds to a node's Requested.
	Requested cache.Resource
	// State is the final cache state, or StateUnschedulable.
	State cache.PodState
	// Node is where the pod is accounted at the end, or was last.
	Node string
	// Detail explains the state.
	Detail string
	// Unschedulable holds why each node examined did not fit, for a pod
	// whose last placement found no node.
	Unschedulable []NodeReasons
}

// NodeReasons is why kube-scheduler's filters reject a pod on one node:
// the Filter plugin and its reasons.
type NodeReasons struct {
	Node    string
	Plugin  string
	Reasons []string
}
