package cache

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"
	testingclock "k8s.io/utils/clock/testing"
)

// world is the fixed universe the random operation sequences draw from:
// node variants (zone and allocatable change) and pod variants (node,
// requests, ports, PVCs and affinity change) for a handful of names/UIDs.
type world struct {
	nodes [][]*v1.Node // [name][variant]
	pods  [][]*v1.Pod  // [uid][variant]
}

func newWorld() *world {
	w := &world{}
	zones := []string{"a", "b", "c"}
	for i := 0; i < 5; i++ {
		var variants []*v1.Node
		for v := 0; v < 3; v++ {
			nd := zoned(fmt.Sprintf("n%d", i), "r", zones[(i+v)%3])
			if i == 4 && v == 0 {
				nd = node("n4") // unlabelled: zone ""
			}
			nd.Status.Allocatable = v1.ResourceList{v1.ResourceCPU: resource.MustParse(fmt.Sprintf("%d", 2+v)), v1.ResourcePods: resource.MustParse("110")}
			nd.Status.Images = []v1.ContainerImage{{Names: []string{fmt.Sprintf("img%d", (i+v)%4)}, SizeBytes: int64(100 * (i + 1))}}
			variants = append(variants, nd)
		}
		w.nodes = append(w.nodes, variants)
	}
	anti := &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{TopologyKey: "x"}}}}
	for i := 0; i < 10; i++ {
		var variants []*v1.Pod
		for v := 0; v < 3; v++ {
			b := pod(fmt.Sprintf("p%d", i)).on(fmt.Sprintf("n%d", (i+v)%6)).req(fmt.Sprintf("%dm", 100*(v+1)), "")
			if v == 1 {
				// Host ports are unique per pod: UsedPorts is a set, so two pods
				// sharing a port on a node would (faithfully) make the
				// incremental result differ from a fresh build; that quirk has
				// its own test.
				b.init("500m", "1Gi", i%2 == 0).hostPort("", "", int32(8000+i)).pvc(fmt.Sprintf("c%d", i%3))
			}
			if v == 2 && i%3 == 0 {
				b.affinity(anti)
			}
			variants = append(variants, b.obj())
		}
		w.pods = append(w.pods, variants)
	}
	return w
}

// runOps applies n random operations chosen by pick and checks the
// invariants after each one.
func runOps(t *testing.T, n int, pick func(k int) int) {
	w := newWorld()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := testingclock.NewFakePassiveClock(start)
	c := newTestCache(Options{TTL: 30 * time.Second, Clock: clk})
	snap := NewEmptySnapshot()
	for step := 0; step < n; step++ {
		nd := w.nodes[pick(len(w.nodes))][pick(3)]
		p := w.pods[pick(len(w.pods))][pick(3)]
		switch pick(12) {
		case 0:
			// The informer sends Add only for nodes the cache lacks; an Add of
			// a known node in another zone would duplicate it in the tree, as
			// upstream (see TestAddNodeTwiceInAnotherZone).
			if cur := c.Dump().Nodes[nd.Name]; cur == nil || cur.Node() == nil {
				c.AddNode(nd)
			}
		case 1:
			if cur := c.Dump().Nodes[nd.Name]; cur != nil && cur.Node() != nil {
				c.UpdateNode(cur.Node(), nd)
			}
		case 2:
			if cur := c.Dump().Nodes[nd.Name]; cur != nil && cur.Node() != nil {
				_ = c.RemoveNode(cur.Node())
			}
		case 3:
			_ = c.AssumePod(p)
		case 4:
			_ = c.FinishBinding(p)
		case 5:
			_ = c.ForgetPod(p)
		case 6, 7:
			_ = c.AddPod(p)
		case 8:
			if old, err := c.GetPod(p); err == nil && old.Spec.NodeName == p.Spec.NodeName {
				_ = c.UpdatePod(old, p)
			}
		case 9:
			if old, err := c.GetPod(p); err == nil {
				_ = c.RemovePod(old)
			}
		case 10:
			clk.SetTime(clk.Now().Add(time.Duration(pick(20)) * time.Second))
			c.Cleanup(clk.Now())
		case 11:
			if err := c.UpdateSnapshot(snap); err != nil {
				t.Fatalf("step %d: UpdateSnapshot: %v", step, err)
			}
		}
		checkInvariants(t, step, c)
	}
	mustNil(t, c.UpdateSnapshot(snap))
	// Zone moves leave the list in its old order until nodes are added or
	// removed (as upstream), so only the sizes are checked here.
	checkSnapshotSizes(t, c, snap)
	checkAgainstFresh(t, c, snap)
}

