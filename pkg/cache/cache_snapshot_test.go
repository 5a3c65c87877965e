package cache

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

func mruOrder(c *cacheImpl) []string {
	var out []string
	for item := c.headNode; item != nil; item = item.next {
		if n := item.info.Node(); n != nil {
			out = append(out, n.Name)
		} else {
			out = append(out, "<nil>")
		}
	}
	return out
}

func n(i int) *v1.Node { return node(fmt.Sprintf("node-%d", i)) }
func pn(i int) *v1.Pod { return pod("p").on(fmt.Sprintf("node-%d", i)).req("100m", "").obj() }

// TestUpdateSnapshotOrder mirrors vector 24 (upstream
// TestSchedulerCache_UpdateSnapshot, v1.36.3): the recency list order after
// each sequence, and snapshot consistency.
func TestUpdateSnapshotOrder(t *testing.T) {
	snap := func(c *cacheImpl, s *Snapshot) error { return c.UpdateSnapshot(s) }
	tests := []struct {
		name string
		ops  []func(c *cacheImpl, s *Snapshot) error
		want []string
	}{
		{"add with snapshots between", []func(*cacheImpl, *Snapshot) error{an(0), snap, an(1), snap, an(2), snap, an(3)},
			[]string{"node-3", "node-2", "node-1", "node-0"}},
		{"add only", []func(*cacheImpl, *Snapshot) error{an(0), an(2), an(5), an(6)}, []string{"node-6", "node-5", "node-2", "node-0"}},
		{"update moves to head", []func(*cacheImpl, *Snapshot) error{an(0), an(1), an(5), snap, un(1)}, []string{"node-1", "node-5", "node-0"}},
		{"update of unknown creates", []func(*cacheImpl, *Snapshot) error{an(8), un(2), un(8), snap, an(1)}, []string{"node-1", "node-8", "node-2"}},
		{"pods move nodes to head", []func(*cacheImpl, *Snapshot) error{an(0), an(2), an(8), snap, ap(8), ap2(2)}, []string{"node-2", "node-8", "node-0"}},
		{"update pod", []func(*cacheImpl, *Snapshot) error{an(0), ap(0), an(2), an(4), up(0)}, []string{"node-0", "node-4", "node-2"}},
		{"placeholder then node", []func(*cacheImpl, *Snapshot) error{an(0), ap(1), up(1), an(1)}, []string{"node-1", "node-0"}},
		{"remove nodes", []func(*cacheImpl, *Snapshot) error{an(0), an(2), an(5), an(6), snap, rn(0), rn(6)}, []string{"node-5", "node-2"}},
		{"add, remove, add again", []func(*cacheImpl, *Snapshot) error{an(1), snap, rn(1), an(1)}, []string{"node-1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestCache(Options{})
			s := NewEmptySnapshot()
			for i, o := range tc.ops {
				if err := o(c, s); err != nil {
					t.Fatalf("op %d: %v", i, err)
				}
			}
			if diff := cmp.Diff(tc.want, mruOrder(c)); diff != "" {
				t.Errorf("recency order (-want,+got):\n%s", diff)
			}
			mustNil(t, c.UpdateSnapshot(s))
			checkSnapshotConsistent(t, c, s)
		})
	}
}

func an(i int) func(*cacheImpl, *Snapshot) error {
	return func(c *cacheImpl, _ *Snapshot) error { c.AddNode(n(i)); return nil }
}
func un(i int) func(*cacheImpl, *Snapshot) error {
	return func(c *cacheImpl, _ *Snapshot) error { c.UpdateNode(n(i), n(i)); return nil }
}
func rn(i int) func(*cacheImpl, *Snapshot) error {
	return func(c *cacheImpl, _ *Snapshot) error { return c.RemoveNode(n(i)) }
}
func ap(i int) func(*cacheImpl, *Snapshot) error {
	return func(c *cacheImpl, _ *Snapshot) error { return c.AddPod(pn(i)) }
}
func ap2(i int) func(*cacheImpl, *Snapshot) error {
	return func(c *cacheImpl, _ *Snapshot) error { return c.AddPod(pod("p2").on(fmt.Sprintf("node-%d", i)).obj()) }
}
func up(i int) func(*cacheImpl, *Snapshot) error {
	return func(c *cacheImpl, _ *Snapshot) error { return c.UpdatePod(pn(i), pn(i)) }
}

// checkSnapshotConsistent asserts len(map) == len(list) == tree size, and
// that the list follows the tree order.
func checkSnapshotConsistent(t *testing.T, c *cacheImpl, s *Snapshot) {
	t.Helper()
	checkSnapshotSizes(t, c, s)
	names, err := c.nodeTree.List()
	mustNil(t, err)
	for i, ni := range s.nodeInfoList {
		if ni.Node().Name != names[i] {
			t.Fatalf("snapshot list[%d] = %s, tree order says %s", i, ni.Node().Name, names[i])
		}
	}
}

