package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

func pd(name, uid string, cpu int64) v1alpha1.PodDump {
	return v1alpha1.PodDump{Namespace: "ns", Name: name, UID: uid, State: "Added", Phase: "Running", Requested: v1alpha1.Resource{MilliCPU: cpu}}
}

func dump(nodes ...v1alpha1.NodeDump) *v1alpha1.CacheDump { return &v1alpha1.CacheDump{Nodes: nodes} }

func TestDumps(t *testing.T) {
	a := dump(
		v1alpha1.NodeDump{Name: "n1", Generation: 3, Requested: v1alpha1.Resource{MilliCPU: 300, ScalarResources: map[string]int64{"example.com/gpu": 1}},
			Pods: []v1alpha1.PodDump{pd("a", "u-a", 100), pd("b", "u-b", 200)}, UsedPorts: []string{"0.0.0.0/TCP/80"}},
		v1alpha1.NodeDump{Name: "n2", Generation: 4},
		v1alpha1.NodeDump{Name: "old", Generation: 1},
	)
	b := dump(
		v1alpha1.NodeDump{Name: "n1", Generation: 9, Requested: v1alpha1.Resource{MilliCPU: 450},
			Pods: []v1alpha1.PodDump{pd("a", "u-a", 150), pd("c", "u-c", 300)}, UsedPorts: []string{"0.0.0.0/TCP/8080"}},
		v1alpha1.NodeDump{Name: "n2", Generation: 7}, // only the generation moved
		v1alpha1.NodeDump{Name: "new", Generation: 8},
	)
	got := Dumps(a, b, "a", "b")
	want := &v1alpha1.CacheDiff{
		Compared: "CacheDump", From: "a", To: "b", Differences: 8,
		AddedNodes: []string{"new"}, RemovedNodes: []string{"old"},
		Nodes: []v1alpha1.NodeDiff{
			{
				Name: "n1",
				Changes: []v1alpha1.FieldChange{
					{Field: "requested.milliCPU", From: "300", To: "450"},
					{Field: "requested.scalarResources[example.com/gpu]", From: "1", To: "0"},
					{Field: "usedPorts", From: "0.0.0.0/TCP/80", To: "0.0.0.0/TCP/8080"},
				},
				AddedPods:   []v1alpha1.PodRef{{Namespace: "ns", Name: "c", UID: "u-c"}},
				RemovedPods: []v1alpha1.PodRef{{Namespace: "ns", Name: "b", UID: "u-b"}},
				ChangedPods: []v1alpha1.PodChange{{PodRef: v1alpha1.PodRef{Namespace: "ns", Name: "a", UID: "u-a"},
					Changes: []v1alpha1.FieldChange{{Field: "requested.milliCPU", From: "100", To: "150"}}}},
				Generation: &v1alpha1.Int64Change{From: 3, To: 9},
			},
			{Name: "n2", Generation: &v1alpha1.Int64Change{From: 4, To: 7}},
		},
	}
	v1alpha1.SetKind(want, "CacheDiff")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIdenticalButGenerations(t *testing.T) {
	a := dump(v1alpha1.NodeDump{Name: "n", Generation: 1, Pods: []v1alpha1.PodDump{pd("a", "u", 1)}})
	b := dump(v1alpha1.NodeDump{Name: "n", Generation: 2, Pods: []v1alpha1.PodDump{pd("a", "u", 1)}})
	if d := Dumps(a, b, "", ""); !d.Identical || d.Differences != 0 || len(d.Nodes) != 1 {
		t.Errorf("got %+v; want identical with one generation change reported", d)
	}
	if d := Dumps(a, a, "", ""); !d.Identical || len(d.Nodes) != 0 {
		t.Errorf("a vs a: %+v", d)
	}
}

func TestSnapshots(t *testing.T) {
	a := &v1alpha1.Snapshot{Generation: 10,
		Nodes:                []v1alpha1.SnapshotNode{{Name: "n1", Generation: 5, Pods: 2}, {Name: "n2", Generation: 6}, {Name: "n3", Generation: 7}},
		HavePodsWithAffinity: []string{"n1"}, UsedPVCSet: []string{"ns/a"}}
	b := &v1alpha1.Snapshot{Generation: 12,
		Nodes:                []v1alpha1.SnapshotNode{{Name: "n2", Generation: 6}, {Name: "n1", Generation: 11, Pods: 3}, {Name: "n4", Generation: 12}},
		HavePodsWithAffinity: []string{"n1", "n2"}, UsedPVCSet: []string{"ns/b"}}
	got := Snapshots(a, b, "a", "b")
	want := &v1alpha1.CacheDiff{
		Compared: "Snapshot", From: "a", To: "b", Differences: 8,
		Generation: &v1alpha1.Int64Change{From: 10, To: 12},
		AddedNodes: []string{"n4"}, RemovedNodes: []string{"n3"},
		Nodes: []v1alpha1.NodeDiff{
			{Name: "n1", Changes: []v1alpha1.FieldChange{{Field: "pods", From: "2", To: "3"}, {Field: "position", From: "1", To: "2"}}, Generation: &v1alpha1.Int64Change{From: 5, To: 11}},
			{Name: "n2", Changes: []v1alpha1.FieldChange{{Field: "position", From: "2", To: "1"}}},
		},
		Lists: []v1alpha1.ListChange{
			{List: "havePodsWithAffinity", Added: []string{"n2"}, Removed: []string{}},
			{List: "usedPVCSet", Added: []string{"ns/b"}, Removed: []string{"ns/a"}},
		},
	}
	v1alpha1.SetKind(want, "CacheDiff")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
