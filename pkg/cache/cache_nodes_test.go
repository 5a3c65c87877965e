package cache

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestPlaceholderNode: a pod on an unknown node gets a placeholder NodeInfo
// that no snapshot shows (v1.36.3 backend/cache/cache.go addPod, UpdateSnapshot).
func TestPlaceholderNode(t *testing.T) {
	c := newTestCache(Options{})
	p := pod("p").on("ghost").req("100m", "").obj()
	mustNil(t, c.AddPod(p))
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	if c.NodeCount() != 1 || c.nodeTree.NumNodes() != 0 || s.NumNodes() != 0 || len(s.nodeInfoMap) != 0 {
		t.Fatalf("NodeCount %d, tree %d, snapshot list %d map %d; want 1, 0, 0, 0", c.NodeCount(), c.nodeTree.NumNodes(), s.NumNodes(), len(s.nodeInfoMap))
	}
	if n, _ := c.PodCount(); n != 1 {
		t.Errorf("PodCount %d, want 1", n)
	}
	mustNil(t, c.RemovePod(p))
	if c.NodeCount() != 0 {
		t.Errorf("placeholder survived its last pod: NodeCount %d", c.NodeCount())
	}
}

// TestPlaceholderBecomesNode: AddNode keeps the pods already on a placeholder.
func TestPlaceholderBecomesNode(t *testing.T) {
	c := newTestCache(Options{})
	mustNil(t, c.AddPod(pod("p").on("n").req("100m", "").obj()))
	ni := c.AddNode(withAlloc(node("n"), rl("1", "1Gi")))
	if len(ni.Pods) != 1 || ni.Requested.MilliCPU != 100 || ni.Allocatable.MilliCPU != 1000 || ni.Node() == nil {
		t.Errorf("AddNode over placeholder: pods %d, requested %dm, allocatable %dm", len(ni.Pods), ni.Requested.MilliCPU, ni.Allocatable.MilliCPU)
	}
}

// TestGhostNode: a node removed while a pod remains (v1.36.3
// backend/cache/cache.go RemoveNode, upstream TestNodeOperators).
func TestGhostNode(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(node("n1"))
	c.AddNode(node("n2"))
	p := pod("p").on("n2").obj()
	mustNil(t, c.AddPod(p))
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	if s.NumNodes() != 2 {
		t.Fatalf("snapshot has %d nodes, want 2", s.NumNodes())
	}
	mustNil(t, c.RemoveNode(node("n2")))
	mustNil(t, c.UpdateSnapshot(s))
	if c.NodeCount() != 2 || c.nodeTree.NumNodes() != 1 || s.NumNodes() != 1 {
		t.Errorf("NodeCount %d, tree %d, snapshot %d; want 2, 1, 1", c.NodeCount(), c.nodeTree.NumNodes(), s.NumNodes())
	}
	wantErr(t, func() error { _, err := s.Get("n2"); return err }(), `nodeinfo not found for node name "n2"`)
	if d := c.Dump().Nodes["n2"]; d == nil || d.Node() != nil || len(d.Pods) != 1 {
		t.Errorf("Dump does not show n2 as a ghost with its pod: %+v", d)
	}
	wantErr(t, c.RemoveNode(node("n2")), `node "n2" in group "" was not found`)
	wantErr(t, c.RemoveNode(node("nope")), "node nope is not found")
	mustNil(t, c.RemovePod(p))
	if c.NodeCount() != 1 {
		t.Errorf("ghost survived its last pod: NodeCount %d", c.NodeCount())
	}
}

// TestRemovePodBeforeNode mirrors upstream TestRemovePod (v1.36.3
// backend/cache/cache_test.go).
func TestRemovePodBeforeNode(t *testing.T) {
	for _, assumed := range []bool{false, true} {
		c := newTestCache(Options{})
		p := pod("p").on("node-1").req("100m", "").obj()
		if assumed {
			mustNil(t, c.AssumePod(p))
		} else {
			mustNil(t, c.AddPod(p))
		}
		c.AddNode(node("node-1"))
		c.AddNode(node("node-2"))
		mustNil(t, c.RemovePod(p))
		if _, err := c.GetPod(p); err == nil {
			t.Errorf("GetPod after RemovePod succeeded")
		}
		if err := c.RemovePod(p); err == nil {
			t.Errorf("second RemovePod succeeded")
		}
		if got := c.headNode.info.Node().Name; got != "node-1" {
			t.Errorf("assumed=%v: head node %s, want node-1", assumed, got)
		}
	}
}

