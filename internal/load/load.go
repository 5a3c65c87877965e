// Package load gets the objects kube-scheduler's informers would deliver,
// either by listing a live cluster (List) or by reading manifests and
// `kubectl get -o yaml|json` output (ReadFiles).
//
// Both return a *Cluster: every Node, and every Pod that is not terminal
// (phase Succeeded or Failed), assigned to a node or not, in list order, with
// metadata.managedFields dropped as the scheduler's informer transform does
// since v1.29; on request, the objects of SchedulingKinds too (and other
// kinds: drain's DaemonSets), and the pods' emptyDir volumes. Pods read
// from files are also defaulted the way the API server would have stored
// them (see DefaultPod), because the scheduler only ever sees stored
// objects. Both share the per-object handling (collect.go).
//
// Files, directories, globs, URLs and stdin go through one reader in three
// parts, each behind one seam:
//
//   - read (package internal/load/read): splits the bytes of a source into
//     documents and List items, without recursion and within Limits. Its
//     seam is read.Cut, which hands over each read.Piece: the text, where
//     it was found (document, List item, line or offset) and where the
//     apiVersion and kind keys were seen. ReadFile gives other readers of
//     user input (simulate's --script) the same bounds (read.Whole).
//   - decode (decode.go, defaults.go): the plain path turning a piece into
//     its typed object, on every core, with the defaults the API server
//     would have applied. Its seam is reader.decodeBatch, which fills each
//     piece's object and kind (or error) of one batch, one decodeBatch per
//     core at a time; a decodeFunc does the decoding.
//   - compact (compact.go): the memory layer described below.
//
// sources.go and open.go find and open the sources (regular files only);
// reader.go runs the three parts as a pipeline, and a collector adds the
// objects in input order as an informer would see them (collect.go).
//
// Both are built for clusters of the published limits (5,000 nodes, 150,000
// pods): objects are handled as they arrive (List's pages, the items of a
// List), never held twice, slimmed of what no accounting reads (slim.go)
// and share equal values (share.go). Like an informer's, they must be
// treated as read-only; DeepCopy one to change it. That memory layer (the
// slimming, the sharing and the pod decoder of poddecode.go) sits behind
// one seam, compact.go, and FileOptions.Plain turns it off for files.
//
// Failures are returned as *Error, whose Kind (Forbidden, Unauthorized,
// Unreachable, InvalidInput, Other) lets callers choose exit codes; every
// message is one line without control characters (EscapeLine).
package load

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Cluster is what the scheduler's informers would deliver: every Node, and
// every non-terminal Pod (assigned or not), in list order, managedFields
// dropped, pods slimmed (see slimPod).
type Cluster struct {
	// Nodes are all Node objects, in list (or file) order.
	Nodes []*corev1.Node
	// Pods are the Pods whose phase is neither Succeeded nor Failed, in list
	// (or file) order. Unassigned pods (empty spec.nodeName) are included;
	// the scheduler's queue, not its cache, holds those.
	Pods []*corev1.Pod
	// Objects are the other objects kube-scheduler's plugins read (volumes,
	// storage and CSI objects, namespaces, the workloads PodTopologySpread's
	// default constraints come from, PodDisruptionBudgets, DRA objects): one
	// typed object (e.g. *corev1.PersistentVolumeClaim, *appsv1.ReplicaSet)
	// per item, of the kinds listed in SchedulingKinds, in list (or file)
	// order. Nil when the input had none or when they were not asked for.
	Objects []runtime.Object
	// Unlisted are the kinds ListOptions.Kinds asked for that could not be
	// listed (forbidden, or not served): decisions that read them are
	// approximate. Always nil for files.
	Unlisted []SchedulingKind
	// Source describes where the objects came from, e.g.
	// "cluster https://127.0.0.1:6443" or "file examples/cluster.yaml".
	Source string
}

// terminal reports whether the scheduler's informer leaves pod out: its field
// selector is status.phase!=Succeeded,status.phase!=Failed.
func terminal(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
}
