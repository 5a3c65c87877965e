package cache

import "k8s.io/apimachinery/pkg/util/sets"

// pvcUsers keeps a snapshot's used-PVC set up to date as nodes change,
// instead of gathering every node's keys again: upstream (v1.25+,
// backend/cache updateSnapshot) rebuilds the set from every listed node
// whenever a node's PVC keys change or a node is added or removed, which
// at 5,000 nodes costs a pass over all of them per change. The set it
// yields is the same: the keys some listed node holds.
type pvcUsers struct {
	// nodes counts, per "namespace/claim", the snapshot's map entries
	// whose PVCRefCounts hold it.
	nodes map[string]int
	// stale: the set was last built from a list that did not hold every
	// map entry, so it does not follow nodes.
	stale bool
}

// change moves the counts from a node's old keys to its new ones, and set
// with them while it follows the counts (a nil set is built anew by set).
func (u *pvcUsers) change(set sets.Set[string], old, new map[string]int) {
	if u.nodes == nil {
		u.nodes = map[string]int{}
	}
	follow := !u.stale && set != nil
	for k := range old {
		if _, ok := new[k]; ok {
			continue
		}
		if u.nodes[k]--; u.nodes[k] <= 0 {
			delete(u.nodes, k)
			if follow {
				set.Delete(k)
			}
		}
	}
	for k := range new {
		if _, ok := old[k]; ok {
			continue
		}
		if u.nodes[k]++; u.nodes[k] == 1 && follow {
			set.Insert(k)
		}
	}
}

// set returns the used-PVC set of list: the counted set when list holds
// every one of the entries counted (mapped of them, each once), else one
// built from list alone, as upstream builds it.
func (u *pvcUsers) set(current sets.Set[string], list []*NodeInfo, mapped int) sets.Set[string] {
	if len(list) == mapped {
		if !u.stale && current != nil {
			return current
		}
		u.stale = false
		out := sets.New[string]()
		for k := range u.nodes {
			out.Insert(k)
		}
		return out
	}
	u.stale = true
	out := sets.New[string]()
	for _, ni := range list {
		for k := range ni.PVCRefCounts {
			out.Insert(k)
		}
	}
	return out
}
