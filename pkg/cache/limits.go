package cache

import (
	v1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"
)

// PodLimits is the sum of pod's limits as component-helpers'
// resource.PodLimits computes them (the helper kubelet and kubectl
// describe use): regular containers and restartable init containers
// (native sidecars) added, the largest init container taken when bigger,
// pod-level limits (gate PodLevelResources) replacing the container sum for
// cpu, memory and hugepages, the overhead added to each resource that has a
// non-zero limit, and, with gate InPlacePodVerticalScaling, the container
// status limits of a resize in progress. The scheduler never reads limits:
// the options are those of its requests path (ComputePodResource) that
// apply to limits, whatever the version modelled. A container without a
// limit on a resource adds nothing for it.
func (p *Profile) PodLimits(pod *v1.Pod) Resource {
	limits := resourcehelper.PodLimits(pod, resourcehelper.PodResourcesOptions{
		UseStatusResources: p.Gates.InPlacePodVerticalScaling,
		InPlacePodLevelResourcesVerticalScalingEnabled: p.Gates.InPlacePodLevelResourcesVerticalScaling,
		SkipPodLevelResources:                          !p.Gates.PodLevelResources,
	})
	var r Resource
	r.Add(limits)
	return r
}
