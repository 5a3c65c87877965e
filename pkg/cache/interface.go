package cache

import (
	"time"

	v1 "k8s.io/api/core/v1"
)

// Cache is kubectl-schedcache's model of kube-scheduler's cache. It is safe
// for concurrent use (one RWMutex, as upstream).
//
// Pod states and the methods that move a pod between them:
//
//	           Assume              Add                  Update
//	Initial ───────────► Assumed ─────────► Added ◄───────────┐
//	 │  ▲                  │  │               │  └────────────┘
//	 │  └──────────────────┘  │ Cleanup       │ Remove
//	 │        Forget          │ (TTL > 0,     ▼
//	 │                        │  binding    Deleted
//	 │                        ▼  finished,
//	 │                     Expired  deadline passed)
//	 │                        │
//	 └──── Add ─────► Added ◄─┘ Add (an expired pod is re-added as a fresh pod)
//
// Remove also deletes Assumed pods (v1.20+).
//
// Assumptions, as upstream documents them: a pod is never assumed twice; a
// pod may be added without being assumed (bound by someone else, or every
// pod when a scheduler starts); a pod that was never added is never updated
// or removed. Expired exists while expiry exists (v1.18–v1.35; kube-scheduler
// used a TTL > 0 up to v1.24, and a TTL of 0 expires a pod at the first
// cleanup up to v1.24 too).
//
// Every pod method keys the pod by UID and fails for an empty UID. Errors
// name the pod as "<uid>(<namespace>/<name>)" (v1.26+; by UID only before)
// and the nodes involved. Whatever differs between kube-scheduler versions
// follows the cache's Profile (see Behavior); the method notes give v1.36's
// behaviour and the version each rule dates from.
type Cache interface {
	// AssumePod adds a pod scheduled by "us" to its spec.nodeName before the
	// bind completes (Initial → Assumed). Errors if the pod is already cached.
	AssumePod(pod *v1.Pod) error
	// FinishBinding marks an assumed pod's binding as done and starts its TTL
	// (deadline = now + TTL; none when TTL is 0). No state change; no-op for
	// pods that are not assumed (v1.18–v1.35; removed in v1.36).
	FinishBinding(pod *v1.Pod) error
	// ForgetPod drops an assumed pod whose bind failed (Assumed → Initial).
	// Unknown pods are ignored (v1.35+; an error before); errors if the pod
	// is Added or was assumed on another node.
	ForgetPod(pod *v1.Pod) error
	// AddPod confirms an assumed pod (Assumed → Added, moved if it landed on
	// another node, re-accounted from the new object from v1.26), or adds a
	// pod bound by anyone (Initial → Added). Errors if the pod is already
	// Added.
	AddPod(pod *v1.Pod) error
	// UpdatePod replaces an Added pod's object (Added → Added). Errors if the
	// pod is unknown or assumed, or if the node changed (where kube-scheduler
	// exits the process).
	UpdatePod(oldPod, newPod *v1.Pod) error
	// RemovePod deletes an Added or (v1.20+) Assumed pod (→ Deleted). Errors
	// if the pod is unknown, or if it names a different node (non-empty from
	// v1.20), where kube-scheduler exits the process.
	RemovePod(pod *v1.Pod) error
	// GetPod returns the cached pod object.
	GetPod(pod *v1.Pod) (*v1.Pod, error)
	// IsAssumedPod reports whether the pod is assumed (false for unknown pods).
	IsAssumedPod(pod *v1.Pod) (bool, error)
	// Cleanup expires every assumed pod whose binding finished and whose
	// deadline is before now (Assumed → Expired), freeing its node's
	// resources and deleting placeholder nodes left empty. It returns the
	// expired pods. A no-op with TTL 0 from v1.25.
	Cleanup(now time.Time) []*v1.Pod

	// AddNode adds or replaces a node object and returns a clone of its
	// NodeInfo. Pods already on a placeholder are kept.
	AddNode(node *v1.Node) *NodeInfo
	// UpdateNode replaces a node object (creating the NodeInfo if missing),
	// moving it in the NodeTree if its zone changed, and returns a clone.
	UpdateNode(oldNode, newNode *v1.Node) *NodeInfo
	// RemoveNode removes a node object; a NodeInfo that still has pods stays
	// as a ghost. Errors if the node is unknown or not in its zone of the tree.
	RemoveNode(node *v1.Node) error

	// UpdateSnapshot brings snapshot up to date incrementally: only NodeInfos
	// changed since the snapshot's generation are cloned. It returns an error
	// if the snapshot's node list disagrees with the NodeTree.
	UpdateSnapshot(snapshot *Snapshot) error
	// Dump returns clones of every NodeInfo (placeholders and ghosts
	// included) and the assumed pod keys.
	Dump() *Dump
	// Inspect calls fn with what Dump would return, without copying: the
	// NodeInfos are the cache's own, read under the cache's read lock for
	// as long as fn runs. fn must neither change nor retain anything
	// reachable from d, nor call the cache (a writer waiting for the lock
	// would deadlock a second read lock); an image's node count is read with
	// ImageStateSummary.NodeCount, as a clone would record it. It spares
	// views that only read the cache Dump's copy of every NodeInfo
	// (docs/PERFORMANCE.md#file-mode, "The reader, fourth session"). Upstream has no such
	// method: its dumper clones, as our Dump does.
	Inspect(fn func(d *Dump))
	// GetNodeInfo returns a clone of the NodeInfo named name (a placeholder
	// or ghost included) and whether the cache holds one. It costs a map
	// lookup and a clone of that one NodeInfo, whatever the cluster's size,
	// where Dump clones them all. Upstream has no such method (its callers
	// read a Snapshot); it serves those that follow one node per event.
	GetNodeInfo(name string) (*NodeInfo, bool)
	// GetNodeSummary returns the totals of the NodeInfo named name and
	// whether the cache holds one, without cloning its pods: a lookup
	// whatever the node holds, for those that follow one node per event
	// (a simulation adding 30,000 pods to one node would otherwise clone
	// ever longer pod lists).
	GetNodeSummary(name string) (NodeSummary, bool)
	// NodeTreeList returns the NodeTree's current List() order and zones.
	NodeTreeList() ([]string, error)
	// OrderNodeTree rebuilds the NodeTree as if the nodes had been added in
	// the order of names (a NodeTree's List() order, or any order with the
	// same zones first seen and the same names within each zone): the nodes
	// names holds first, then the others, each appended to its zone in its
	// present tree order. Names the tree lacks are ignored. The next
	// UpdateSnapshot rebuilds its node list in the new order. Upstream has
	// no such method: it stands for a running scheduler that received the
	// nodes in another order than the input lists them.
	OrderNodeTree(names []string)

	// NodeCount is the number of NodeInfos, placeholders and ghosts included
	// (not the NodeTree size). Upstream marks it test-only.
	NodeCount() int
	// PodCount is the number of pods over all NodeInfos. Upstream marks it test-only.
	PodCount() (int, error)

	// Profile is the kube-scheduler version and gates the cache models.
	Profile() Profile
}

// NodeSummary is what a NodeInfo adds up to; the Resources carry no
// ScalarResources.
type NodeSummary struct {
	Requested, Allocatable Resource
	// Pods is the number of pods on the NodeInfo.
	Pods               int
	Placeholder, Ghost bool
}

// Dump is a point-in-time copy of the cache (upstream cache.Dump).
type Dump struct {
	// AssumedPods holds the keys (UIDs) of assumed pods.
	AssumedPods map[string]bool
	// Nodes maps node name to a clone of its NodeInfo.
	Nodes map[string]*NodeInfo
}
