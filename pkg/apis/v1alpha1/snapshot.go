package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Snapshot is the scheduler's per-cycle Snapshot.
type Snapshot struct {
	metav1.TypeMeta `json:",inline"`
	Source          string `json:"source"`
	// Generation is the highest NodeInfo generation the snapshot reflects.
	Generation int64 `json:"generation"`
	// Nodes in the order the scheduler scans them (NodeTree.List order).
	Nodes []SnapshotNode `json:"nodes"`
	// HavePodsWithAffinity: nodes having pods with pod (anti-)affinity, in order.
	HavePodsWithAffinity []string `json:"havePodsWithAffinity"`
	// HavePodsWithRequiredAntiAffinity: nodes having pods with required anti-affinity.
	HavePodsWithRequiredAntiAffinity []string `json:"havePodsWithRequiredAntiAffinity"`
	// UsedPVCSet: "namespace/claim" used by pods on snapshot nodes, sorted;
	// null for kube-scheduler before v1.25, whose snapshot has no such set.
	UsedPVCSet []string `json:"usedPVCSet"`
}

// SnapshotNode is one entry of the snapshot's node list.
type SnapshotNode struct {
	Name       string `json:"name"`
	Zone       string `json:"zone"`
	Generation int64  `json:"generation"`
	Pods       int    `json:"pods"`
}
