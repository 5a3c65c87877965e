package scaledown

import v1 "k8s.io/api/core/v1"

// Result is what scale-down decides for one node.
type Result string

// The results, as the ScaleDownReport kind spells them.
const (
	// Removable: the node can go; every pod to move has a place (Moves).
	Removable Result = "removable"
	// Blocked: a pod of the node can never move (Pod, Rule, Message).
	Blocked Result = "blocked"
	// NotUnderThreshold: the node's utilization is not below the
	// threshold, so it is no candidate.
	NotUnderThreshold Result = "not-under-threshold"
	// NoPlace: a pod of the node finds no place on the nodes that stay
	// (Pod; Message is its FailedScheduling message).
	NoPlace Result = "no-place"
	// Disabled: the node is annotated scale-down-disabled "true".
	Disabled Result = "scale-down-disabled"
	// MinSizeReached: removing it would take its node group below the
	// minimum size cluster-autoscaler's status gives.
	MinSizeReached Result = "min-size-reached"
	// NotExamined: a candidate left out by the bounds (pool size, time).
	NotExamined Result = "not-examined"
)

// Move is one pod of a removable node and the node its replacement lands
// on.
type Move struct {
	Pod  *v1.Pod
	Node string
}

// NodeOutcome is the decision for one node.
type NodeOutcome struct {
	Node        *v1.Node
	Group       string
	Utilization Utilization
	Result      Result
	// Pod is the pod that blocks the node or finds no place.
	Pod  *v1.Pod
	Rule Rule
	// Message says why, in words; for NoPlace the FailedScheduling
	// message.
	Message string
	// Moves are the moved pods of a removable node, in the order they were
	// placed.
	Moves []Move
}

// Outcome is scale-down's answer.
type Outcome struct {
	// Removable are the removable nodes in removal order.
	Removable []string
	// Nodes are every node considered: the candidates in the order they
	// were examined, then the others in name order.
	Nodes []NodeOutcome
	// Candidates counts the nodes under the threshold and not disabled;
	// Examined those whose pods were moved (empty ones included);
	// NotExamined those the bounds left out.
	Candidates, Examined, NotExamined int
	// Pool is the most non-empty candidates examined (Options.PoolRatio,
	// PoolMinCount); TimedOut: Options.Timeout ran out.
	Pool     int
	TimedOut bool
	// Cycles counts the scheduling cycles run.
	Cycles int
}
