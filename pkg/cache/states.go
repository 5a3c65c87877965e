package cache

import v1 "k8s.io/api/core/v1"

// PodState is a pod's state in the cache state machine.
type PodState string

// The pod states of the cache state machine (see Cache).
const (
	StateInitial PodState = "Initial"
	StateAssumed PodState = "Assumed"
	StateAdded   PodState = "Added"
	StateExpired PodState = "Expired"
	StateDeleted PodState = "Deleted"
)

// Transition is one state change of one pod, reported to an Observer.
type Transition struct {
	// Pod is the object the change concerns (the cached one when removed).
	Pod *v1.Pod
	// Node is the node whose NodeInfo changed: the pod's node after the
	// change, or before it for removals.
	Node string
	From PodState
	To   PodState
	// Cause is the method that made the change: "AssumePod", "ForgetPod",
	// "AddPod", "UpdatePod", "RemovePod" or "Cleanup".
	Cause string
}

// Observer receives every pod state change, after the cache lock is
// released, in the order the changes happened within one call.
type Observer func(Transition)
