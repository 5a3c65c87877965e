package decide

import (
	"strings"

	v1 "k8s.io/api/core/v1"
)

// Result is what kube-scheduler does with a pod in one scheduling cycle.
type Result string

const (
	// Scheduled means a node passed every filter; Verdict.Node is where the pod
	// would be bound.
	Scheduled Result = "scheduled"
	// Unschedulable means no node passed; Verdict.Message is the FailedScheduling
	// message and Verdict.Preemption says whether preemption would help.
	Unschedulable Result = "unschedulable"
	// Gated means a PreEnqueue plugin (scheduling gates, missing resource claims)
	// keeps the pod out of the scheduling queue; no cycle runs.
	Gated Result = "gated"
	// Skipped means the scheduler never runs a cycle for the pod (being deleted,
	// no profile for its schedulerName, already bound).
	Skipped Result = "skipped"
)

// Verdict is the outcome of one pod's scheduling cycle, in our own types.
type Verdict struct {
	// Pod is the pod evaluated.
	Pod *v1.Pod
	// Profile is the schedulerName whose profile ran ("" when skipped).
	Profile string
	Result  Result
	// Node is the chosen node (Scheduled only).
	Node string
	// Message is, for Unschedulable, the full text kube-scheduler puts in the
	// pod's PodScheduled condition and (cut to 1024 bytes, see EventMessage)
	// in the FailedScheduling event; for Gated and Skipped, the reason.
	Message string
	// Preemption is set when DefaultPreemption found victims whose eviction
	// would make room (the scheduler then nominates the node and deletes them).
	Preemption *Preemption
	// Nodes are the per-node outcomes in the order the scheduler evaluated
	// them (NodeTree order from the start index). Nodes the scheduler did not
	// evaluate are absent: it stops at the first node to pass after
	// numFeasibleNodesToFind feasible ones, and drops that node too.
	Nodes []NodeResult
	// TakenFirst says why the node was chosen without scanning and scoring
	// the others: "nominated" (the pod's status.nominatedNodeName, tried
	// first) or "hint" (OpportunisticBatching's runner-up from the previous
	// cycle of an identical pod); empty otherwise.
	TakenFirst string
	// NumAllNodes is the number of nodes in the snapshot (the N of "0/N nodes").
	NumAllNodes int
	// EvaluatedNodes and FeasibleNodes count what the cycle looked at, as the
	// scheduler's "Successfully bound pod" log line reports them.
	EvaluatedNodes, FeasibleNodes int
	// RejectedBy counts the rejected nodes per plugin, each node under the
	// plugin the scheduler records for it (the first that rejected it); a
	// PreFilter rejection counts every node. Kept when Nodes are omitted.
	RejectedBy map[string]int
	// TopNodes are the best scored nodes (up to 3), the chosen one first;
	// empty when nothing was scored. Kept when Nodes are omitted.
	TopNodes []NodeResult
	// NearMisses are, for an unschedulable pod, this tool's analysis (not
	// the scheduler's): the nodes rejected by the fewest Filter plugins,
	// each with every plugin that rejects it (Input.NearMisses).
	NearMisses []NearMiss
}

// NodeResult is one node's outcome: the first Filter (or PreFilter) plugin
// that rejected the pod, or, for a feasible node, its scores.
type NodeResult struct {
	Name string
	// Feasible: every Filter plugin passed (with and without nominated pods).
	Feasible bool
	// Plugin is the plugin that rejected the pod ("" when feasible, or when
	// the node was left out by a PreFilter's node subset).
	Plugin string
	// Code is the rejection's status code: "Unschedulable" (preemption may
	// help) or "UnschedulableAndUnresolvable".
	Code string
	// Reasons are the plugin's reason strings, verbatim.
	Reasons []string
	// Scores are the Score plugins' normalised scores multiplied by their
	// weights, in profile order; empty when the cycle did not score (one
	// feasible node, or the nominated node was taken without scoring).
	Scores []PluginScore
	// Total is the sum of Scores.
	Total int64
}

// PluginScore is one Score plugin's weighted score for a node.
type PluginScore struct {
	Plugin string
	Score  int64
}

// Filter renders the node's filter outcome the way the JSON contract names
// it: "Success", or "<Plugin>: <reason>, <reason>".
func (n NodeResult) Filter() string {
	if n.Feasible {
		return "Success"
	}
	reasons := strings.Join(n.Reasons, ", ")
	if n.Plugin == "" {
		return reasons
	}
	return n.Plugin + ": " + reasons
}

// Preemption is what DefaultPreemption would do for an unschedulable pod.
type Preemption struct {
	// NominatedNode is the node the pod would be nominated to.
	NominatedNode string
	// Victims are the pods the scheduler would delete from it, highest
	// priority first.
	Victims []*v1.Pod
	// TerminatingVictims are the victims DefaultPreemption chose that are
	// already being deleted (deletionTimestamp set): the scheduler counts
	// them in its choice but sends no delete for them (Executor,
	// framework/preemption/executor.go, v1.36.3). Highest priority first.
	TerminatingVictims []*v1.Pod
}

// forPod is v for another pod of the same class (classKey): the same outcome.
func (v *Verdict) forPod(pod *v1.Pod) *Verdict {
	out := *v
	out.Pod = pod
	return &out
}

// eventNoteLimit is the Event note length limit (validation.NoteLengthLimit).
const eventNoteLimit = 1024

// EventMessage returns Message as the FailedScheduling event carries it:
// cut to 1024 bytes with a " ..." suffix, as kube-scheduler v1.36's
// truncateMessage does (schedule_one.go).
func (v *Verdict) EventMessage() string {
	if len(v.Message) <= eventNoteLimit {
		return v.Message
	}
	const suffix = " ..."
	return v.Message[:eventNoteLimit-len(suffix)] + suffix
}
