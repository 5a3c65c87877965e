package cache

import "time"

// RequestModel is the algorithm a kube-scheduler version uses for the
// requests one pod adds to its NodeInfo.
type RequestModel int

// The request algorithms, oldest first.
const (
	// RequestsPerContainer (v1.18–v1.26, calculateResource in
	// framework/types.go): sum of the containers' requests, raised to each
	// init container's, plus overhead; NonZero likewise per container.
	RequestsPerContainer RequestModel = iota
	// RequestsPodRequestsV127 (v1.27–v1.31): pkg/api/v1/resource.PodRequests
	// of that version, with a ContainerFn that collects NonZero; in-place
	// resize reads containerStatuses[].allocatedResources.
	RequestsPodRequestsV127
	// RequestsHelpersV132 (v1.32): k8s.io/component-helpers v0.32
	// resource.PodRequests, called twice for NonZero; in-place resize reads
	// containerStatuses[].resources; pod-level cpu and memory.
	RequestsHelpersV132
	// RequestsHelpers (v1.33+): k8s.io/component-helpers resource.PodRequests
	// of this module (see ComputePodResource).
	RequestsHelpers
)

// Behavior is how kube-scheduler's cache behaves at one version: every
// behaviour that changed between v1.18 and v1.36 has exactly one field
// here, set by the Change that introduced it (see Changes). The cache, the
// simulator and the views read these fields; nothing else switches on the
// version. Build one with BehaviorFor.
type Behavior struct {
	// Version is the kube-scheduler version modelled.
	Version Version

	// Expiry: FinishBinding, the assumed-pod TTL and the cleanup loop exist
	// (v1.18–v1.35; v1.36 removed them).
	Expiry bool
	// DefaultTTL is the TTL kube-scheduler passes to its cache.
	DefaultTTL time.Duration
	// ZeroTTLNeverExpires: a TTL of 0 means never expire (v1.25+). Before,
	// FinishBinding sets the deadline to "now + 0", so the pod expires at
	// the first cleanup after its binding finished.
	ZeroTTLNeverExpires bool
	// CleanupPeriod is how often the cleanup loop runs (cleanAssumedPeriod).
	CleanupPeriod time.Duration

	// EmptyUIDError is the error for a pod without UID.
	EmptyUIDError string
	// NamespacedErrors: pod errors name the pod "<uid>(<ns>/<name>)"
	// (v1.26+); before, by UID only.
	NamespacedErrors bool
	// RemoveAssumed: RemovePod removes an assumed pod (v1.20+); before, it
	// fails with "is not found in scheduler cache" and the pod stays
	// assumed until it expires.
	RemoveAssumed bool
	// RemoveEmptyNodeName: RemovePod accepts a pod object without
	// spec.nodeName (a stale tombstone, v1.20+); before, any node mismatch
	// made kube-scheduler exit.
	RemoveEmptyNodeName bool
	// AddAssumedReplaces: AddPod of an assumed pod always re-adds it from
	// the new object (v1.26+); before, on the same node only its state
	// changed and the NodeInfo kept the assumed object.
	AddAssumedReplaces bool
	// UpdateAssumedError: UpdatePod of an assumed pod fails with "assumed
	// pod … should not be updated" (v1.27+); before, with "is not added to
	// scheduler cache, so cannot be updated".
	UpdateAssumedError bool
	// ForgetUnknownIsNil: ForgetPod of a pod the cache does not hold
	// returns nil (v1.35+); before, "wasn't assumed so cannot be forgotten".
	ForgetUnknownIsNil bool

	// Requests is the per-pod request algorithm.
	Requests RequestModel
	// Sidecars: restartable init containers count as sidecars (v1.28+);
	// before, as plain init containers.
	Sidecars bool
	// CachedPodResource: a PodInfo keeps the resources computed when it was
	// added, and removal subtracts them (v1.33+); before, removal recomputed
	// resources, host ports and PVCs from the pod object it was given.
	CachedPodResource bool
	// SidecarHostPorts: sidecars' host ports are used too (v1.33+).
	SidecarHostPorts bool
	// PVCRefCounts: NodeInfo counts pods per PVC (v1.22+).
	PVCRefCounts bool

	// UsedPVCSet: the Snapshot holds the set of used PVCs (v1.25+).
	UsedPVCSet bool
	// LiveImageNumNodes: an image's NumNodes is counted when a NodeInfo is
	// cloned (v1.29+); before, it was fixed when that node was added or
	// updated.
	LiveImageNumNodes bool
	// NodeOrderByNext: snapshots list nodes by resetting the NodeTree and
	// calling its stateful Next() once per node (v1.18–v1.19); later
	// versions use the stateless List(). Both give the same order.
	NodeOrderByNext bool
}