// TestImageStates (v1.36.3 backend/cache/cache.go addNodeImageStates): size
// from the first reporter, NumNodes live
// in Dump, stale in snapshots of unchanged nodes.
func TestImageStates(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(withImages(node("i1"), v1.ContainerImage{Names: []string{"img:1", "img@sha"}, SizeBytes: 1000}))
	c.AddNode(withImages(node("i2"), v1.ContainerImage{Names: []string{"img:1"}, SizeBytes: 2000}))
	d := c.Dump()
	want := map[string]imageSum{"img:1": {1000, 2}, "img@sha": {1000, 1}}
	if diff := cmp.Diff(want, imageMap(d.Nodes["i1"])); diff != "" {
		t.Errorf("i1 images (-want,+got):\n%s", diff)
	}
	if got := imageMap(d.Nodes["i2"])["img:1"]; got.Size != 1000 || got.NumNodes != 2 {
		t.Errorf("i2 img:1 = %+v", got)
	}
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	c.AddNode(withImages(node("i3"), v1.ContainerImage{Names: []string{"img:1"}, SizeBytes: 5}))
	mustNil(t, c.UpdateSnapshot(s))
	i1, _ := s.Get("i1")
	i3, _ := s.Get("i3")
	if i1.ImageStates["img:1"].NumNodes != 2 || i3.ImageStates["img:1"].NumNodes != 3 {
		t.Errorf("snapshot NumNodes i1 %d (want stale 2), i3 %d (want 3)", i1.ImageStates["img:1"].NumNodes, i3.ImageStates["img:1"].NumNodes)
	}
	mustNil(t, c.RemoveNode(node("i2")))
	mustNil(t, c.RemoveNode(withImages(node("i1"), v1.ContainerImage{Names: []string{"img:1", "img@sha"}})))
	if _, ok := c.imageStates["img@sha"]; ok {
		t.Errorf("image reported by no node is still cached")
	}
	if got := c.imageStates["img:1"].nodes.len(); got != 2 {
		// i2 was removed with an argument listing no images: upstream uses the
		// argument's images, so i2 stays registered.
		t.Errorf("img:1 reported by %d nodes, want 2 (i2 kept, removed with no image list)", got)
	}
}

type imageSum struct {
	Size     int64
	NumNodes int
}

func imageMap(ni *NodeInfo) map[string]imageSum {
	out := map[string]imageSum{}
	for k, v := range ni.ImageStates {
		out[k] = imageSum{v.Size, v.NumNodes}
	}
	return out
}

func TestUpdateNode(t *testing.T) {
	c := newTestCache(Options{})
	old := withAlloc(zoned("n", "r", "a"), v1.ResourceList{v1.ResourcePods: resource.MustParse("10")})
	c.AddNode(old)
	c.AddNode(zoned("m", "r", "a"))
	cur := withAlloc(zoned("n", "r", "b"), v1.ResourceList{v1.ResourcePods: resource.MustParse("20")})
	ni := c.UpdateNode(old, cur)
	if ni.Allocatable.AllowedPodNumber != 20 {
		t.Errorf("Allocatable pods %d, want 20", ni.Allocatable.AllowedPodNumber)
	}
	if got := c.nodeTree.ZoneNodes("r:\x00:b"); !cmp.Equal(got, []string{"n"}) {
		t.Errorf("zone b = %v", got)
	}
	ni = c.UpdateNode(zoned("x", "r", "a"), zoned("x", "r", "a")) // unknown node: created and added to the tree
	if ni.Node() == nil || c.nodeTree.NumNodes() != 3 {
		t.Errorf("unknown node not added: tree %d", c.nodeTree.NumNodes())
	}
}

// TestGenerationsIncrease: every change bumps the NodeInfo's generation.
func TestGenerationsIncrease(t *testing.T) {
	c := newTestCache(Options{})
	last := c.AddNode(node("n")).Generation
	steps := []func(){
		func() { mustNil(t, c.AddPod(pod("p").on("n").obj())) },
		func() { mustNil(t, c.UpdatePod(pod("p").on("n").obj(), pod("p").on("n").obj())) },
		func() { c.UpdateNode(node("n"), node("n")) },
		func() { mustNil(t, c.RemovePod(pod("p").on("n").obj())) },
	}
	for i, step := range steps {
		step()
		g := c.Dump().Nodes["n"].Generation
		if g <= last {
			t.Errorf("step %d: generation %d not above %d", i, g, last)
		}
		last = g
	}
}

