package cache

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"
)

// Scheduler defaults for containers that do not request cpu or memory, used
// only for NonZeroRequested (spreading/scoring), unchanged since v1.18.
const (
	// DefaultMilliCPURequest is 0.1 core, in millicores.
	DefaultMilliCPURequest int64 = 100
	// DefaultMemoryRequest is 200 MiB, in bytes.
	DefaultMemoryRequest int64 = 200 * 1024 * 1024
)

// PodResource is what one pod adds to its node's NodeInfo: Resource goes to
// Requested; NonZeroMilliCPU (millicores) and NonZeroMemory (bytes) go to
// NonZeroRequested.
type PodResource struct {
	Resource        Resource
	NonZeroMilliCPU int64
	NonZeroMemory   int64
}

// ComputePodResource computes a pod's requests exactly as kube-scheduler
// v1.33–v1.36 does (PodInfo.CalculateResource): one call to
// component-helpers resource.PodRequests with options derived from gates
// (overhead included), then, for NonZero, a second call that fills in
// 100m / 200Mi per container for each of cpu and memory that is missing
// (only the ones missing from the first result when pod-level requests are
// set). An explicit zero request is kept. Gates that did not exist in the
// version modelled must be off (FeatureGatesFor sees to it). Older
// versions: Profile.PodResource.
func ComputePodResource(pod *v1.Pod, gates FeatureGates) PodResource {
	opts := resourcehelper.PodResourcesOptions{
		UseStatusResources: gates.InPlacePodVerticalScaling,
		InPlacePodLevelResourcesVerticalScalingEnabled: gates.InPlacePodLevelResourcesVerticalScaling,
		SkipPodLevelResources:                          !gates.PodLevelResources,
		UseDRANodeAllocatableResourceClaimStatus:       gates.DRANodeAllocatableResources,
	}
	requests := resourcehelper.PodRequests(pod, opts)
	podLevelSet := gates.PodLevelResources && resourcehelper.IsPodLevelRequestsSet(pod)
	nonZero := requests
	if defaults := missingRequestDefaults(requests, podLevelSet); len(defaults) > 0 {
		opts.NonMissingContainerRequests = defaults
		nonZero = resourcehelper.PodRequests(pod, opts)
	}
	cpu, mem := nonZero[v1.ResourceCPU], nonZero[v1.ResourceMemory]
	res := PodResource{NonZeroMilliCPU: cpu.MilliValue(), NonZeroMemory: mem.Value()}
	res.Resource.Add(requests)
	return res
}

// missingRequestDefaults returns the per-container defaults for the second
// PodRequests call. Without pod-level requests both defaults always apply
// (per container, only where the container lacks the key); with pod-level
// requests only resources absent from the first result are defaulted.
func missingRequestDefaults(requests v1.ResourceList, podLevelSet bool) v1.ResourceList {
	cpu := *resource.NewMilliQuantity(DefaultMilliCPURequest, resource.DecimalSI)
	mem := *resource.NewQuantity(DefaultMemoryRequest, resource.DecimalSI)
	if !podLevelSet {
		return v1.ResourceList{v1.ResourceCPU: cpu, v1.ResourceMemory: mem}
	}
	out := v1.ResourceList{}
	if _, ok := requests[v1.ResourceCPU]; !ok {
		out[v1.ResourceCPU] = cpu
	}
	if _, ok := requests[v1.ResourceMemory]; !ok {
		out[v1.ResourceMemory] = mem
	}
	return out
}