// BehaviorFor returns the behaviour of kube-scheduler v: the v1.18
// behaviour with every Change up to v applied.
func BehaviorFor(v Version) *Behavior {
	b := &Behavior{Version: v}
	for i := range changes {
		if c := &changes[i]; c.apply != nil && c.appliesTo(v) {
			c.apply(b)
		}
	}
	return b
}

// Change is one behaviour of the cache as it changed (or, when Before is
// empty, as it has been since v1.18), with the upstream source that shows
// it. Changes are what BehaviorFor applies and what docs/versions.md lists.
type Change struct {
	// Since is the first version with the behaviour After.
	Since Version
	// Area groups changes in the docs.
	Area string
	// Before and After describe the behaviour; Before is empty for the
	// v1.18 baseline and for behaviours unchanged since.
	Before, After string
	// Upstream names the file (at the version Since) and, where known, the
	// pull request that shows it.
	Upstream string
	// NotModelled, when set, says why the change does not change anything
	// kubectl-schedcache computes.
	NotModelled string
	apply       func(*Behavior)
}

// Changes returns every Change, oldest first.
func Changes() []Change { return append([]Change(nil), changes...) }

// release is v1.minor; patchRelease is v1.minor.patch, a change made in a
// patch release of one minor line only.
func release(minor int) Version { return Version{Minor: minor} }
func patchRelease(minor, patch int) Version {
	return Version{Minor: minor, Patch: patch, PatchGiven: true}
}

// appliesTo reports whether the change is in force at v. A change made in a
// patch release (the TTL cherry-picks) holds for the later patches of its
// own minor line only; the next minor line starts from its own x.0.
func (c *Change) appliesTo(v Version) bool {
	if c.Since.PatchGiven {
		return v.Minor == c.Since.Minor && v.Patch >= c.Since.Patch
	}
	return v.Minor >= c.Since.Minor
}

// Areas, in the order docs/versions.md shows them.
const (
	AreaExpiry      = "Assumed-pod expiry"
	AreaTransitions = "Transitions and errors"
	AreaPods        = "Which pods enter the cache"
	AreaAccounting  = "NodeInfo accounting"
	AreaSnapshot    = "Snapshot, images and NodeTree"
)