// TestAddNodeTwiceInAnotherZone documents an upstream quirk (v1.36.3
// backend/cache/node_tree.go addNode):
// the NodeTree's duplicate check is per zone, so AddNode of a known node with
// another zone key lists it twice. The informer never does this (it sends
// Update), so the cache's invariants assume it does not happen.
func TestAddNodeTwiceInAnotherZone(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(zoned("n", "r", "a"))
	c.AddNode(zoned("n", "r", "b"))
	got, err := c.NodeTreeList()
	mustNil(t, err)
	if !cmp.Equal(got, []string{"n", "n"}) {
		t.Errorf("tree list %v, want the node twice", got)
	}
}

func TestPlaceholderAndGhostMarks(t *testing.T) {
	c := newTestCache(Options{})
	mustNil(t, c.AddPod(pod("a").on("missing").obj()))
	c.AddNode(node("n"))
	mustNil(t, c.AddPod(pod("b").on("n").obj()))
	mustNil(t, c.RemoveNode(node("n")))
	d := c.Dump()
	if ni := d.Nodes["missing"]; !ni.IsPlaceholder() || ni.IsGhost() {
		t.Errorf("missing: placeholder %v ghost %v", ni.IsPlaceholder(), ni.IsGhost())
	}
	if ni := d.Nodes["n"]; ni.IsPlaceholder() || !ni.IsGhost() {
		t.Errorf("n: placeholder %v ghost %v", ni.IsPlaceholder(), ni.IsGhost())
	}
	if ni := c.AddNode(node("n")); ni.IsGhost() || ni.IsPlaceholder() {
		t.Errorf("re-added n still marked")
	}
}

// TestGetNodeInfo: a node, a placeholder and a ghost are found by name, as
// clones (changing one leaves the cache alone); an unknown name is not.
func TestGetNodeInfo(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(withAlloc(node("n1"), rl("2", "4Gi")))
	c.AddNode(node("gone"))
	mustNil(t, c.AddPod(pod("p1").uid("u1").on("n1").req("500m", "1Gi").obj()))
	mustNil(t, c.AddPod(pod("p2").uid("u2").on("nowhere").req("100m", "").obj()))
	mustNil(t, c.AddPod(pod("p3").uid("u3").on("gone").req("100m", "").obj()))
	mustNil(t, c.RemoveNode(node("gone")))

	n1, ok := c.GetNodeInfo("n1")
	if !ok || n1.Node().Name != "n1" || n1.Requested.MilliCPU != 500 || n1.Requested.Memory != 1<<30 || len(n1.Pods) != 1 || n1.Allocatable.MilliCPU != 2000 {
		t.Errorf("n1: %v %+v", ok, n1)
	}
	n1.Requested.MilliCPU = 9999
	n1.Pods = nil
	if again, _ := c.GetNodeInfo("n1"); again.Requested.MilliCPU != 500 || len(again.Pods) != 1 {
		t.Errorf("changing the returned NodeInfo changed the cache: %+v", again)
	}
	if ph, ok := c.GetNodeInfo("nowhere"); !ok || !ph.IsPlaceholder() || ph.Requested.MilliCPU != 100 {
		t.Errorf("placeholder: %v %+v", ok, ph)
	}
	if g, ok := c.GetNodeInfo("gone"); !ok || !g.IsGhost() || len(g.Pods) != 1 {
		t.Errorf("ghost: %v %+v", ok, g)
	}
	if ni, ok := c.GetNodeInfo("nope"); ok || ni != nil {
		t.Errorf("unknown node: %v %+v", ok, ni)
	}
}

