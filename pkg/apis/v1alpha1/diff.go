package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// CacheDiff is the difference between two CacheDumps or two Snapshots:
// saved outputs, or a saved one and the cluster now.
type CacheDiff struct {
	metav1.TypeMeta `json:",inline"`
	// Compared is the kind of both sides: CacheDump or Snapshot.
	Compared string `json:"compared"`
	// From and To describe the two sides (a file, or the cluster), each with
	// the source recorded in it.
	From string `json:"from"`
	To   string `json:"to"`
	// Identical is true when nothing but generations changed.
	Identical bool `json:"identical"`
	// Differences counts the changes listed (generations excluded).
	Differences int `json:"differences"`
	// Generation is the Snapshot's generation on both sides (Snapshots only).
	Generation *Int64Change `json:"generation,omitempty"`
	// AddedNodes and RemovedNodes are node names, sorted.
	AddedNodes   []string `json:"addedNodes"`
	RemovedNodes []string `json:"removedNodes"`
	// Nodes are the nodes on both sides that changed, sorted by name.
	Nodes []NodeDiff `json:"nodes"`
	// Lists are the changes of the Snapshot's node and PVC lists.
	Lists []ListChange `json:"lists,omitempty"`
}

// Int64Change is a number on both sides.
type Int64Change struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// NodeDiff is one node whose NodeInfo (or snapshot entry) changed.
type NodeDiff struct {
	Name string `json:"name"`
	// Changes are the changed fields: requested.milliCPU, allocatable.memory,
	// nonZeroRequested.milliCPU, zone, placeholder, pods (the count),
	// position (in the snapshot's scan order, 1-based), …; values as printed
	// in the kind, integers in their units.
	Changes []FieldChange `json:"changes,omitempty"`
	// AddedPods and RemovedPods are pods (by UID) of the NodeInfo, CacheDumps only.
	AddedPods   []PodRef `json:"addedPods,omitempty"`
	RemovedPods []PodRef `json:"removedPods,omitempty"`
	// ChangedPods are pods on both sides whose accounting or state changed.
	ChangedPods []PodChange `json:"changedPods,omitempty"`
	// Generation is the NodeInfo's generation on both sides when it changed.
	// A cache built afresh numbers generations in input order, so between
	// two separate runs it changes whenever a node before it did; it is
	// reported but not counted as a difference.
	Generation *Int64Change `json:"generation,omitempty"`
}

// FieldChange is one field on both sides.
type FieldChange struct {
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// PodChange is a pod whose fields changed.
type PodChange struct {
	PodRef  `json:",inline"`
	Changes []FieldChange `json:"changes"`
}

// ListChange is what entered and left one of the Snapshot's lists:
// havePodsWithAffinity, havePodsWithRequiredAntiAffinity, usedPVCSet.
type ListChange struct {
	List    string   `json:"list"`
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *CacheDiff) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
