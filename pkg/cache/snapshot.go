package cache

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/sets"
)

// Snapshot is the scheduler's per-cycle view of the cache (upstream
// backend/cache.Snapshot, v1.36): clones of the NodeInfos of existing nodes,
// in NodeTree order, plus derived lists. Build it with NewEmptySnapshot and
// keep it up to date with Cache.UpdateSnapshot.
//
// Snapshot is NOT thread-safe.
type Snapshot struct {
	nodeInfoMap                      map[string]*NodeInfo
	nodeInfoList                     []*NodeInfo
	havePodsWithAffinity             []*NodeInfo
	havePodsWithRequiredAntiAffinity []*NodeInfo
	usedPVCSet                       sets.Set[string]
	pvcUsers                         pvcUsers
	generation                       int64
	// treeOrders is the cache's count of OrderNodeTree calls when the
	// node list was last built.
	treeOrders int
}

// NewEmptySnapshot returns a snapshot with generation 0, so the first
// UpdateSnapshot clones every node.
func NewEmptySnapshot() *Snapshot {
	return &Snapshot{nodeInfoMap: map[string]*NodeInfo{}, usedPVCSet: sets.New[string]()}
}

// Generation is the highest NodeInfo generation the snapshot reflects.
func (s *Snapshot) Generation() int64 { return s.generation }

// List returns the NodeInfos in the order the scheduler scans them.
func (s *Snapshot) List() []*NodeInfo { return s.nodeInfoList }

// HavePodsWithAffinityList returns the nodes having pods with pod
// (anti-)affinity, in List order.
func (s *Snapshot) HavePodsWithAffinityList() []*NodeInfo { return s.havePodsWithAffinity }

// HavePodsWithRequiredAntiAffinityList returns the nodes having pods with
// required anti-affinity, in List order.
func (s *Snapshot) HavePodsWithRequiredAntiAffinityList() []*NodeInfo {
	return s.havePodsWithRequiredAntiAffinity
}

// UsedPVCSet returns the "namespace/claim" keys used by pods on snapshot
// nodes (consumed by the VolumeRestrictions plugin for ReadWriteOncePod);
// nil for kube-scheduler before v1.25, which has no such set.
func (s *Snapshot) UsedPVCSet() sets.Set[string] { return s.usedPVCSet }

// NumNodes is the number of nodes in the snapshot.
func (s *Snapshot) NumNodes() int { return len(s.nodeInfoList) }

// Get returns the NodeInfo of a node, or `nodeinfo not found for node name
// "<name>"` when the node is missing (placeholders and ghosts never appear).
func (s *Snapshot) Get(name string) (*NodeInfo, error) {
	if ni, ok := s.nodeInfoMap[name]; ok && ni.Node() != nil {
		return ni, nil
	}
	return nil, fmt.Errorf("nodeinfo not found for node name %q", name)
}
