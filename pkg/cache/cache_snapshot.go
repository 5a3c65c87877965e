package cache

import "fmt"

// snapshotFlags records which derived parts of a snapshot need rebuilding.
type snapshotFlags struct {
	allLists, affinity, antiAffinity, pvcs bool
}

func (f snapshotFlags) any() bool { return f.allLists || f.affinity || f.antiAffinity || f.pvcs }

// UpdateSnapshot implements Cache, as v1.36: walk the recency list from the
// head down to the first NodeInfo not newer than the snapshot, overwrite
// (in place, so list pointers stay valid) the clones of those that have a
// node, drop nodes deleted since, and rebuild the ordered list only when
// nodes were added or removed (the affinity lists and PVC set also when their
// inputs changed).
func (c *cacheImpl) UpdateSnapshot(s *Snapshot) error {
	c.mu.Lock()
	defer c.unlockAndNotify()
	if !c.p.UsedPVCSet {
		s.usedPVCSet = nil
	}
	var flags snapshotFlags
	for item := c.headNode; item != nil && item.info.Generation > s.generation; item = item.next {
		c.refreshSnapshotNode(s, item.info, &flags)
	}
	if c.headNode != nil {
		s.generation = c.headNode.info.Generation
	}
	if len(s.nodeInfoMap) > c.nodeTree.NumNodes() {
		c.removeDeletedNodesFromSnapshot(s)
		flags.allLists = true
	}
	if s.treeOrders != c.treeOrders {
		flags.allLists, s.treeOrders = true, c.treeOrders
	}
	if flags.any() {
		c.updateSnapshotLists(s, flags.allLists)
	}
	if len(s.nodeInfoList) != c.nodeTree.NumNodes() {
		msg := fmt.Errorf("snapshot state is not consistent, length of NodeInfoList=%d not equal to length of nodes in tree=%d , length of NodeInfoMap=%d, length of nodes in cache=%d, trying to recover",
			len(s.nodeInfoList), c.nodeTree.NumNodes(), len(s.nodeInfoMap), len(c.nodes))
		c.updateSnapshotLists(s, true)
		return msg
	}
	return nil
}

// refreshSnapshotNode copies one changed NodeInfo into the snapshot. Ghosts
// and placeholders are skipped. The caller must hold the write lock.
func (c *cacheImpl) refreshSnapshotNode(s *Snapshot, info *NodeInfo, flags *snapshotFlags) {
	node := info.Node()
	if node == nil {
		return
	}
	existing, ok := s.nodeInfoMap[node.Name]
	if !ok {
		flags.allLists = true
		existing = &NodeInfo{}
		s.nodeInfoMap[node.Name] = existing
	}
	clone := info.Clone()
	if (len(existing.PodsWithAffinity) > 0) != (len(clone.PodsWithAffinity) > 0) {
		flags.affinity = true
	}
	if (len(existing.PodsWithRequiredAntiAffinity) > 0) != (len(clone.PodsWithRequiredAntiAffinity) > 0) {
		flags.antiAffinity = true
	}
	if c.p.UsedPVCSet && !samePVCKeys(existing.PVCRefCounts, clone.PVCRefCounts) {
		flags.pvcs = true
		s.pvcUsers.change(s.usedPVCSet, existing.PVCRefCounts, clone.PVCRefCounts)
	}
	*existing = *clone
}

func samePVCKeys(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			return false
		}
	}
	return true
}

// removeDeletedNodesFromSnapshot deletes snapshot entries whose node is gone
// or a ghost, stopping once the map is as large as the tree. The caller must
// hold the write lock.
func (c *cacheImpl) removeDeletedNodesFromSnapshot(s *Snapshot) {
	toDelete := len(s.nodeInfoMap) - c.nodeTree.NumNodes()
	for name := range s.nodeInfoMap {
		if toDelete <= 0 {
			return
		}
		if item, ok := c.nodes[name]; !ok || item.info.Node() == nil {
			if c.p.UsedPVCSet {
				s.pvcUsers.change(s.usedPVCSet, s.nodeInfoMap[name].PVCRefCounts, nil)
			}
			delete(s.nodeInfoMap, name)
			toDelete--
		}
	}
}

// updateSnapshotLists rebuilds the affinity lists and the PVC set (v1.25+;
// pvcUsers keeps it as the nodes change, the same set upstream's rebuild
// gives),
// and with all=true the node list itself in NodeTree order. The caller must
// hold the write lock.
func (c *cacheImpl) updateSnapshotLists(s *Snapshot, all bool) {
	if all {
		names := c.nodeOrder()
		s.nodeInfoList = make([]*NodeInfo, 0, len(names))
		for _, name := range names {
			if ni := s.nodeInfoMap[name]; ni != nil {
				s.nodeInfoList = append(s.nodeInfoList, ni)
			}
		}
	}
	s.havePodsWithAffinity = nil
	s.havePodsWithRequiredAntiAffinity = nil
	if c.p.UsedPVCSet {
		s.usedPVCSet = s.pvcUsers.set(s.usedPVCSet, s.nodeInfoList, len(s.nodeInfoMap))
	}
	for _, ni := range s.nodeInfoList {
		if len(ni.PodsWithAffinity) > 0 {
			s.havePodsWithAffinity = append(s.havePodsWithAffinity, ni)
		}
		if len(ni.PodsWithRequiredAntiAffinity) > 0 {
			s.havePodsWithRequiredAntiAffinity = append(s.havePodsWithRequiredAntiAffinity, ni)
		}
	}
}

// nodeOrder is the order of a full snapshot list: up to v1.19, NodeTree
// cursors reset and one Next() per node; from v1.20, List(). They agree for
// any tree (node_tree_test checks it). A List error means the tree is
// inconsistent; upstream logs it and uses the partial list, which the
// consistency check then reports. The caller must hold the write lock.
func (c *cacheImpl) nodeOrder() []string {
	if c.p.NodeOrderByNext {
		c.nodeTree.ResetExhausted()
		names := make([]string, c.nodeTree.NumNodes())
		for i := range names {
			names[i] = c.nodeTree.Next()
		}
		return names
	}
	names, _ := c.nodeTree.List()
	return names
}
