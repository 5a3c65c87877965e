package model

import (
	"reflect"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestResourceOf feeds resource lists through cache.NewResource (the
// scheduler's framework.NewResource, v1.36.3) and ResourceOf; every
// expected number is worked out by hand from the quantity strings.
func TestResourceOf(t *testing.T) {
	q := resource.MustParse
	tests := []struct {
		name string
		rl   v1.ResourceList
		want v1alpha1.Resource
	}{
		{"empty", v1.ResourceList{}, v1alpha1.Resource{}},
		{"cores and binary memory", v1.ResourceList{v1.ResourceCPU: q("2"), v1.ResourceMemory: q("1Gi"), v1.ResourcePods: q("110")},
			v1alpha1.Resource{MilliCPU: 2000, Memory: 1 << 30, AllowedPodNumber: 110}},
		// Quantity.MilliValue rounds up: 0.1m is 1m, 250.5m is 251m.
		{"fractional millicore", v1.ResourceList{v1.ResourceCPU: q("0.0001")}, v1alpha1.Resource{MilliCPU: 1}},
		{"fractional millicores", v1.ResourceList{v1.ResourceCPU: q("250.5m")}, v1alpha1.Resource{MilliCPU: 251}},
		// Quantity.Value rounds up too: 1.5 bytes is 2, 100m bytes is 1.
		{"fractional bytes", v1.ResourceList{v1.ResourceMemory: q("1.5"), v1.ResourceEphemeralStorage: q("100m")},
			v1alpha1.Resource{Memory: 2, EphemeralStorage: 1}},
		{"decimal ephemeral-storage", v1.ResourceList{v1.ResourceEphemeralStorage: q("10G")}, v1alpha1.Resource{EphemeralStorage: 10_000_000_000}},
		{"hugepages in bytes", v1.ResourceList{"hugepages-2Mi": q("4Mi"), "hugepages-1Gi": q("0")},
			v1alpha1.Resource{ScalarResources: map[string]int64{"hugepages-2Mi": 4 << 20, "hugepages-1Gi": 0}}},
		{"extended resources in their unit", v1.ResourceList{"nvidia.com/gpu": q("2"), "example.com/foo": q("1k")},
			v1alpha1.Resource{ScalarResources: map[string]int64{"nvidia.com/gpu": 2, "example.com/foo": 1000}}},
		{"kubernetes.io and attachable volumes", v1.ResourceList{"kubernetes.io/batch-cpu": q("3"), "attachable-volumes-aws-ebs": q("39")},
			v1alpha1.Resource{ScalarResources: map[string]int64{"kubernetes.io/batch-cpu": 3, "attachable-volumes-aws-ebs": 39}}},
		// Names the scheduler does not track are dropped.
		{"untracked names dropped", v1.ResourceList{"storage": q("1Gi"), "requests.example.com/x": q("1")}, v1alpha1.Resource{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ResourceOf(cache.NewResource(tt.rl)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ResourceOf(%v) = %+v, want %+v", tt.rl, got, tt.want)
			}
		})
	}
}

func TestResourceOfCopiesScalars(t *testing.T) {
	r := &cache.Resource{ScalarResources: map[v1.ResourceName]int64{"example.com/gpu": 1}}
	got := ResourceOf(r)
	got.ScalarResources["example.com/gpu"] = 5
	if r.ScalarResources["example.com/gpu"] != 1 {
		t.Errorf("writing ResourceOf's result changed the cache's Resource")
	}
}

func TestScalarsOf(t *testing.T) {
	if got := ScalarsOf(map[string]int64{}); got != nil {
		t.Errorf("ScalarsOf(empty) = %v, want nil", got)
	}
	if got := ScalarsOf[v1.ResourceName](nil); got != nil {
		t.Errorf("ScalarsOf(nil) = %v, want nil", got)
	}
	want := map[string]int64{"hugepages-2Mi": 2 << 20, "example.com/gpu": 1}
	if got := ScalarsOf(map[v1.ResourceName]int64{"hugepages-2Mi": 2 << 20, "example.com/gpu": 1}); !reflect.DeepEqual(got, want) {
		t.Errorf("ScalarsOf = %v, want %v", got, want)
	}
}

func TestNonZeroOf(t *testing.T) {
	r := &cache.Resource{MilliCPU: 100, Memory: 200 << 20, EphemeralStorage: 7}
	if got, want := NonZeroOf(r), (v1alpha1.NonZeroResource{MilliCPU: 100, Memory: 200 << 20}); got != want {
		t.Errorf("NonZeroOf = %+v, want %+v", got, want)
	}
}
