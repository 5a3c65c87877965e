package scaleup

import (
	"math"
	"reflect"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func requests(cpu, mem string) v1.ResourceRequirements {
	return v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu), v1.ResourceMemory: resource.MustParse(mem)}}
}

// Least-waste (cluster-autoscaler expander/waste): 2 nodes of capacity
// 4 cpu / 8Gi for 2 pods of 1 cpu / 2Gi each (plus an init container of 3
// cpu / 6Gi, which least-waste does not count): cpu (8000m - 2000m) / 8000m
// = 0.75, memory (16Gi - 4Gi) / 16Gi = 0.75. Capacity, not allocatable
// (3 cpu here), is the denominator.
func TestWasteOf(t *testing.T) {
	n := groupNode("a", "pool-a", true)
	n.Status.Allocatable = v1.ResourceList{v1.ResourceCPU: resource.MustParse("3"), v1.ResourceMemory: resource.MustParse("6Gi")}
	p := &v1.Pod{Spec: v1.PodSpec{InitContainers: []v1.Container{{Resources: requests("3", "6Gi")}}, Containers: []v1.Container{{Resources: requests("1", "2Gi")}}}}
	w, ok := WasteOf(n, 2, []*v1.Pod{p, p})
	if !ok || w.CPU != 0.75 || w.Memory != 0.75 || w.Score() != 1.5 {
		t.Errorf("got %+v (%v), want 0.75 and 0.75", w, ok)
	}
	if _, ok := WasteOf(n, 0, nil); ok {
		t.Error("no node: no waste")
	}
	n.Status.Capacity = nil // hand-written node: allocatable instead
	if w, _ := WasteOf(n, 1, []*v1.Pod{p}); math.Abs(w.CPU-2.0/3) > 1e-12 || w.Memory != 4.0/6 {
		t.Errorf("from allocatable: got %+v, want 2/3 and 2/3", w)
	}
}

// a (0.25 + 0.75) and b (0.5 + 0.5) tie at exactly 1.0; c scores 1.2:
// least-waste keeps a and b (cluster-autoscaler then picks one at random).
func TestLeastWaste(t *testing.T) {
	opts := []Option{{"c", Waste{0.9, 0.3}}, {"b", Waste{0.5, 0.5}}, {"a", Waste{0.25, 0.75}}}
	if got := LeastWaste(opts); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("got %v, want the tie a, b", got)
	}
	opts[1].Waste.CPU = 0.4
	if got := LeastWaste(opts); !reflect.DeepEqual(got, []string{"b"}) {
		t.Errorf("got %v, want b", got)
	}
	if got := LeastWaste(nil); got != nil {
		t.Errorf("got %v, want none", got)
	}
}