// checkSnapshotSizes asserts len(map) == len(list) == tree size.
func checkSnapshotSizes(t *testing.T, c *cacheImpl, s *Snapshot) {
	t.Helper()
	if len(s.nodeInfoMap) != len(s.nodeInfoList) || len(s.nodeInfoList) != c.nodeTree.NumNodes() {
		t.Fatalf("inconsistent snapshot: map %d, list %d, tree %d", len(s.nodeInfoMap), len(s.nodeInfoList), c.nodeTree.NumNodes())
	}
}

// TestUsedPVCSet mirrors vector 25 (upstream TestCreateUsedPVCSet), through
// UpdateSnapshot rather than the NewSnapshot test helper.
func TestUsedPVCSet(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(node("node-1"))
	c.AddNode(node("node-2"))
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	if s.UsedPVCSet().Len() != 0 {
		t.Fatalf("empty cache has PVCs %v", s.UsedPVCSet())
	}
	mustNil(t, c.AddPod(pod("foo").ns("foo").on("node-1").pvc("pvc1").obj()))
	mustNil(t, c.AddPod(pod("bar").ns("bar").on("node-2").pvc("pvc2").obj()))
	mustNil(t, c.AddPod(pod("plain").on("node-2").obj()))
	mustNil(t, c.AddPod(pod("ghostpod").on("gone").pvc("pvc3").obj())) // placeholder: not in the snapshot
	mustNil(t, c.UpdateSnapshot(s))
	if diff := cmp.Diff(sets.List(sets.New("foo/pvc1", "bar/pvc2")), sets.List(s.UsedPVCSet())); diff != "" {
		t.Errorf("usedPVCSet (-want,+got):\n%s", diff)
	}
	mustNil(t, c.RemovePod(pod("foo").ns("foo").on("node-1").obj()))
	mustNil(t, c.UpdateSnapshot(s))
	if diff := cmp.Diff([]string{"bar/pvc2"}, sets.List(s.UsedPVCSet())); diff != "" {
		t.Errorf("usedPVCSet after removal (-want,+got):\n%s", diff)
	}
}

func TestSnapshotAffinityLists(t *testing.T) {
	anti := &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{TopologyKey: "x"}}}}
	c := newTestCache(Options{})
	for i := 0; i < 3; i++ {
		c.AddNode(n(i))
	}
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	mustNil(t, c.AddPod(pod("a").on("node-2").affinity(anti).obj()))
	mustNil(t, c.AddPod(pod("b").on("node-0").affinity(&v1.Affinity{PodAffinity: &v1.PodAffinity{}}).obj()))
	mustNil(t, c.UpdateSnapshot(s))
	if got := names(s.HavePodsWithAffinityList()); !cmp.Equal(got, []string{"node-0", "node-2"}) {
		t.Errorf("HavePodsWithAffinityList = %v", got)
	}
	if got := names(s.HavePodsWithRequiredAntiAffinityList()); !cmp.Equal(got, []string{"node-2"}) {
		t.Errorf("HavePodsWithRequiredAntiAffinityList = %v", got)
	}
}

func names(nis []*NodeInfo) []string {
	var out []string
	for _, ni := range nis {
		out = append(out, ni.Node().Name)
	}
	return out
}

// TestSnapshotIncremental: only changed nodes are re-cloned, and a zone move
// alone does not reorder the list (v1.36.3 backend/cache/cache.go
// UpdateSnapshot rebuilds it only when nodes come or go).
func TestSnapshotIncremental(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(zoned("a", "r", "z1"))
	c.AddNode(zoned("b", "r", "z1"))
	c.AddNode(zoned("c", "r", "z2"))
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	before := map[string]*NodeInfo{}
	for name, ni := range s.nodeInfoMap {
		before[name] = ni
	}
	untouchedA := *s.nodeInfoMap["a"]
	mustNil(t, c.AddPod(pod("p").on("b").req("1", "").obj()))
	mustNil(t, c.UpdateSnapshot(s))
	if s.nodeInfoMap["a"].Generation != untouchedA.Generation {
		t.Errorf("unchanged node a was re-cloned")
	}
	if s.nodeInfoMap["b"] != before["b"] || s.nodeInfoMap["b"].Requested.MilliCPU != 1000 {
		t.Errorf("node b not updated in place")
	}
	c.UpdateNode(zoned("a", "r", "z1"), zoned("a", "r", "z2"))
	mustNil(t, c.UpdateSnapshot(s))
	if got := names(s.List()); !cmp.Equal(got, []string{"a", "c", "b"}) {
		// tree order is now z1:[b], z2:[c, a] → b, c, a; the list keeps the old order
		// until a node is added or removed.
		t.Errorf("list after zone move = %v, want the old order [a c b]", got)
	}
	c.AddNode(zoned("d", "r", "z1"))
	mustNil(t, c.UpdateSnapshot(s))
	if got := names(s.List()); !cmp.Equal(got, []string{"b", "c", "d", "a"}) {
		t.Errorf("list after adding d = %v", got)
	}
}

