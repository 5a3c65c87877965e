package cache

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
)

// Up to v1.28 a NodeInfo gets its own image summary when its node is added,
// counting the nodes that report the image so far (K v1.28.15
// internal/cache/cache.go addNodeImageStates → createImageStateSummary);
// from v1.29 the summary is shared and counted when cloned (v1.29.6).
func TestImageNumNodesByVersion(t *testing.T) {
	img := v1.ContainerImage{Names: []string{"img:1"}, SizeBytes: 1000}
	for version, want := range map[string][2]int{"v1.28": {1, 2}, "v1.29": {2, 2}} {
		c := newVersionCache(t, version, 0, nil)
		c.AddNode(withImages(node("i1"), img))
		c.AddNode(withImages(node("i2"), img))
		d := c.Dump()
		got := [2]int{d.Nodes["i1"].ImageStates["img:1"].NumNodes, d.Nodes["i2"].ImageStates["img:1"].NumNodes}
		if got != want {
			t.Errorf("%s: NumNodes of img:1 on i1, i2 = %v, want %v", version, got, want)
		}
	}
}

// The Snapshot keeps the set of used PVCs from v1.25 (K v1.25.16
// internal/cache/cache.go updateNodeInfoSnapshotList); v1.24 has none.
func TestSnapshotUsedPVCSetByVersion(t *testing.T) {
	for version, want := range map[string][]string{"v1.24": nil, "v1.25": {"ns/data"}} {
		c := newVersionCache(t, version, 0, nil)
		c.AddNode(node("n"))
		mustNil(t, c.AddPod(pod("p").on("n").pvc("data").obj()))
		s := NewEmptySnapshot()
		mustNil(t, c.UpdateSnapshot(s))
		var got []string
		if s.UsedPVCSet() != nil {
			got = sortedKeys(s.UsedPVCSet())
		}
		if diff := cmp.Diff(want, got); diff != "" || (want == nil) != (s.UsedPVCSet() == nil) {
			t.Errorf("%s: used PVC set (-want,+got):\n%s (nil: %v)", version, diff, s.UsedPVCSet() == nil)
		}
	}
}

// v1.18–v1.19 build the snapshot list with resetExhausted and NumNodes
// calls of Next(); v1.20+ with List(). For any tree built from scratch the
// two orders agree (docs/versions.md says so): random zone layouts, and the
// v1.19 and v1.20 snapshots of the same cluster.
func TestNextAfterResetEqualsList(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		tree := NewNodeTree(nil)
		for i := 0; i < rng.Intn(40); i++ {
			tree.AddNode(zoned(fmt.Sprintf("n%d", i), "r", fmt.Sprintf("z%d", rng.Intn(5))))
		}
		list, err := tree.List()
		mustNil(t, err)
		for i := 0; i < rng.Intn(10); i++ {
			tree.Next() // cursors left mid-rotation, as a live tree has them
		}
		tree.ResetExhausted()
		var next []string
		for i := 0; i < tree.NumNodes(); i++ {
			next = append(next, tree.Next())
		}
		if diff := cmp.Diff(list, next, cmpEmpty); diff != "" {
			t.Fatalf("layout %d: List and reset+Next differ (-list,+next):\n%s", round, diff)
		}
	}
	order := map[string][]string{}
	for _, version := range []string{"v1.19", "v1.20"} {
		c := newVersionCache(t, version, 0, nil)
		for _, n := range []*v1.Node{zoned("a1", "r", "a"), zoned("a2", "r", "a"), zoned("a3", "r", "a"), zoned("b1", "r", "b")} {
			c.AddNode(n)
		}
		s := NewEmptySnapshot()
		mustNil(t, c.UpdateSnapshot(s))
		for _, ni := range s.List() {
			order[version] = append(order[version], ni.Node().Name)
		}
	}
	want := []string{"a1", "b1", "a2", "a3"}
	if !cmp.Equal(order["v1.19"], want) || !cmp.Equal(order["v1.20"], want) {
		t.Errorf("snapshot orders: v1.19 %v, v1.20 %v; want %v", order["v1.19"], order["v1.20"], want)
	}
}

// The gates each version knows, with their defaults and locks (K
// pkg/features/kube_features.go, versioned_kube_features.go in v1.32).
func TestKnownGates(t *testing.T) {
	tests := map[string][]GateState{
		"v1.18": {{"LocalStorageCapacityIsolation", true, false, Beta}, {"PodOverhead", true, false, Beta}},
		"v1.24": {{"LocalStorageCapacityIsolation", true, false, Beta}, {"PodOverhead", true, true, GA}},
		"v1.26": {{"LocalStorageCapacityIsolation", true, true, GA}},
		"v1.27": {{"InPlacePodVerticalScaling", false, false, Alpha}},
		"v1.32": {{"InPlacePodVerticalScaling", false, false, Alpha}, {"PodLevelResources", false, false, Alpha}},
		"v1.34": {{"InPlacePodVerticalScaling", true, false, Beta}, {"PodLevelResources", true, false, Beta}},
		"v1.35": {{"InPlacePodLevelResourcesVerticalScaling", false, false, Alpha}, {"InPlacePodVerticalScaling", true, true, GA}, {"PodLevelResources", true, false, Beta}},
		"v1.36": {{"DRANodeAllocatableResources", false, false, Alpha}, {"InPlacePodLevelResourcesVerticalScaling", true, false, Beta},
			{"InPlacePodVerticalScaling", true, true, GA}, {"PodLevelResources", true, false, Beta}},
	}
	for s, want := range tests {
		ver, err := ParseVersion(s)
		mustNil(t, err)
		if diff := cmp.Diff(want, KnownGates(ver)); diff != "" {
			t.Errorf("%s: gates (-want,+got):\n%s", s, diff)
		}
	}
	// Gates that do not exist act as the code of that version: overhead and
	// ephemeral storage always counted after their gates went, resize and
	// pod-level resources off before theirs came.
	g := FeatureGatesFor(Version{Minor: 30})
	if !g.PodOverhead || !g.LocalStorageCapacityIsolation || g.PodLevelResources || g.InPlacePodLevelResourcesVerticalScaling {
		t.Errorf("v1.30 gates %+v", g)
	}
	if g := FeatureGatesWith(Version{Minor: 36}, map[string]bool{"InPlacePodVerticalScaling": false, "PodLevelResources": false}); !g.InPlacePodVerticalScaling || g.PodLevelResources {
		t.Errorf("v1.36: a locked gate changed or a free one did not: %+v", g)
	}
}

// The snapshot's generation is the head NodeInfo's (v1.36.3
// backend/cache/cache.go UpdateSnapshot: snapshot.generation =
// headNode.info.Generation), and the head may be a placeholder that the
// snapshot leaves out: docs/output.md says so.
func TestSnapshotGenerationFromPlaceholder(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(node("n1"))
	mustNil(t, c.AddPod(pod("a").on("n1").obj()))
	mustNil(t, c.AddPod(pod("b").on("gone").obj())) // the placeholder is now the head
	s := NewEmptySnapshot()
	mustNil(t, c.UpdateSnapshot(s))
	placeholder := c.Dump().Nodes["gone"]
	if len(s.List()) != 1 || s.Generation() != placeholder.Generation || s.Generation() <= s.List()[0].Generation {
		t.Errorf("snapshot generation %d, nodes %d (n1 at %d), placeholder at %d: want the placeholder's, above n1's",
			s.Generation(), len(s.List()), s.List()[0].Generation, placeholder.Generation)
	}
}
