package cache

import (
	"errors"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/node/topology"
)

// errZonesExhausted is returned by List when the zones hold fewer names than
// NumNodes (upstream logs it and uses the partial list).
var errZonesExhausted = errors.New("all zones exhausted before reaching count of nodes expected")

// NodeTree groups node names by zone key (region + ":\x00:" + zone, from
// component-helpers topology.GetZoneKey) in first-seen zone order, names in
// insertion order within a zone. It is the scheduler's nodeTree plus the
// cursors of the v1.18 stateful Next().
//
// NodeTree is NOT thread-safe; callers synchronise (the cache holds its lock).
type NodeTree struct {
	zones    []string
	tree     map[string]*zoneNodes
	numNodes int
	// zoneIndex is the v1.18 Next() cursor over zones.
	zoneIndex int
	// rounds counts the resets Next() made after exhausting every zone.
	rounds int
}

// zoneNodes is one zone's names and its v1.18 Next() cursor.
type zoneNodes struct {
	names     []string
	lastIndex int
}

// NewNodeTree returns a tree holding nodes, added in order.
func NewNodeTree(nodes []*v1.Node) *NodeTree {
	nt := &NodeTree{tree: map[string]*zoneNodes{}}
	for _, n := range nodes {
		nt.AddNode(n)
	}
	return nt
}

// NumNodes is the number of names in the tree.
func (nt *NodeTree) NumNodes() int { return nt.numNodes }

// Zones returns the zone keys in tree order.
func (nt *NodeTree) Zones() []string { return append([]string(nil), nt.zones...) }

// ZoneNodes returns the names in zone key, in tree order.
func (nt *NodeTree) ZoneNodes(key string) []string {
	if z, ok := nt.tree[key]; ok {
		return append([]string(nil), z.names...)
	}
	return nil
}

// AddNode appends the node to its zone, creating the zone at the end. A name
// already present in the same zone is ignored; the duplicate check is per
// zone, as upstream.
func (nt *NodeTree) AddNode(n *v1.Node) {
	key := topology.GetZoneKey(n)
	z, ok := nt.tree[key]
	if !ok {
		z = &zoneNodes{}
		nt.tree[key] = z
		nt.zones = append(nt.zones, key)
	}
	for _, name := range z.names {
		if name == n.Name {
			return
		}
	}
	z.names = append(z.names, n.Name)
	nt.numNodes++
}

// RemoveNode removes the node from the zone computed from n's labels,
// dropping the zone once empty. It returns `node "<name>" in group
// "<zone key>" was not found` when the name is not in that zone.
func (nt *NodeTree) RemoveNode(n *v1.Node) error {
	key := topology.GetZoneKey(n)
	if z, ok := nt.tree[key]; ok {
		for i, name := range z.names {
			if name != n.Name {
				continue
			}
			z.names = append(z.names[:i], z.names[i+1:]...)
			if len(z.names) == 0 {
				nt.removeZone(key)
			}
			nt.numNodes--
			return nil
		}
	}
	return fmt.Errorf("node %q in group %q was not found", n.Name, key)
}

func (nt *NodeTree) removeZone(key string) {
	delete(nt.tree, key)
	for i, z := range nt.zones {
		if z == key {
			nt.zones = append(nt.zones[:i], nt.zones[i+1:]...)
			return
		}
	}
}

// UpdateNode moves a node whose zone key changed to the end of its new zone;
// it does nothing when the key is unchanged. A nil old node counts as zone
// "" (as upstream, so a nil old node in zone "" is not added). Removal errors
// are ignored, so an unknown old node is simply added.
func (nt *NodeTree) UpdateNode(old, cur *v1.Node) {
	oldZone := ""
	if old != nil {
		oldZone = topology.GetZoneKey(old)
	}
	if oldZone == topology.GetZoneKey(cur) {
		return
	}
	if old != nil {
		_ = nt.RemoveNode(old)
	}
	nt.AddNode(cur)
}

// List returns the names in the scheduler's v1.20+ order: round r emits the
// r-th name of every zone that has one, zones in tree order. If the zones run
// out before NumNodes names (an inconsistent tree), it returns the partial
// list and an error. An empty tree gives nil.
func (nt *NodeTree) List() ([]string, error) {
	if len(nt.zones) == 0 {
		return nil, nil
	}
	out := make([]string, 0, nt.numNodes)
	for round := 0; len(out) < nt.numNodes; round++ {
		emitted := false
		for _, key := range nt.zones {
			if z := nt.tree[key]; round < len(z.names) {
				out = append(out, z.names[round])
				emitted = true
			}
		}
		if !emitted {
			return out, errZonesExhausted
		}
	}
	return out, nil
}

// Next returns the next name of the v1.18 stateful round-robin: take the zone
// at the zone cursor (wrapping), advance the cursor, and return that zone's
// next name; an exhausted zone is skipped, and once every zone was found
// exhausted within this call all cursors reset. Exhaustion is not remembered,
// so a zone that gains names is served again at once. Removing a zone does
// not adjust the zone cursor. An empty tree returns "".
func (nt *NodeTree) Next() string {
	if len(nt.zones) == 0 {
		return ""
	}
	exhausted := 0
	for {
		if nt.zoneIndex >= len(nt.zones) {
			nt.zoneIndex = 0
		}
		z := nt.tree[nt.zones[nt.zoneIndex]]
		nt.zoneIndex++
		if z.lastIndex < len(z.names) {
			name := z.names[z.lastIndex]
			z.lastIndex++
			return name
		}
		exhausted++
		if exhausted >= len(nt.zones) {
			nt.ResetExhausted()
			nt.rounds++
		}
	}
}

// Rounds is how many times Next() wrapped around after exhausting every zone.
func (nt *NodeTree) Rounds() int { return nt.rounds }

// ResetExhausted rewinds every Next() cursor (v1.18 resetExhausted).
func (nt *NodeTree) ResetExhausted() {
	for _, z := range nt.tree {
		z.lastIndex = 0
	}
	nt.zoneIndex = 0
}

// ZoneKeyString renders a zone key for people: "region/zone", with the NUL
// separator removed ("" stays "", "r1:\x00:" is "r1/", ":\x00:z2" is "/z2").
func ZoneKeyString(key string) string {
	return strings.Replace(key, ":\x00:", "/", 1)
}

// NumFeasibleNodesToFind is how many feasible nodes the scheduler looks for
// among numAllNodes before it stops filtering (v1.36 schedule_one.go):
// all nodes below 100; otherwise percentage of them (0 = adaptive:
// 50 - numAllNodes/125, at least 5), and never fewer than 100.
// percentage is the profile's percentageOfNodesToScore if set, else the
// global one (default 0).
func NumFeasibleNodesToFind(percentage int32, numAllNodes int32) int32 {
	const minFeasibleNodes, minFeasiblePercentage = 100, 5
	if numAllNodes < minFeasibleNodes {
		return numAllNodes
	}
	if percentage == 0 {
		percentage = int32(50) - numAllNodes/125
		if percentage < minFeasiblePercentage {
			percentage = minFeasiblePercentage
		}
	}
	n := numAllNodes * percentage / 100
	if n < minFeasibleNodes {
		return minFeasibleNodes
	}
	return n
}