// TestSnapshotInconsistent: a tree that lists more names than the map holds
// yields upstream's error, and the next call has recovered.
func TestSnapshotInconsistent(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(n(0))
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	c.nodeTree.AddNode(n(1)) // in the tree but not in the cache: an impossible state upstream guards against
	err := c.UpdateSnapshot(s)
	wantErr(t, err, "snapshot state is not consistent, length of NodeInfoList=1 not equal to length of nodes in tree=2 , length of NodeInfoMap=1, length of nodes in cache=1, trying to recover")
}

// freshSnapshotOf builds the snapshot a new cache fed the same final objects
// makes from scratch.
func freshSnapshotOf(t *testing.T, nodes []*v1.Node, pods []*v1.Pod) *Snapshot {
	t.Helper()
	c := newTestCache(Options{})
	for _, nd := range nodes {
		c.AddNode(nd)
	}
	for _, p := range pods {
		mustNil(t, c.AddPod(p))
	}
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	return s
}

// snapshotView reduces a snapshot to comparable facts, independent of
// generations and pod order inside a node.
func snapshotView(s *Snapshot) map[string]string {
	out := map[string]string{}
	for name, ni := range s.nodeInfoMap {
		var pods []string
		for _, pi := range ni.Pods {
			pods = append(pods, string(pi.Pod.UID))
		}
		sort.Strings(pods)
		out[name] = fmt.Sprintf("pods=%v req=%v nz=%v alloc=%v ports=%d pvcs=%v aff=%d anti=%d",
			pods, ni.Requested, ni.NonZeroRequested, ni.Allocatable, ni.UsedPorts.Len(), ni.PVCRefCounts,
			len(ni.PodsWithAffinity), len(ni.PodsWithRequiredAntiAffinity))
	}
	out["<pvcs>"] = fmt.Sprint(sets.List(s.usedPVCSet))
	out["<affinity>"] = fmt.Sprint(sortedNames(s.havePodsWithAffinity))
	out["<anti>"] = fmt.Sprint(sortedNames(s.havePodsWithRequiredAntiAffinity))
	return out
}

func sortedNames(nis []*NodeInfo) []string {
	out := names(nis)
	sort.Strings(out)
	return out
}

// TestUsedPVCSetFollowsTheList: the set kept as nodes change (pvcUsers)
// is at every step the keys of the listed nodes, as upstream's rebuild
// gives it, also while the list leaves out a node of the map (a tree that
// lost a node the cache still has) and after it takes the node back.
func TestUsedPVCSetFollowsTheList(t *testing.T) {
	c := newTestCache(Options{})
	s := NewEmptySnapshot()
	check := func(step string) {
		t.Helper()
		mustNil(t, c.UpdateSnapshot(s))
		want := sets.New[string]()
		for _, ni := range s.List() {
			for k := range ni.PVCRefCounts {
				want.Insert(k)
			}
		}
		if diff := cmp.Diff(sets.List(want), sets.List(s.UsedPVCSet())); diff != "" {
			t.Errorf("%s: usedPVCSet (-listed,+got):\n%s", step, diff)
		}
	}
	c.AddNode(n(0))
	c.AddNode(n(1))
	mustNil(t, c.AddPod(pod("a").on("node-0").pvc("shared").obj()))
	mustNil(t, c.AddPod(pod("b").on("node-1").pvc("shared").obj()))
	mustNil(t, c.AddPod(pod("c").on("node-1").pvc("own").obj()))
	check("two nodes share a claim")
	mustNil(t, c.RemovePod(pod("a").on("node-0").obj()))
	check("one user of the shared claim left")
	mustNil(t, c.RemoveNode(n(1))) // its pods stay: a ghost, out of the snapshot
	check("node-1 removed")
	c.AddNode(n(1))
	check("node-1 back")
	mustNil(t, c.nodeTree.RemoveNode(n(1))) // the cache keeps node-1; the list loses it
	c.AddNode(n(2))
	mustNil(t, c.AddPod(pod("d").on("node-2").pvc("third").obj()))
	check("node-1 in the map, not in the list")
	mustNil(t, c.AddPod(pod("e").on("node-0").pvc("zero").obj()))
	check("a claim added while the list leaves node-1 out")
	c.nodeTree.AddNode(n(1))
	c.AddNode(n(3))
	check("node-1 listed again")
	mustNil(t, c.RemovePod(pod("b").on("node-1").obj()))
	check("a claim of node-1 gone")
}
