package schedlog

// Layout is the shape of the dump records, which changed across
// kube-scheduler releases (see the package documentation).
type Layout string

// The layouts, named by the releases that write them.
const (
	// LayoutV118 is v1.18: per-node records, resources printed as values.
	LayoutV118 Layout = "v1.18"
	// LayoutV119 is v1.19–v1.22: per-node records, resources as pointers.
	LayoutV119 Layout = "v1.19-v1.22"
	// LayoutV118To122 is a v1.18–v1.22 dump with no node, so no resource
	// line tells v1.18 from later releases.
	LayoutV118To122 Layout = "v1.18-v1.22"
	// LayoutV123 is v1.23: a structured header, per-node records.
	LayoutV123 Layout = "v1.23"
	// LayoutV124 is v1.24–v1.25: one record holding every node, a queue
	// record without summary.
	LayoutV124 Layout = "v1.24-v1.25"
	// LayoutV126 is v1.26–v1.36: as LayoutV124, with the queue summary.
	LayoutV126 Layout = "v1.26-v1.36"
)

// Encoding is how the scheduler's logger wrote the records.
type Encoding string

const (
	// Text is klog's default text format ("I1122 02:33:37.773684   14990 file.go:52] msg key=value").
	Text Encoding = "text"
	// JSON is --logging-format=json: one JSON object per line (v1.19+).
	JSON Encoding = "json"
)

// Dump is one answer of kube-scheduler to SIGUSR2, as read from its log.
type Dump struct {
	// Encoding and Layout identify the log format the dump was written in.
	Encoding Encoding
	Layout   Layout
	// Version is the scheduler's version from its "Starting Kubernetes
	// Scheduler" line when the log holds one (e.g. "v1.36.3"), else "".
	Version string
	// StartLine and EndLine are the 1-based lines of the input where the
	// node dump starts and the queue dump ends.
	StartLine, EndLine int
	// Time is the time of the node dump record as logged: klog's "MMDD
	// hh:mm:ss.uuuuuu" (local time of the scheduler's host, no year) in the
	// text format, RFC 3339 in UTC for JSON.
	Time string
	// Nodes are the NodeInfo blocks in log order (the scheduler iterates its
	// map, so the order is random).
	Nodes []Node
	// Queue is the scheduling-queue dump that follows the nodes.
	Queue Queue
	// Mismatch holds the "Cache mismatch" lines the scheduler's own comparer
	// logged just before this dump; nil when it logged none (it only logs
	// differences).
	Mismatch *Mismatch
	// Dumps is the number of complete dumps in the input; the newest is returned.
	Dumps int
	// Warnings are doubts about the dump that do not make it unusable.
	Warnings []string
}

// Node is one NodeInfo block of the dump.
type Node struct {
	Name string
	// Deleted is the dumper's "Node() == nil": the node object was deleted
	// while pods remained, or pods arrived before their node (a placeholder).
	Deleted     bool
	Requested   Resource
	Allocatable Resource
	// Pods are the pods the cache holds on the node, bound or assumed.
	Pods []Pod
	// NominatedPods are the queue's pods nominated to the node.
	NominatedPods []Pod
	// Line is the input line of "Node name: …".
	Line int
}

// Resource is the scheduler's framework.Resource as the dumper prints it
// (%+v). Units: MilliCPU in millicores; Memory and EphemeralStorage in
// bytes; AllowedPodNumber in pods; ScalarResources by name in
// Quantity.Value() units (hugepages in bytes).
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int64
	// ScalarResources is nil when the dump printed an empty map. Entries
	// with value 0 are kept as printed.
	ScalarResources map[string]int64
}

// Pod is one pod line: "name: …, namespace: …, uid: …, phase: …,
// nominated node: …".
type Pod struct {
	Name, Namespace, UID, Phase, NominatedNode string
}

// Queue is the scheduling-queue dump: the queue's PendingPods().
type Queue struct {
	// HasSummary is set when the record carries the v1.26+ summary.
	HasSummary bool
	// ActiveQ, BackoffQ and Unschedulable are the summary's counts.
	ActiveQ, BackoffQ, Unschedulable int
	// Pods are the pending pods in the order logged.
	Pods []Pod
}

// Mismatch is what the scheduler's CacheComparer logged: node names and pod
// UIDs its informers' listers and its cache (plus queue) disagree on.
// "Missed" is in the listers but not the cache, "redundant" the reverse.
type Mismatch struct {
	MissedNodes, RedundantNodes []string
	MissedPods, RedundantPods   []string
	// Line is the input line of the first mismatch record.
	Line int
}
