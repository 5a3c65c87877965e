package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// CacheWatchEvent is one document of "dump|requested|snapshot --watch -o
// json|yaml": the view once the watch has synced (type Initial), then after
// each batch of API events that changed the cache (type Changed).
type CacheWatchEvent struct {
	metav1.TypeMeta `json:",inline"`
	// Type is Initial or Changed.
	Type string `json:"type"`
	// Sequence numbers the documents: 0 for Initial, then 1, 2, …
	Sequence int `json:"sequence"`
	// Generation is the scheduler Snapshot's generation before and after
	// the batch (equal in Initial), kept up to date incrementally with
	// UpdateSnapshot as kube-scheduler does at each cycle.
	Generation Int64Change `json:"generation"`
	// Events is the number of node and pod events applied in the batch.
	Events int `json:"events"`
	// Changes are the NodeInfos the batch changed, sorted by name, and why.
	Changes []WatchNodeChange `json:"changes,omitempty"`
	// One of Dump, Requested and Snapshot holds the view: every node for
	// Initial (and with --watch-only=false), else only the changed ones.
	Dump      *CacheDump       `json:"dump,omitempty"`
	Requested *RequestedReport `json:"requested,omitempty"`
	Snapshot  *Snapshot        `json:"snapshot,omitempty"`
}

// WatchNodeChange is one NodeInfo a batch changed.
type WatchNodeChange struct {
	Node string `json:"node"`
	// Reasons are the events, in order, e.g. "pod default/web-1 added",
	// "pod default/web-1 bound", "node updated"; at most 8, then "… N more".
	Reasons []string `json:"reasons"`
	// Gone is set when the NodeInfo no longer exists (its node was removed
	// with no pods left, or its last pod left a placeholder).
	Gone bool `json:"gone,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *CacheWatchEvent) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
