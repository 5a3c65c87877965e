package cache

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
)

// allNodes is the fixture of the upstream NodeTree tests (v1.36.3
// backend/cache/node_tree_test.go), rebuilt with our builders. Slice it with full slice
// expressions so appends never overwrite it.
var allNodes = []*v1.Node{
	node("node-0"), // no zone labels: zone key ""
	node("node-1", v1.LabelTopologyRegion, "region-1"),                                                   // region only
	node("node-2", v1.LabelTopologyZone, "zone-2"),                                                       // zone only
	node("node-3", v1.LabelTopologyRegion, "region-1", v1.LabelTopologyZone, "zone-2"),                   // GA labels
	node("node-4", v1.LabelFailureDomainBetaRegion, "region-1", v1.LabelFailureDomainBetaZone, "zone-2"), // beta labels, same zone as node-3
	zoned("node-5", "region-1", "zone-3"),
	zoned("node-6", "region-2", "zone-2"),
	zoned("node-7", "region-2", "zone-2"),
	zoned("node-8", "region-2", "zone-2"),
	node("node-9", v1.LabelTopologyRegion, "region-2", v1.LabelTopologyZone, "zone-2", // beta and GA labels, equal values
		v1.LabelFailureDomainBetaRegion, "region-2", v1.LabelFailureDomainBetaZone, "zone-2"),
}

func treeZones(nt *NodeTree) map[string][]string {
	out := map[string][]string{}
	for _, z := range nt.Zones() {
		out[z] = nt.ZoneNodes(z)
	}
	return out
}

// TestNodeTreeAddRemoveUpdate mirrors vectors 1–4.
func TestNodeTreeAddRemoveUpdate(t *testing.T) {
	nt := NewNodeTree(allNodes[:7:7])
	want := map[string][]string{
		"": {"node-0"}, "region-1:\x00:": {"node-1"}, ":\x00:zone-2": {"node-2"},
		"region-1:\x00:zone-2": {"node-3", "node-4"}, "region-1:\x00:zone-3": {"node-5"}, "region-2:\x00:zone-2": {"node-6"},
	}
	if diff := cmp.Diff(want, treeZones(nt)); diff != "" || nt.NumNodes() != 7 {
		t.Fatalf("after adding 7 nodes: numNodes %d, zones (-want,+got):\n%s", nt.NumNodes(), diff)
	}
	nt.AddNode(allNodes[3]) // duplicate in the same zone: ignored
	if nt.NumNodes() != 7 {
		t.Errorf("duplicate add changed numNodes to %d", nt.NumNodes())
	}
	for _, n := range allNodes[1:4] {
		mustNil(t, nt.RemoveNode(n))
	}
	want = map[string][]string{"": {"node-0"}, "region-1:\x00:zone-2": {"node-4"}, "region-1:\x00:zone-3": {"node-5"}, "region-2:\x00:zone-2": {"node-6"}}
	if diff := cmp.Diff(want, treeZones(nt)); diff != "" {
		t.Errorf("after removals (-want,+got):\n%s", diff)
	}
	wantErr(t, NewNodeTree(nil).RemoveNode(allNodes[0]), `node "node-0" in group "" was not found`)

	nt = NewNodeTree(allNodes[:7:7])
	moved := zoned("node-0", "region-1", "zone-2")
	nt.UpdateNode(allNodes[0], moved)
	if got := nt.ZoneNodes("region-1:\x00:zone-2"); !cmp.Equal(got, []string{"node-3", "node-4", "node-0"}) {
		t.Errorf("zone change: r1z2 = %v", got)
	}
	if _, ok := treeZones(nt)[""]; ok {
		t.Errorf("empty zone \"\" was not dropped")
	}
	nt = NewNodeTree(allNodes[:1:1])
	nt.UpdateNode(nil, zoned("node-new", "region-1", "zone-2")) // unknown node: added
	want = map[string][]string{"": {"node-0"}, "region-1:\x00:zone-2": {"node-new"}}
	if diff := cmp.Diff(want, treeZones(nt)); diff != "" {
		t.Errorf("update of unknown node (-want,+got):\n%s", diff)
	}
}