// TestInspectReadsWhatDumpCopies: Inspect hands over the cache's own
// NodeInfos (no copies), which hold what Dump's copies hold, image node
// counts (NodeCount) included in both image models (per node up to v1.28,
// shared from v1.29), and the assumed pods.
func TestInspectReadsWhatDumpCopies(t *testing.T) {
	img := v1.ContainerImage{Names: []string{"img:1"}, SizeBytes: 1000}
	for _, version := range []string{"v1.28", "v1.29"} {
		c := newVersionCache(t, version, 0, nil)
		c.AddNode(withImages(withAlloc(node("i1"), rl("2", "4Gi")), img))
		c.AddNode(withImages(node("i2"), img))
		mustNil(t, c.AddPod(pod("p1").on("i1").req("500m", "1Gi").obj()))
		mustNil(t, c.AssumePod(pod("p2").on("i2").req("100m", "").obj()))
		mustNil(t, c.AddPod(pod("p3").on("nowhere").obj()))
		want := c.Dump()
		c.Inspect(func(d *Dump) {
			if diff := cmp.Diff(want.AssumedPods, d.AssumedPods); diff != "" {
				t.Errorf("%s: assumed pods (-Dump,+Inspect):\n%s", version, diff)
			}
			if len(d.Nodes) != len(want.Nodes) {
				t.Errorf("%s: Inspect has %d NodeInfos, Dump %d", version, len(d.Nodes), len(want.Nodes))
			}
			for name, ni := range d.Nodes {
				if ni != c.nodes[name].info {
					t.Errorf("%s: Inspect's %s is a copy, not the cache's own", version, name)
				}
				w := want.Nodes[name]
				if w == nil || !cmp.Equal(ni.Requested, w.Requested) || len(ni.Pods) != len(w.Pods) || ni.IsPlaceholder() != w.IsPlaceholder() {
					t.Errorf("%s: %s is %+v in Inspect, %+v in Dump", version, name, ni, w)
					continue
				}
				for k, st := range ni.ImageStates {
					if st.Size != w.ImageStates[k].Size || st.NodeCount() != w.ImageStates[k].NumNodes {
						t.Errorf("%s: %s image %s: size %d, %d nodes in Inspect; %+v in Dump", version, name, k, st.Size, st.NodeCount(), *w.ImageStates[k])
					}
				}
			}
		})
	}
}

// TestGetNodeSummary: the totals of a node, a placeholder and a ghost, as
// GetNodeInfo's clone has them; none for a name the cache does not hold.
func TestGetNodeSummary(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(withAlloc(node("n"), rl("2", "4Gi")))
	mustNil(t, c.AddPod(pod("a").on("n").req("100m", "1Gi").obj()))
	mustNil(t, c.AddPod(pod("b").on("n").req("200m", "").obj()))
	mustNil(t, c.AddPod(pod("c").on("gone").req("300m", "").obj()))
	c.AddNode(node("g"))
	mustNil(t, c.AddPod(pod("d").on("g").obj()))
	mustNil(t, c.RemoveNode(node("g")))
	want := map[string]NodeSummary{
		"n":    {Requested: Resource{MilliCPU: 300, Memory: 1 << 30}, Allocatable: Resource{MilliCPU: 2000, Memory: 4 << 30}, Pods: 2},
		"gone": {Requested: Resource{MilliCPU: 300}, Pods: 1, Placeholder: true},
		"g":    {Pods: 1, Ghost: true},
	}
	for name, w := range want {
		got, ok := c.GetNodeSummary(name)
		if !ok || !cmp.Equal(got, w) {
			t.Errorf("%s: %+v, %v; want %+v", name, got, ok, w)
		}
	}
	if _, ok := c.GetNodeSummary("none"); ok {
		t.Error("a summary of a node the cache does not hold")
	}
}

// TestOrderNodeTree: the tree is rebuilt as if the named nodes came first
// in that order (zones first seen, names within a zone), the others after
// in their tree order; unknown names are ignored; a snapshot built before
// rebuilds its node list, another one too.
func TestOrderNodeTree(t *testing.T) {
	c := newTestCache(Options{})
	for _, n := range []*v1.Node{zoned("a1", "r", "a"), zoned("b1", "r", "b"), zoned("a2", "r", "a"), zoned("c1", "r", "c"), zoned("b2", "r", "b")} {
		c.AddNode(n)
	}
	s1, s2 := NewEmptySnapshot(), NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s1))
	names := func(s *Snapshot) string {
		var out []string
		for _, ni := range s.List() {
			out = append(out, ni.Node().Name)
		}
		return strings.Join(out, " ")
	}
	if got := names(s1); got != "a1 b1 c1 a2 b2" {
		t.Fatalf("before: %s", got)
	}
	// b2 before b1 and zone b first; a2 not named: after a1 in zone a; c1
	// not named: zone c after the named zones; gone is ignored.
	c.OrderNodeTree([]string{"b2", "gone", "a1", "b1"})
	mustNil(t, c.UpdateSnapshot(s1))
	mustNil(t, c.UpdateSnapshot(s2))
	for _, s := range []*Snapshot{s1, s2} {
		if got := names(s); got != "b2 a1 c1 b1 a2" {
			t.Errorf("after: %s", got)
		}
	}
	if list, _ := c.NodeTreeList(); strings.Join(list, " ") != "b2 a1 c1 b1 a2" {
		t.Errorf("tree: %v", list)
	}
}
