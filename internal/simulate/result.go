package simulate

import "github.com/schedcache/kubectl-schedcache/pkg/cache"

// Event kinds (v1alpha1.SimulationEvent.Event). Pod operations are named
// after the Cache method they call.
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
