package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// CacheComparison compares a running kube-scheduler's own cache, as it dumped
// it on SIGUSR2, with the cache built from the API objects (or files).
type CacheComparison struct {
	metav1.TypeMeta `json:",inline"`
	// Source says where the API objects came from.
	Source string `json:"source"`
	// Scheduler describes the dump that was read.
	Scheduler SchedulerDump `json:"scheduler"`
	// Agree is true when no node, pod or queue difference was found.
	Agree   bool              `json:"agree"`
	Summary ComparisonSummary `json:"summary"`
	// Nodes are the NodeInfos that differ, sorted by name.
	Nodes []NodeComparison `json:"nodes"`
	// Queue lists the pending pods that differ.
	Queue QueueComparison `json:"queue"`
	// Comparer is what kube-scheduler's CacheComparer would log for the same
	// two sides (sorted node names and pod UIDs). It also counts
	// placeholders and other schedulers' pending pods, which are no
	// difference, so it does not decide Agree.
	Comparer ComparerResult `json:"comparer"`
	// SchedulerComparer is what the scheduler's own comparer logged just
	// before the dump (its informers against its cache); absent when it
	// logged nothing, which it does when they agree.
	SchedulerComparer *ComparerResult `json:"schedulerComparer,omitempty"`
}

// SchedulerDump identifies the dump read from kube-scheduler's log.
type SchedulerDump struct {
	// Log is where the log came from: a file, "-" (stdin) or "pod NAMESPACE/NAME".
	Log string `json:"log"`
	// StartLine and EndLine are the log lines of the dump (1-based).
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
	// Time is the time logged with the dump (klog: "mmdd hh:mm:ss.uuuuuu",
	// the scheduler host's local time; JSON logs: RFC 3339).
	Time string `json:"time"`
	// Version is the scheduler's version when the log says it.
	Version string `json:"version,omitempty"`
	// Layout names the releases whose dump layout was read, e.g. "v1.26-v1.36".
	Layout string `json:"layout"`
	// Encoding is "text" (klog) or "json".
	Encoding string `json:"encoding"`
}

// ComparisonSummary counts both sides.
type ComparisonSummary struct {
	// SchedulerNodes, SchedulerPods and SchedulerPending count the dump's
	// NodeInfos, the pods in them and the queue's pending pods.
	SchedulerNodes   int `json:"schedulerNodes"`
	SchedulerPods    int `json:"schedulerPods"`
	SchedulerPending int `json:"schedulerPending"`
	// Nodes and Pods count the NodeInfos (placeholders included) and pods of
	// the cache built from the API; Pending counts the API's pending pods
	// the scheduler is responsible for (by schedulerName).
	Nodes   int `json:"nodes"`
	Pods    int `json:"pods"`
	Pending int `json:"pending"`
	// Differences is the number of rows of the table: node presence,
	// resource and pod differences and queue differences.
	Differences int `json:"differences"`
}

// NodeComparison is one NodeInfo that differs.
type NodeComparison struct {
	Name string `json:"name"`
	// Scheduler is how the scheduler's cache holds the node: "node",
	// "deleted" (Deleted: true, no Node object: the node was deleted while
	// pods remained, or pods arrived first) or "absent".
	Scheduler string `json:"scheduler"`
	// API is how the API objects have it: "node", "placeholder" (pods bound
	// to a node that does not exist) or "absent".
	API string `json:"api"`
	// Requested and Allocatable are set when they differ. Allocatable is
	// not compared when either side has no Node object.
	Requested   *ResourcePair `json:"requested,omitempty"`
	Allocatable *ResourcePair `json:"allocatable,omitempty"`
	// MissingPods are on this node in the API but not in the scheduler's
	// NodeInfo; ExtraPods the reverse (assumed pods not yet bound, or pods
	// whose deletion the scheduler has not seen).
	MissingPods []ComparedPod `json:"missingPods,omitempty"`
	ExtraPods   []ComparedPod `json:"extraPods,omitempty"`
	// MissingNominated are pending pods nominated to this node in the API
	// (status.nominatedNodeName) that the scheduler's queue does not
	// nominate to it; ExtraNominated the reverse.
	MissingNominated []ComparedPod `json:"missingNominated,omitempty"`
	ExtraNominated   []ComparedPod `json:"extraNominated,omitempty"`
}

// ResourcePair holds both sides of a resource that differs. Scalar
// resources missing on one side count as 0.
type ResourcePair struct {
	Scheduler Resource `json:"scheduler"`
	API       Resource `json:"api"`
	// NonZeroRequested is the API side's non-zero requests (requested
	// only), for reference: the dump does not print the scheduler's.
	NonZeroRequested *NonZeroResource `json:"nonZeroRequested,omitempty"`
}

// ComparedPod is a pod one side has and the other has elsewhere or not at all.
type ComparedPod struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
	// Phase as the side that has the pod reports it.
	Phase string `json:"phase,omitempty"`
	// Elsewhere says where the other side has the pod: "node NAME",
	// "pending" (unbound in the API, or in the scheduler's queue), "other
	// scheduler NAME" (pending for a scheduler not given to
	// --scheduler-name), "terminating" or "absent".
	Elsewhere string `json:"elsewhere"`
}

// QueueComparison compares the scheduler's queue with the API's pending pods.
type QueueComparison struct {
	// SchedulerNames are the schedulerNames the scheduler is responsible for.
	SchedulerNames []string `json:"schedulerNames"`
	// Missing are pending pods of those schedulers in the API (not
	// terminating) that are neither in the queue nor in a NodeInfo.
	Missing []ComparedPod `json:"missing,omitempty"`
	// Extra are pods in the queue that are not pending in the API for those
	// schedulers.
	Extra []ComparedPod `json:"extra,omitempty"`
}

// ComparerResult is kube-scheduler's CacheComparer output: node names and pod
// UIDs, sorted. Missed are in the API (its listers) but not in the cache
// (nor, for pods, the queue); redundant the reverse.
type ComparerResult struct {
	MissedNodes    []string `json:"missedNodes"`
	RedundantNodes []string `json:"redundantNodes"`
	MissedPods     []string `json:"missedPods"`
	RedundantPods  []string `json:"redundantPods"`
}

// DeepCopyObject implements runtime.Object.
func (in *CacheComparison) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
