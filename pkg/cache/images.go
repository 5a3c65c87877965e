package cache

import (
	v1 "k8s.io/api/core/v1"
)

// ImageStateSummary is a node's view of one image name. In the cache it is
// shared by every node reporting the image; clones (Dump, Snapshot) get a
// private copy with NumNodes fixed at clone time (v1.29+). Up to v1.28 each
// NodeInfo holds a private copy made when its node was added or updated.
type ImageStateSummary struct {
	// Size in bytes, from the first node that reported the image; never updated.
	Size int64
	// NumNodes is the number of nodes reporting the image, valid in clones.
	NumNodes int
	// nodes is the live set of the nodes reporting the image, by their
	// names' numbers (cacheImpl.nodeNumber), kept only in the shared summary.
	nodes *nodeSet
}

func (s *ImageStateSummary) snapshot() *ImageStateSummary {
	return &ImageStateSummary{Size: s.Size, NumNodes: s.nodes.len()}
}

// NodeCount is the number of nodes reporting the image: NumNodes as a
// clone (Dump, Snapshot) records it, whether s is the cache's own shared
// summary (v1.29+, counted now) or a copy.
func (s *ImageStateSummary) NodeCount() int {
	if s.nodes == nil {
		return s.NumNodes
	}
	return s.nodes.len()
}

// addNodeImageStates registers every name of every image the node reports
// (tags and digests separately) and points the NodeInfo at the shared
// summaries. The caller must hold the cache lock.
func (c *cacheImpl) addNodeImageStates(node *v1.Node, ni *NodeInfo) {
	names := 0
	for _, img := range node.Status.Images {
		names += len(img.Names)
	}
	// Sized once: a node reports tens of image names, and growing the map
	// name by name rehashed it several times per node.
	sums := make(map[string]*ImageStateSummary, names)
	id := c.nodeNumber(node.Name)
	for _, img := range node.Status.Images {
		for _, name := range img.Names {
			st, ok := c.imageStates[name]
			if !ok {
				st = &ImageStateSummary{Size: img.SizeBytes, nodes: new(nodeSet)}
				c.imageStates[name] = st
			}
			st.nodes.add(id)
			if _, ok := sums[name]; !ok {
				sums[name] = c.nodeImageSummary(st)
			}
		}
	}
	ni.ImageStates = sums
}

// nodeImageSummary is what a NodeInfo holds for an image: the shared summary
// (v1.29+, counted when cloned), or up to v1.28 a private copy counting the
// nodes that report the image now, never updated afterwards.
func (c *cacheImpl) nodeImageSummary(st *ImageStateSummary) *ImageStateSummary {
	if c.p.LiveImageNumNodes {
		return st
	}
	return st.snapshot()
}

// removeNodeImageStates drops the node from every image it reports, deleting
// images no node reports any more. The caller must hold the cache lock.
func (c *cacheImpl) removeNodeImageStates(node *v1.Node) {
	if node == nil {
		return
	}
	id, ok := c.nodeNumbers[node.Name]
	if !ok {
		return // never added: no image lists it
	}
	for _, img := range node.Status.Images {
		for _, name := range img.Names {
			if st, ok := c.imageStates[name]; ok {
				st.nodes.remove(id)
				if st.nodes.len() == 0 {
					delete(c.imageStates, name)
				}
			}
		}
	}
}

// nodeNumber is the number standing for the node name in the image states'
// node sets, given on first sight and never reused: equal names, equal
// numbers, so each set counts what a set of the names would. A number is
// hashed in a fraction of a name's time, once per image name and node.
func (c *cacheImpl) nodeNumber(name string) uint32 {
	id, ok := c.nodeNumbers[name]
	if !ok {
		id = uint32(len(c.nodeNumbers))
		c.nodeNumbers[name] = id
	}
	return id
}