func checkInvariants(t *testing.T, step int, c *cacheImpl) {
	t.Helper()
	gates := DefaultFeatureGates()
	treeNames := sets.New[string]()
	for _, z := range c.nodeTree.Zones() {
		treeNames.Insert(c.nodeTree.ZoneNodes(z)...)
	}
	withNode := sets.New[string]()
	for name, item := range c.nodes {
		ni := item.info
		if ni.Node() != nil {
			withNode.Insert(name)
		}
		var want Resource
		var nzCPU, nzMem int64
		for _, pi := range ni.Pods {
			r := ComputePodResource(pi.Pod, gates)
			want.MilliCPU += r.Resource.MilliCPU
			want.Memory += r.Resource.Memory
			nzCPU += r.NonZeroMilliCPU
			nzMem += r.NonZeroMemory
		}
		if ni.Requested.MilliCPU != want.MilliCPU || ni.Requested.Memory != want.Memory ||
			ni.NonZeroRequested.MilliCPU != nzCPU || ni.NonZeroRequested.Memory != nzMem {
			t.Fatalf("step %d: node %s requested %v nonzero %v, pods sum to %dm/%d nonzero %dm/%d",
				step, name, ni.Requested, ni.NonZeroRequested, want.MilliCPU, want.Memory, nzCPU, nzMem)
		}
		if len(ni.Pods) == 0 && ni.Node() == nil {
			t.Fatalf("step %d: empty placeholder/ghost %s kept", step, name)
		}
	}
	if !treeNames.Equal(withNode) || c.nodeTree.NumNodes() != withNode.Len() {
		t.Fatalf("step %d: tree %v (numNodes %d), nodes with objects %v", step, sets.List(treeNames), c.nodeTree.NumNodes(), sets.List(withNode))
	}
	for key := range c.assumedPods {
		if _, ok := c.podStates[key]; !ok {
			t.Fatalf("step %d: assumed pod %s has no state", step, key)
		}
	}
	if n, _ := c.PodCount(); n != len(c.podStates) {
		t.Fatalf("step %d: PodCount %d, pod states %d", step, n, len(c.podStates))
	}
}

// checkAgainstFresh compares the incrementally maintained snapshot with the
// one a fresh cache builds from the final node and pod objects.
func checkAgainstFresh(t *testing.T, c *cacheImpl, s *Snapshot) {
	t.Helper()
	var nodes []*v1.Node
	for _, item := range c.nodes {
		if item.info.Node() != nil {
			nodes = append(nodes, item.info.Node())
		}
	}
	var pods []*v1.Pod
	for _, ps := range c.podStates {
		pods = append(pods, ps.pod)
	}
	fresh := freshSnapshotOf(t, nodes, pods)
	got, want := snapshotView(s), snapshotView(fresh)
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("incremental snapshot differs from fresh at %s:\n got  %s\n want %s", k, got[k], want[k])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("incremental snapshot has %d entries, fresh %d", len(got), len(want))
	}
}

func TestRandomOperations(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 0))
			runOps(t, 1500, r.IntN)
		})
	}
}

// FuzzCacheOps drives the same operations from fuzzer bytes:
// go test -fuzz FuzzCacheOps ./pkg/cache
func FuzzCacheOps(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add([]byte("assume-add-remove-snapshot"))
	f.Fuzz(func(t *testing.T, data []byte) {
		i := 0
		pick := func(k int) int {
			if len(data) == 0 {
				return 0
			}
			b := data[i%len(data)]
			i++
			return int(b) % k
		}
		runOps(t, len(data)*2, pick)
	})
}
