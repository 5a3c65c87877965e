package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// CacheDump is the cache's Dump(): every NodeInfo, including placeholders
// and ghosts, with its pods.
type CacheDump struct {
	metav1.TypeMeta `json:",inline"`
	// Source says where the objects came from (cluster URL or files).
	Source  string      `json:"source"`
	Summary DumpSummary `json:"summary"`
	// Nodes sorted by name.
	Nodes []NodeDump `json:"nodes"`
}

// DumpSummary counts what the cache holds.
type DumpSummary struct {
	// Nodes is the number of NodeInfos (NodeCount), placeholders and ghosts included.
	Nodes int `json:"nodes"`
	// Placeholders: NodeInfos for pods whose node object does not exist.
	Placeholders int `json:"placeholders"`
	// Ghosts: NodeInfos of removed nodes that still hold pods.
	Ghosts int `json:"ghosts"`
	// Pods is PodCount: pods over all NodeInfos.
	Pods int `json:"pods"`
	// AssumedPods: pods assumed and not yet confirmed by an Add event.
	AssumedPods int `json:"assumedPods"`
	// PendingPods: unassigned pods seen in the input (not in the cache).
	PendingPods int `json:"pendingPods"`
}

// NodeDump is one NodeInfo.
type NodeDump struct {
	Name string `json:"name"`
	// Zone is the zone key shown as "region/zone" ("" when unlabelled).
	Zone string `json:"zone"`
	// Placeholder: pods arrived for a node that does not exist.
	Placeholder bool `json:"placeholder,omitempty"`
	// Ghost: the node was removed while pods remained.
	Ghost bool `json:"ghost,omitempty"`
	// Generation of the NodeInfo (ordering only).
	Generation       int64           `json:"generation"`
	Requested        Resource        `json:"requested"`
	NonZeroRequested NonZeroResource `json:"nonZeroRequested"`
	Allocatable      Resource        `json:"allocatable"`
	Pods             []PodDump       `json:"pods"`
	// NominatedPods are pending pods whose status.nominatedNodeName is this node, as "namespace/name".
	NominatedPods []string `json:"nominatedPods,omitempty"`
	// UsedPorts as "ip/protocol/port", sorted.
	UsedPorts []string `json:"usedPorts,omitempty"`
	// PVCRefCounts: pods per "namespace/claim".
	PVCRefCounts map[string]int `json:"pvcRefCounts,omitempty"`
	// PodsWithAffinity and PodsWithRequiredAntiAffinity as "namespace/name".
	PodsWithAffinity             []string     `json:"podsWithAffinity,omitempty"`
	PodsWithRequiredAntiAffinity []string     `json:"podsWithRequiredAntiAffinity,omitempty"`
	ImageStates                  []ImageState `json:"imageStates,omitempty"`
	// Overflow lists, sorted, the resources whose numbers on this node went
	// beyond int64 (its allocatable, a pod's requests or their sum):
	// kube-scheduler's arithmetic wraps them, and so do the numbers here.
	Overflow []string `json:"overflow,omitempty"`
}

// PodDump is one pod in a NodeInfo, with what the scheduler accounts for it.
type PodDump struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
	// State is Added or Assumed.
	State string `json:"state"`
	Phase string `json:"phase,omitempty"`
	// Terminating: the pod has a deletionTimestamp (still counted).
	Terminating       bool            `json:"terminating,omitempty"`
	NominatedNodeName string          `json:"nominatedNodeName,omitempty"`
	Requested         Resource        `json:"requested"`
	NonZeroRequested  NonZeroResource `json:"nonZeroRequested"`
	// HostPorts as "ip/protocol/port".
	HostPorts []string `json:"hostPorts,omitempty"`
	// PVCs as "namespace/claim".
	PVCs []string `json:"pvcs,omitempty"`
}

// ImageState is a node's view of one image name.
type ImageState struct {
	Name string `json:"name"`
	// Size in bytes, from the first node that reported the image.
	Size int64 `json:"size"`
	// NumNodes is the number of nodes reporting the image.
	NumNodes int `json:"numNodes"`
}
