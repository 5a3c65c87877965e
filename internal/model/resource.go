package model

import (
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// ResourceOf returns r in the output kinds' shape, in the scheduler's units
// (upstream framework.Resource, v1.36): MilliCPU in millicores (a
// fractional millicore already rounded up by cache.NewResource, as
// Quantity.MilliValue does), Memory and EphemeralStorage in bytes,
// AllowedPodNumber in pods, and ScalarResources by name (extended resources
// in their own unit, hugepages in bytes). ScalarResources is nil when r
// holds none, so JSON and YAML omit it.
func ResourceOf(r *cache.Resource) v1alpha1.Resource {
	return v1alpha1.Resource{
		MilliCPU: r.MilliCPU, Memory: r.Memory, EphemeralStorage: r.EphemeralStorage,
		AllowedPodNumber: r.AllowedPodNumber, ScalarResources: ScalarsOf(r.ScalarResources),
	}
}

// NonZeroOf returns the cpu and memory of a NodeInfo's NonZeroRequested
// (millicores, bytes) in the output kinds' shape.
func NonZeroOf(r *cache.Resource) v1alpha1.NonZeroResource {
	return v1alpha1.NonZeroResource{MilliCPU: r.MilliCPU, Memory: r.Memory}
}

// ScalarsOf copies a scalar-resource map keyed by any string type (the
// cache's v1.ResourceName, a scheduler dump's string) into the output kinds'
// map[string]int64; nil when m is empty.
func ScalarsOf[K ~string](m map[K]int64) map[string]int64 {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}
