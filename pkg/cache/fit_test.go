package cache

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestInsufficientResources mirrors NodeResourcesFit's fitsRequest (v1.36.3).
func TestInsufficientResources(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(withAlloc(node("n"), v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("1Gi"),
		v1.ResourcePods: resource.MustParse("2"), "example.com/foo": resource.MustParse("2"),
	}))
	mustNil(t, c.AddPod(pod("used").on("n").req("600m", "512Mi").obj()))
	ni := c.Dump().Nodes["n"]
	gpu := func(n int64) map[v1.ResourceName]int64 { return map[v1.ResourceName]int64{"example.com/foo": n} }
	tests := []struct {
		name string
		req  Resource
		want []string
	}{
		{"fits exactly", Resource{MilliCPU: 400, Memory: 512 * mi}, nil},
		{"cpu", Resource{MilliCPU: 401}, []string{"Insufficient cpu"}},
		{"memory and scalar", Resource{Memory: 513 * mi, ScalarResources: gpu(3)}, []string{"Insufficient memory", "Insufficient example.com/foo"}},
		{"scalar absent from node", Resource{ScalarResources: map[v1.ResourceName]int64{"example.com/bar": 1}}, []string{"Insufficient example.com/bar"}},
		{"zero scalar ignored", Resource{ScalarResources: gpu(0)}, nil},
		{"ephemeral on a node without any", Resource{EphemeralStorage: 1}, []string{"Insufficient ephemeral-storage"}},
		{"no requests: pods only", Resource{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, InsufficientResources(&tc.req, ni)); diff != "" {
				t.Errorf("(-want,+got):\n%s", diff)
			}
		})
	}
	mustNil(t, c.AddPod(pod("second").on("n").obj()))
	if got := InsufficientResources(&Resource{MilliCPU: 1000}, c.Dump().Nodes["n"]); !cmp.Equal(got, []string{"Too many pods", "Insufficient cpu"}) {
		t.Errorf("full node: %v", got)
	}
}
