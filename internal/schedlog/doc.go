// Package schedlog reads what kube-scheduler logs when it receives SIGUSR2:
// the dump of its cache ("Dump of cached NodeInfo": one block per NodeInfo
// with the node's name, whether its Node object is gone, Requested and
// Allocatable, the pods it holds and the queue's pods nominated to it), the
// dump of its scheduling queue that follows, and the "Cache mismatch" lines
// its own comparer logs just before both.
//
// The debugger lives in pkg/scheduler/internal/cache/debugger (v1.18–v1.31)
// and pkg/scheduler/backend/cache/debugger (v1.32+) of k8s.io/kubernetes. Its
// dumper.go writes the same node and pod lines in every release from v1.18 to
// v1.36, but the records around them changed, and so did klog's rendering of
// them. Parse recognises every layout (see Layout):
//
//   - v1.18: klog.Info("Dump of cached NodeInfo"), then one klog.Info record
//     per node whose message starts with a line break, so each node block
//     follows a klog header line with an empty message; resources are printed
//     as a value, "{MilliCPU:…}". The queue: Infof("Dump of scheduling
//     queue:\n%s"), its pod lines raw after the header.
//   - v1.19–v1.22: the same records; resources are pointers, "&{MilliCPU:…}".
//   - v1.23: the header became structured, klog.InfoS("Dump of cached
//     NodeInfo"), so its message is quoted; node and queue records unchanged.
//   - v1.24–v1.25: one structured record, InfoS("Dump of cached NodeInfo",
//     "nodes", blocks joined by a blank line), and InfoS("Dump of scheduling
//     queue", "pods", …). klog (v2.60+) prints a string value that holds line
//     breaks as `key=<`, each line prefixed by a tab, then a line " >"; a value
//     without line breaks (an empty cache or queue) is quoted: `nodes=""`.
//   - v1.26–v1.36: the queue record gained "summary" before "pods":
//     "activeQ:N; backoffQ:N; unschedulablePods:N".
//
// With --logging-format=json (v1.19+) every record is one JSON object per line
// whose "msg" is the message and whose other keys are the values; the
// unstructured records of v1.19–v1.23 carry their whole text in "msg".
//
// Parse returns the newest complete dump of a log. It is strict: a dump cut
// short, a line of another record in the middle of a dump, a pod count that
// does not match its pod lines, or an unknown line is an error naming the line,
// never a partial dump. A log without any dump gives a *NoDumpError whose
// message says how to make the scheduler write one.
//
// ParseNodeTree reads another part of the same logs: the NodeTree's
// "Added node …"/"Removed node …" records (-v=2), replayed from the
// scheduler's last start into the order it scans the nodes in.
//
// Write renders a Dump in any layout; tests and benchmarks use it to produce
// logs of a given size from our own model.
package schedlog
