package simulate

import (
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Event kinds (Event.Event). Pod operations are named
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

// Tally is what a placement run's final states say of its pods: how many
// ended on a node (Assumed or Added), on how many distinct nodes (the
// packing: fewer is tighter), and how many ended Unschedulable (the plain
// "simulate --pending" exits 1 for any).
type Tally struct {
	Placed, Nodes, Unschedulable int
}

// TallyOf counts the final states of pods (Result.Pods).
func TallyOf(pods []Pod) Tally {
	var t Tally
	nodes := map[string]bool{}
	for _, p := range pods {
		switch cache.PodState(p.State) {
		case cache.StateAssumed, cache.StateAdded:
			t.Placed++
			if !nodes[p.Node] {
				nodes[p.Node] = true
				t.Nodes++
			}
		case StateUnschedulable:
			t.Unschedulable++
		}
	}
	return t
}
