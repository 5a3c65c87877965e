package cache

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
)

// InsufficientResources returns why a pod requesting req does not fit on ni
// by resources, as kube-scheduler v1.36's NodeResourcesFit filter words it
// ("Too many pods", "Insufficient cpu", "Insufficient <scalar>"); nil means it
// fits. req is the pod's Requested (ComputePodResource(...).Resource, not the
// NonZero values). Only resources the pod requests are checked; a pod that
// requests nothing is checked for the pod count only. Scalar reasons come in
// name order. No extended resources are ignored and none are delegated to DRA
// (the default scheduler configuration).
func InsufficientResources(req *Resource, ni *NodeInfo) []string {
	var reasons []string
	if int64(len(ni.Pods))+1 > ni.Allocatable.AllowedPodNumber {
		reasons = append(reasons, "Too many pods")
	}
	free := func(alloc, used int64) int64 { return alloc - used }
	if req.MilliCPU > 0 && req.MilliCPU > free(ni.Allocatable.MilliCPU, ni.Requested.MilliCPU) {
		reasons = append(reasons, "Insufficient cpu")
	}
	if req.Memory > 0 && req.Memory > free(ni.Allocatable.Memory, ni.Requested.Memory) {
		reasons = append(reasons, "Insufficient memory")
	}
	if req.EphemeralStorage > 0 && req.EphemeralStorage > free(ni.Allocatable.EphemeralStorage, ni.Requested.EphemeralStorage) {
		reasons = append(reasons, "Insufficient ephemeral-storage")
	}
	names := make([]string, 0, len(req.ScalarResources))
	for name := range req.ScalarResources {
		names = append(names, string(name))
	}
	sort.Strings(names)
	for _, name := range names {
		rn := v1.ResourceName(name)
		q := req.ScalarResources[rn]
		if q != 0 && q > free(ni.Allocatable.ScalarResources[rn], ni.Requested.ScalarResources[rn]) {
			reasons = append(reasons, fmt.Sprintf("Insufficient %s", name))
		}
	}
	return reasons
}
