package cache

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// AddNode implements Cache.
func (c *cacheImpl) AddNode(node *v1.Node) *NodeInfo {
	c.mu.Lock()
	defer c.unlockAndNotify()
	item, ok := c.nodes[node.Name]
	if !ok {
		item = c.newItem(node.Name)
	} else {
		c.removeNodeImageStates(item.info.Node())
	}
	c.moveNodeInfoToHead(node.Name)
	c.nodeTree.AddNode(node)
	c.addNodeImageStates(node, item.info)
	item.info.setNode(node, &c.p, c.gen)
	return item.info.Clone()
}

// UpdateNode implements Cache.
func (c *cacheImpl) UpdateNode(oldNode, newNode *v1.Node) *NodeInfo {
	c.mu.Lock()
	defer c.unlockAndNotify()
	item, ok := c.nodes[newNode.Name]
	if !ok {
		item = c.newItem(newNode.Name)
		c.nodeTree.AddNode(newNode)
	} else {
		c.removeNodeImageStates(item.info.Node())
	}
	c.moveNodeInfoToHead(newNode.Name)
	c.nodeTree.UpdateNode(oldNode, newNode)
	c.addNodeImageStates(newNode, item.info)
	item.info.setNode(newNode, &c.p, c.gen)
	return item.info.Clone()
}

// RemoveNode implements Cache.
func (c *cacheImpl) RemoveNode(node *v1.Node) error {
	c.mu.Lock()
	defer c.unlockAndNotify()
	item, ok := c.nodes[node.Name]
	if !ok {
		return fmt.Errorf("node %s is not found", node.Name)
	}
	item.info.clearNode(c.gen)
	// A NodeInfo with pods stays as a ghost until its last pod is removed;
	// ghosts are skipped by snapshots.
	if len(item.info.Pods) == 0 {
		c.removeNodeInfoFromList(node.Name)
	} else {
		c.moveNodeInfoToHead(node.Name)
	}
	if err := c.nodeTree.RemoveNode(node); err != nil {
		return err
	}
	c.removeNodeImageStates(node)
	return nil
}

// OrderNodeTree implements Cache.
func (c *cacheImpl) OrderNodeTree(names []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.nodeTree
	tree := NewNodeTree(nil)
	added := sets.New[string]()
	add := func(name string) {
		item, ok := c.nodes[name]
		if !ok || item.info.Node() == nil || added.Has(name) {
			return
		}
		added.Insert(name)
		tree.AddNode(item.info.Node())
	}
	inTree := sets.New[string]()
	for _, key := range old.zones {
		inTree.Insert(old.tree[key].names...)
	}
	for _, name := range names {
		if inTree.Has(name) {
			add(name)
		}
	}
	for _, key := range old.zones {
		for _, name := range old.tree[key].names {
			add(name)
		}
	}
	c.nodeTree = tree
	c.treeOrders++
}

// sortedKeys gives a deterministic iteration order over a key set.
func sortedKeys(s sets.Set[string]) []string {
	keys := s.UnsortedList()
	sort.Strings(keys)
	return keys
}