// TestNodeTreeList mirrors vectors 5–7.
func TestNodeTreeList(t *testing.T) {
	tests := []struct {
		name string
		ops  func(nt *NodeTree)
		want []string
	}{
		{"nine nodes", func(nt *NodeTree) { addAll(nt, allNodes[:9:9]) },
			[]string{"node-0", "node-1", "node-2", "node-3", "node-5", "node-6", "node-4", "node-7", "node-8"}},
		{"four nodes", func(nt *NodeTree) { addAll(nt, allNodes[:4:4]) }, []string{"node-0", "node-1", "node-2", "node-3"}},
		{"empty", func(*NodeTree) {}, nil},
		{"added later to an exhausted zone", func(nt *NodeTree) {
			addAll(nt, []*v1.Node{allNodes[4], allNodes[5], allNodes[6], allNodes[7], allNodes[8], allNodes[3]})
		}, []string{"node-4", "node-5", "node-6", "node-3", "node-7", "node-8"}},
		{"add and remove", func(nt *NodeTree) {
			addAll(nt, allNodes[3:5:5])
			_ = nt.RemoveNode(allNodes[3])
			addAll(nt, allNodes[6:8:8])
			_ = nt.RemoveNode(allNodes[4])
		}, []string{"node-6", "node-7"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nt := NewNodeTree(nil)
			tc.ops(nt)
			got, err := nt.List()
			mustNil(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("List() (-want,+got):\n%s", diff)
			}
		})
	}
	nt := NewNodeTree(allNodes[:9:9])
	nt.numNodes++ // vector 6: an inconsistent count exhausts the zones
	got, err := nt.List()
	wantErr(t, err, "all zones exhausted before reaching count of nodes expected")
	if len(got) != 9 {
		t.Errorf("partial list has %d names, want 9", len(got))
	}
}

func addAll(nt *NodeTree, nodes []*v1.Node) {
	for _, n := range nodes {
		nt.AddNode(n)
	}
}

func nextN(nt *NodeTree, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = nt.Next()
	}
	return out
}

// TestNodeTreeNext checks the v1.18 stateful Next() (v1.18.20
// pkg/scheduler/internal/cache/node_tree.go next, resetExhausted).
func TestNodeTreeNext(t *testing.T) {
	a := func(name string) *v1.Node { return zoned(name, "r", "A") }
	b := func(name string) *v1.Node { return zoned(name, "r", "B") }
	c := func(name string) *v1.Node { return zoned(name, "r", "C") }

	nt := NewNodeTree([]*v1.Node{a("a1"), a("a2"), a("a3"), b("b1")})
	if got := nextN(nt, 9); !cmp.Equal(got, []string{"a1", "b1", "a2", "a3", "a1", "b1", "a2", "a3", "a1"}) || nt.Rounds() != 2 {
		t.Errorf("uneven zones: %v", got)
	}
	nt.ResetExhausted()
	if got := nextN(nt, 4); !cmp.Equal(got, []string{"a1", "b1", "a2", "a3"}) {
		t.Errorf("after reset: %v", got)
	}

	nt = NewNodeTree(allNodes[:9:9])
	want := []string{"node-0", "node-1", "node-2", "node-3", "node-5", "node-6", "node-4", "node-7", "node-8", "node-0", "node-1"}
	if got := nextN(nt, 11); !cmp.Equal(got, want) {
		t.Errorf("allNodes[:9], 11 calls: %v", got)
	}

	nt = NewNodeTree([]*v1.Node{a("a1"), b("b1"), b("b2"), b("b3")})
	if got := nextN(nt, 4); !cmp.Equal(got, []string{"a1", "b1", "b2", "b3"}) {
		t.Errorf("before growth: %v", got)
	}
	nt.AddNode(a("a2")) // vector 9: an exhausted zone gains a node and is served at once
	if got := nextN(nt, 4); !cmp.Equal(got, []string{"a2", "a1", "b1", "a2"}) {
		t.Errorf("after growth: %v", got)
	}

	nt = NewNodeTree([]*v1.Node{a("a1"), b("b1"), c("c1")})
	nt.Next()
	mustNil(t, nt.RemoveNode(a("a1"))) // the zone cursor is not adjusted when zones shift
	if got := nextN(nt, 3); !cmp.Equal(got, []string{"c1", "b1", "b1"}) {
		t.Errorf("after zone removal: %v", got)
	}

	if got := NewNodeTree(nil).Next(); got != "" {
		t.Errorf("empty tree Next() = %q", got)
	}
}

// TestNumFeasibleNodesToFind mirrors vector 23 (upstream
// TestNumFeasibleNodesToFind, v1.36.3) plus values derived from the formula.
func TestNumFeasibleNodesToFind(t *testing.T) {
	tests := []struct{ pct, nodes, want int32 }{
		{0, 10, 10}, {40, 10, 10}, {0, 99, 99}, {0, 100, 100}, {0, 1000, 420}, {40, 1000, 400},
		{0, 5000, 500}, {0, 6000, 300}, {40, 6000, 2400}, {0, 20000, 1000},
	}
	for _, tc := range tests {
		if got := NumFeasibleNodesToFind(tc.pct, tc.nodes); got != tc.want {
			t.Errorf("NumFeasibleNodesToFind(%d, %d) = %d, want %d", tc.pct, tc.nodes, got, tc.want)
		}
	}
}

func TestZoneKeyString(t *testing.T) {
	for key, want := range map[string]string{"": "", "region-1:\x00:": "region-1/", ":\x00:zone-2": "/zone-2", "r:\x00:z": "r/z"} {
		if got := ZoneKeyString(key); got != want {
			t.Errorf("ZoneKeyString(%q) = %q, want %q", key, got, want)
		}
	}
}