// changes is the one table of version switches. Upstream paths are
// relative to the k8s.io/kubernetes module at the version given.
var changes = []Change{
	// Assumed-pod expiry.
	{Since: release(18), Area: AreaExpiry,
		After:    "FinishBinding sets deadline = now + TTL; a cleanup every 1s expires assumed pods whose binding finished and whose deadline has passed; TTL 30s; TTL 0 makes the deadline the finish time, so the pod expires at the first cleanup after its binding finished",
		Upstream: "v1.18.20 pkg/scheduler/scheduler.go (internalcache.New(30*time.Second, …)), pkg/scheduler/internal/cache/cache.go (cleanAssumedPeriod, finishBinding, cleanupAssumedPods)",
		apply: func(b *Behavior) {
			b.Expiry, b.DefaultTTL, b.CleanupPeriod = true, 30*time.Second, time.Second
		}},
	{Since: patchRelease(20, 14), Area: AreaExpiry, Before: "TTL 30s", After: "TTL 2m (durationToExpireAssumedPod)",
		Upstream: "v1.20.15 pkg/scheduler/scheduler.go; #106686, listed under v1.20.14 in CHANGELOG-1.20.md (v1.20.13 still passes 30s)",
		apply:    func(b *Behavior) { b.DefaultTTL = 2 * time.Minute }},
	{Since: patchRelease(21, 8), Area: AreaExpiry, Before: "TTL 30s", After: "TTL 2m",
		Upstream: "v1.21.8 pkg/scheduler/scheduler.go (v1.21.7 still passes 30s); #106632",
		apply:    func(b *Behavior) { b.DefaultTTL = 2 * time.Minute }},
	{Since: patchRelease(22, 5), Area: AreaExpiry, Before: "TTL 30s", After: "TTL 2m",
		Upstream: "v1.22.5 pkg/scheduler/scheduler.go (v1.22.4 still passes 30s); #106633",
		apply:    func(b *Behavior) { b.DefaultTTL = 2 * time.Minute }},
	{Since: release(23), Area: AreaExpiry, Before: "TTL 2m (30s in early patches)", After: "TTL 15m",
		Upstream: "v1.23.17 pkg/scheduler/scheduler.go (durationToExpireAssumedPod = 15 * time.Minute); #106412",
		apply:    func(b *Behavior) { b.DefaultTTL = 15 * time.Minute }},
	{Since: release(25), Area: AreaExpiry, Before: "TTL 15m; TTL 0 expires at the first cleanup after binding", After: "TTL 0, and TTL 0 means never expire (no deadline)",
		Upstream: "v1.25.16 pkg/scheduler/scheduler.go (durationToExpireAssumedPod = 0, #110925), pkg/scheduler/internal/cache/cache.go (finishBinding, cleanupAssumedPods: ttl != 0, #110954)",
		apply:    func(b *Behavior) { b.DefaultTTL, b.ZeroTTLNeverExpires = 0, true }},
	{Since: release(36), Area: AreaExpiry, Before: "FinishBinding, TTL and cleanup loop (TTL 0)", After: "no FinishBinding, no TTL, no cleanup loop: an assumed pod leaves only by its Add event, ForgetPod or RemovePod",
		Upstream: "v1.36.3 pkg/scheduler/backend/cache/cache.go (#136204; the 1s loop only refreshes metrics)",
		apply:    func(b *Behavior) { b.Expiry = false }},

	// Transitions and their errors.
	{Since: release(18), Area: AreaTransitions,
		After:    "pods are keyed by UID (an empty UID fails); AssumePod fails for a cached pod; ForgetPod needs an assumed pod on the same node; AddPod of an Added pod fails; UpdatePod and RemovePod need a cached pod; where a pod changed node kube-scheduler exits (the model returns an error)",
		Upstream: "v1.18.20 pkg/scheduler/internal/cache/cache.go, pkg/scheduler/nodeinfo/node_info.go (GetPodKey: \"Cannot get cache key for pod with empty UID\")",
		apply:    func(b *Behavior) { b.EmptyUIDError = "Cannot get cache key for pod with empty UID" }},
	{Since: release(20), Area: AreaTransitions, Before: "RemovePod of an assumed pod fails (\"is not found in scheduler cache, so cannot be removed from it\") and the pod stays assumed until it expires; any node mismatch exits",
		After:    "RemovePod removes assumed pods too; a pod object without spec.nodeName (a stale tombstone) is accepted",
		Upstream: "v1.20.15 pkg/scheduler/internal/cache/cache.go (RemovePod)",
		apply:    func(b *Behavior) { b.RemoveAssumed, b.RemoveEmptyNodeName = true, true }},
	{Since: release(22), Area: AreaTransitions, Before: "\"Cannot get cache key for pod with empty UID\"", After: "\"cannot get cache key for pod with empty UID\"",
		Upstream: "v1.22.17 pkg/scheduler/framework/types.go (GetPodKey)",
		apply:    func(b *Behavior) { b.EmptyUIDError = "cannot get cache key for pod with empty UID" }},
	{Since: release(24), Area: AreaTransitions, Before: "a fatal log (Fatalf) where the cache is corrupted", After: "an error log and exit status 1 (FlushAndExit from v1.26); the node-not-found path of removePod also drops the pod's state itself",
		Upstream:    "v1.24.17 pkg/scheduler/internal/cache/cache.go",
		NotModelled: "same outcome: the model returns an error where kube-scheduler exits, and the pod's state goes either way"},
	{Since: release(26), Area: AreaTransitions, Before: "AddPod of an assumed pod on the same node only marks it Added: the NodeInfo keeps the assumed object and its accounting (a different node moves it)",
		After:    "AddPod of an assumed pod always removes it and adds the new object, refreshing its accounting and status",
		Upstream: "v1.26.15 pkg/scheduler/internal/cache/cache.go (AddPod, #110279)",
		apply:    func(b *Behavior) { b.AddAssumedReplaces = true }},
	{Since: release(26), Area: AreaTransitions, Before: "errors name a pod by UID only: \"pod <uid> is in the cache, so can't be assumed\"",
		After:    "errors name a pod as \"<uid>(<namespace>/<name>)\"",
		Upstream: "v1.26.15 pkg/scheduler/internal/cache/cache.go (KObj in every error)",
		apply:    func(b *Behavior) { b.NamespacedErrors = true }},
	{Since: release(27), Area: AreaTransitions, Before: "UpdatePod of an assumed pod: \"pod … is not added to scheduler cache, so cannot be updated\"",
		After:    "\"assumed pod … should not be updated\"",
		Upstream: "v1.27.16 pkg/scheduler/internal/cache/cache.go (UpdatePod)",
		apply:    func(b *Behavior) { b.UpdateAssumedError = true }},
	{Since: release(35), Area: AreaTransitions, Before: "ForgetPod of a pod the cache does not hold: \"pod … wasn't assumed so cannot be forgotten\"",
		After:    "ForgetPod of a pod the cache does not hold returns nil",
		Upstream: "v1.35.4 pkg/scheduler/backend/cache/cache.go (ForgetPod)",
		apply:    func(b *Behavior) { b.ForgetUnknownIsNil = true }},

	// Which pods enter the cache.
	{Since: release(18), Area: AreaPods,
		After:    "every non-terminal pod (field selector status.phase!=Succeeded,status.phase!=Failed) with spec.nodeName set, of any schedulerName, terminating pods included; every Node",
		Upstream: "v1.18.20 pkg/scheduler/factory.go (NewPodInformer); v1.36.3 pkg/scheduler/scheduler.go (newPodInformer)"},
	{Since: release(29), Area: AreaPods, Before: "pods keep metadata.managedFields", After: "the pod informer drops metadata.managedFields",
		Upstream:    "v1.29.6 pkg/scheduler/scheduler.go (informer transform)",
		NotModelled: "nothing accounted reads managedFields"},
	{Since: release(35), Area: AreaPods, Before: "an assumed pod that is deleted stays until its Delete event or expiry", After: "an assumed pod that is deleted or gets a deletionTimestamp is forgotten at once",
		Upstream:    "v1.35.4 pkg/scheduler/eventhandlers.go (handleAssumedPodDeletion)",
		NotModelled: "an event-handler rule, not the cache's: simulate scripts call ForgetPod explicitly"},

	// NodeInfo accounting.
	{Since: release(18), Area: AreaAccounting,
		After:    "requests: sum of containers, raised to each init container's, plus spec.overhead (gate PodOverhead); ephemeral-storage only with gate LocalStorageCapacityIsolation; NonZero: 100m cpu / 200Mi memory for each container missing one (an explicit 0 is kept), summed, raised to each init container's, plus overhead cpu/memory; host ports of containers (a set); affinity lists",
		Upstream: "v1.18.20 pkg/scheduler/nodeinfo/node_info.go (calculateResource, Resource.Add, SetMaxResource), pkg/scheduler/util/non_zero.go",
		apply:    func(b *Behavior) { b.Requests = RequestsPerContainer }},
	{Since: release(22), Area: AreaAccounting, Before: "no PVC counts", After: "NodeInfo.PVCRefCounts counts pods per \"namespace/claim\" of persistentVolumeClaim volumes",
		Upstream: "v1.22.17 pkg/scheduler/framework/types.go (updatePVCRefCounts)",
		apply:    func(b *Behavior) { b.PVCRefCounts = true }},
	{Since: release(24), Area: AreaAccounting, Before: "overhead added only with gate PodOverhead", After: "overhead always added (PodOverhead GA)",
		Upstream: "v1.24.17 pkg/scheduler/framework/types.go (calculateResource)"},
	{Since: release(25), Area: AreaAccounting, Before: "ephemeral-storage counted only with gate LocalStorageCapacityIsolation", After: "always counted",
		Upstream: "v1.25.16 pkg/scheduler/framework/types.go (Resource.Add)"},
	{Since: release(27), Area: AreaAccounting, Before: "per-container calculateResource", After: "pkg/api/v1/resource.PodRequests; with gate InPlacePodVerticalScaling a container counts max(spec, status allocatedResources), or allocatedResources when status.resize is Infeasible",
		Upstream: "v1.27.16 pkg/scheduler/framework/types.go (calculateResource), pkg/api/v1/resource/helpers.go",
		apply:    func(b *Behavior) { b.Requests = RequestsPodRequestsV127 }},
	{Since: release(28), Area: AreaAccounting, Before: "restartable init containers count as init containers", After: "sidecars (restartable init containers) add to the pod sum and to every later init container; NonZero defaults apply to each cumulative init-phase list, and sidecars are left out of the container sum",
		Upstream: "v1.28.15 pkg/api/v1/resource/helpers.go (PodRequests), pkg/scheduler/framework/types.go",
		apply:    func(b *Behavior) { b.Sidecars = true }},
	{Since: release(32), Area: AreaAccounting, Before: "pkg/api/v1/resource.PodRequests with a ContainerFn", After: "component-helpers resource.PodRequests, called again with per-container NonZero defaults; in-place resize reads containerStatuses[].resources (actuated); pod-level cpu/memory requests replace the containers' (gate PodLevelResources)",
		Upstream: "v1.32.13 pkg/scheduler/framework/types.go (calculateResource), k8s.io/component-helpers v0.32.13 resource/helpers.go",
		apply:    func(b *Behavior) { b.Requests = RequestsHelpersV132 }},
	{Since: release(33), Area: AreaAccounting, Before: "resize: actuated, or spec when larger; status.resize Infeasible; removal recomputes from the object given", After: "resize: max(spec, actuated, allocated), or max(actuated, allocated) with condition PodResizePending/Infeasible, sidecars too; pod-level hugepages; the PodInfo caches its resources and removal subtracts them",
		Upstream: "v1.33.13 pkg/scheduler/framework/types.go (PodInfo.calculateResource, #129635), k8s.io/component-helpers v0.33.13",
		apply:    func(b *Behavior) { b.Requests, b.CachedPodResource = RequestsHelpers, true }},
	{Since: release(33), Area: AreaAccounting, Before: "host ports of regular containers", After: "host ports of sidecars and regular containers (GetHostPorts)",
		Upstream: "v1.33.13 pkg/scheduler/framework/types.go (updateUsedPorts), pkg/scheduler/util/utils.go (GetHostPorts)",
		apply:    func(b *Behavior) { b.SidecarHostPorts = true }},
	{Since: release(35), Area: AreaAccounting, Before: "pod-level requests from spec", After: "with gate InPlacePodLevelResourcesVerticalScaling, pod-level requests use pod status resources like containers",
		Upstream: "v1.35.4 pkg/scheduler/framework/types.go (CalculateResource), k8s.io/component-helpers v0.35.4"},
	{Since: release(36), Area: AreaAccounting, Before: "—", After: "with gate DRANodeAllocatableResources, status.nodeAllocatableResourceClaimStatuses add to the requests",
		Upstream: "v1.36.3 pkg/scheduler/framework/types.go, k8s.io/component-helpers v0.36.3"},

	// Snapshot, images and NodeTree.
	{Since: release(18), Area: AreaSnapshot,
		After:    "zone key = region + \":\\x00:\" + zone, from the failure-domain.beta.kubernetes.io labels if present, else topology.kubernetes.io; NodeTree zones in first-seen order; snapshot map, node list, pods-with-affinity and pods-with-required-anti-affinity lists; image Size from the first node reporting it",
		Upstream: "v1.18.20 pkg/util/node/node.go (GetZoneKey), pkg/scheduler/internal/cache/node_tree.go, snapshot.go; component-helpers node/topology from v1.21"},
	{Since: release(18), Area: AreaSnapshot, After: "snapshot node list: resetExhausted, then numNodes calls of the stateful NodeTree.Next() (zone round-robin)",
		Upstream: "v1.18.20 pkg/scheduler/internal/cache/cache.go (updateNodeInfoSnapshotList), node_tree.go (next)",
		apply:    func(b *Behavior) { b.NodeOrderByNext = true }},
	{Since: release(18), Area: AreaSnapshot,
		After:       "the nodes present at the start enter the NodeTree in the order of the informer's initial LIST, which an API server up to v1.31 serves from its watch cache's map, unsorted (not determined; from v1.32 the API server's watch cache is a B-tree, BtreeWatchCache, listed in name order); nodes added later are appended to their zone in event order",
		Upstream:    "v1.18.20 pkg/scheduler/internal/cache/node_tree.go (addNode); k8s.io/apiserver v0.18 pkg/storage/cacher/watch_cache.go, v0.32 features (BtreeWatchCache)",
		NotModelled: "the nodes are added in the input's order, or in the running scheduler's with --scheduler-log (its NodeTree records replayed)"},
	{Since: release(20), Area: AreaSnapshot, Before: "Next() after resetExhausted", After: "the stateless NodeTree.List() (the same order for a tree built from scratch)",
		Upstream: "v1.20.15 pkg/scheduler/internal/cache/node_tree.go (list, #93473)",
		apply:    func(b *Behavior) { b.NodeOrderByNext = false }},
	{Since: release(25), Area: AreaSnapshot, Before: "no used-PVC set", After: "Snapshot.usedPVCSet: the PVC keys of the snapshot's nodes (rebuilt when a node's PVC keys change)",
		Upstream: "v1.25.16 pkg/scheduler/internal/cache/cache.go (updateNodeInfoSnapshotList), snapshot.go",
		apply:    func(b *Behavior) { b.UsedPVCSet = true }},
	{Since: release(29), Area: AreaSnapshot, Before: "an image's NumNodes is fixed for a node when that node is added or updated (earlier nodes keep smaller counts)",
		After:    "NodeInfos share one summary per image; NumNodes is counted when a NodeInfo is cloned (Dump, Snapshot)",
		Upstream: "v1.29.6 pkg/scheduler/internal/cache/cache.go (addNodeImageStates), pkg/scheduler/framework/types.go (Snapshot)",
		apply:    func(b *Behavior) { b.LiveImageNumNodes = true }},
	{Since: release(35), Area: AreaSnapshot, Before: "the initial LIST",
		After:       "with an API server v1.34+ (WatchList), client-go's streaming list (WatchListClient, on by default) collects the initial nodes in a map-backed temporaryStore and hands over its iteration order: a new draw on each start or re-list",
		Upstream:    "k8s.io/client-go v0.35 features (WatchListClient), tools/cache/reflector.go (watchList)",
		NotModelled: "as for v1.18, the input's order is used, or --scheduler-log's"},
}
