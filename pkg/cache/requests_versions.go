package cache

// This file holds the per-pod request algorithms of kube-scheduler v1.18 to
// v1.32, written from their behaviour (the upstream file of each is named on
// its function). v1.33 and later use k8s.io/component-helpers directly
// (ComputePodResource).

import v1 "k8s.io/api/core/v1"

// podResourceFor computes a pod's PodResource with the algorithm of b.
func podResourceFor(pod *v1.Pod, b *Behavior, gates FeatureGates) PodResource {
	switch b.Requests {
	case RequestsPerContainer:
		return perContainerResource(pod, gates)
	case RequestsPodRequestsV127:
		return podRequestsV127(pod, b.Sidecars, gates)
	case RequestsHelpersV132:
		return podRequestsV132(pod, gates)
	}
	return ComputePodResource(pod, gates)
}

// perContainerResource is the v1.18–v1.26 algorithm
// (pkg/scheduler/nodeinfo/node_info.go calculateResource in v1.18.20,
// pkg/scheduler/framework/types.go in v1.19–v1.26): each regular
// container's requests are added, each init container raises every
// resource to its own request, then spec.overhead is added (with gate
// PodOverhead). NonZero follows the same shape with the 100m / 200Mi
// defaults per container, plus overhead cpu and memory when present.
// Ephemeral storage counts only with gate LocalStorageCapacityIsolation.
// Every quantity is converted per container, as upstream adds
// MilliValue()s rather than quantities.
func perContainerResource(pod *v1.Pod, gates FeatureGates) PodResource {
	var out PodResource
	res, eph := &out.Resource, gates.LocalStorageCapacityIsolation
	for i := range pod.Spec.Containers {
		reqs := pod.Spec.Containers[i].Resources.Requests
		res.add(reqs, eph)
		cpu, mem := nonZeroRequests(reqs)
		out.NonZeroMilliCPU += cpu
		out.NonZeroMemory += mem
	}
	for i := range pod.Spec.InitContainers {
		reqs := pod.Spec.InitContainers[i].Resources.Requests
		res.setMax(reqs, eph)
		cpu, mem := nonZeroRequests(reqs)
		out.NonZeroMilliCPU = max(out.NonZeroMilliCPU, cpu)
		out.NonZeroMemory = max(out.NonZeroMemory, mem)
	}
	if pod.Spec.Overhead != nil && gates.PodOverhead {
		res.add(pod.Spec.Overhead, eph)
		out.addOverheadNonZero(pod.Spec.Overhead)
	}
	return out
}

// podRequestsV127 is the v1.27–v1.31 algorithm (pkg/scheduler/framework/
// types.go calculateResource over pkg/api/v1/resource.PodRequests, v1.27.16
// to v1.31.14). With gate InPlacePodVerticalScaling a regular container
// that has a status counts max(spec, allocatedResources), or the allocated
// resources alone when status.resize is Infeasible. From v1.28 (sidecars)
// a restartable init container adds to the pod sum and to every later init
// container's phase. NonZero: the 100m / 200Mi defaults are applied to
// each regular container and to each init-phase list (a sidecar's list is
// the cumulative sidecar sum), the regular sum is raised to the largest
// init-phase value, then overhead cpu and memory are added.
func podRequestsV127(pod *v1.Pod, sidecars bool, gates FeatureGates) PodResource {
	var out PodResource
	var initCPU, initMem int64
	reqs := v1.ResourceList{}
	statuses := containerStatusesByName(pod, gates.InPlacePodVerticalScaling, false)
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		r := c.Resources.Requests
		if cs, ok := statuses[c.Name]; ok {
			if pod.Status.Resize == v1.PodResizeStatusInfeasible {
				r = cs.AllocatedResources.DeepCopy()
			} else {
				r = maxLists(c.Resources.Requests, cs.AllocatedResources)
			}
		}
		cpu, mem := nonZeroRequests(r)
		out.NonZeroMilliCPU += cpu
		out.NonZeroMemory += mem
		addList(reqs, r)
	}
	initReqs := aggregateInit(pod, sidecars, reqs, nil, func(phase v1.ResourceList) {
		cpu, mem := nonZeroRequests(phase)
		initCPU, initMem = max(initCPU, cpu), max(initMem, mem)
	})
	maxList(reqs, initReqs)
	out.NonZeroMilliCPU, out.NonZeroMemory = max(out.NonZeroMilliCPU, initCPU), max(out.NonZeroMemory, initMem)
	if pod.Spec.Overhead != nil {
		addList(reqs, pod.Spec.Overhead)
		out.addOverheadNonZero(pod.Spec.Overhead)
	}
	out.Resource.Add(reqs)
	return out
}

// podRequestsV132 is the v1.32 algorithm (pkg/scheduler/framework/types.go
// calculateResource, v1.32.13, over k8s.io/component-helpers v0.32.13
// resource.PodRequests): like v1.33+ (one call for the requests, a second
// with per-container defaults for NonZero), but in-place resize reads only
// the actuated resources (containerStatuses[].resources: max with the
// spec, or the actuated alone when status.resize is Infeasible), for
// regular containers only, and pod-level requests cover cpu and memory
// only (no hugepages).
func podRequestsV132(pod *v1.Pod, gates FeatureGates) PodResource {
	requests := requestsV132(pod, gates, nil)
	podLevel := gates.PodLevelResources && podLevelRequestsSetV132(pod)
	nonZero := requests
	if defaults := missingRequestDefaults(requests, podLevel); len(defaults) > 0 {
		nonZero = requestsV132(pod, gates, defaults)
	}
	cpu, mem := nonZero[v1.ResourceCPU], nonZero[v1.ResourceMemory]
	out := PodResource{NonZeroMilliCPU: cpu.MilliValue(), NonZeroMemory: mem.Value()}
	out.Resource.Add(requests)
	return out
}

// requestsV132 is one component-helpers v0.32 PodRequests call; defaults,
// when set, fill in each container's missing requests.
func requestsV132(pod *v1.Pod, gates FeatureGates, defaults v1.ResourceList) v1.ResourceList {
	reqs := v1.ResourceList{}
	statuses := containerStatusesByName(pod, gates.InPlacePodVerticalScaling, true)
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		r := c.Resources.Requests
		if cs, ok := statuses[c.Name]; ok {
			if pod.Status.Resize == v1.PodResizeStatusInfeasible {
				r = cs.Resources.Requests.DeepCopy()
			} else {
				r = maxLists(c.Resources.Requests, cs.Resources.Requests)
			}
		}
		addList(reqs, withDefaults(r, defaults))
	}
	maxList(reqs, aggregateInit(pod, true, reqs, defaults, nil))
	if gates.PodLevelResources && podLevelRequestsSetV132(pod) {
		for _, name := range []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory} {
			if q, ok := pod.Spec.Resources.Requests[name]; ok {
				reqs[name] = q
			}
		}
	}
	if pod.Spec.Overhead != nil {
		addList(reqs, pod.Spec.Overhead)
	}
	return reqs
}

// podLevelRequestsSetV132: spec.resources.requests names cpu or memory (the
// only pod-level resources of v1.32).
func podLevelRequestsSetV132(pod *v1.Pod) bool {
	if pod.Spec.Resources == nil {
		return false
	}
	_, cpu := pod.Spec.Resources.Requests[v1.ResourceCPU]
	_, mem := pod.Spec.Resources.Requests[v1.ResourceMemory]
	return cpu || mem
}

// aggregateInit walks the init containers as the sidecar rules of v1.28+
// do (without sidecars, each init container's phase is its own requests):
// a sidecar adds its requests to podSum and to the running sidecar sum,
// which is its phase; a plain init container's phase is its requests plus
// the sidecars before it. It returns the per-resource maximum over the
// phases, calling phaseFn with each phase. defaults fill in missing
// requests per container first.
func aggregateInit(pod *v1.Pod, sidecars bool, podSum, defaults v1.ResourceList, phaseFn func(v1.ResourceList)) v1.ResourceList {
	sidecarSum, out := v1.ResourceList{}, v1.ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		r := withDefaults(c.Resources.Requests, defaults)
		if sidecars && isSidecar(c) {
			addList(podSum, r)
			addList(sidecarSum, r)
			r = sidecarSum
		} else {
			phase := v1.ResourceList{}
			addList(phase, r)
			addList(phase, sidecarSum)
			r = phase
		}
		if phaseFn != nil {
			phaseFn(r)
		}
		maxList(out, r)
	}
	return out
}

// containerStatusesByName indexes the regular containers' statuses when
// in-place resize is on; needResources keeps only statuses that report
// resources (v1.32).
func containerStatusesByName(pod *v1.Pod, inPlace, needResources bool) map[string]*v1.ContainerStatus {
	if !inPlace {
		return nil
	}
	out := make(map[string]*v1.ContainerStatus, len(pod.Status.ContainerStatuses))
	for i := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[i]
		if !needResources || cs.Resources != nil {
			out[cs.Name] = cs
		}
	}
	return out
}

// nonZeroRequests is what the scheduler counts for one container's (or
// init phase's) cpu and memory in NonZeroRequested: the request, or
// 100m / 200Mi when the key is missing (an explicit 0 is kept).
func nonZeroRequests(reqs v1.ResourceList) (milliCPU, memory int64) {
	milliCPU, memory = DefaultMilliCPURequest, DefaultMemoryRequest
	if q, ok := reqs[v1.ResourceCPU]; ok {
		milliCPU = q.MilliValue()
	}
	if q, ok := reqs[v1.ResourceMemory]; ok {
		memory = q.Value()
	}
	return milliCPU, memory
}

// addOverheadNonZero adds the overhead's cpu and memory, when present, to
// the NonZero values.
func (p *PodResource) addOverheadNonZero(overhead v1.ResourceList) {
	if q, ok := overhead[v1.ResourceCPU]; ok {
		p.NonZeroMilliCPU += q.MilliValue()
	}
	if q, ok := overhead[v1.ResourceMemory]; ok {
		p.NonZeroMemory += q.Value()
	}
}

// withDefaults returns reqs with each missing key of defaults filled in; reqs
// itself when there are no defaults.
func withDefaults(reqs, defaults v1.ResourceList) v1.ResourceList {
	if len(defaults) == 0 {
		return reqs
	}
	out := reqs.DeepCopy()
	if out == nil {
		out = v1.ResourceList{}
	}
	for name, q := range defaults {
		if _, ok := reqs[name]; !ok {
			out[name] = q.DeepCopy()
		}
	}
	return out
}

// addList adds every quantity of src to dst.
func addList(dst, src v1.ResourceList) {
	for name, q := range src {
		if cur, ok := dst[name]; ok {
			cur.Add(q)
			dst[name] = cur
		} else {
			dst[name] = q.DeepCopy()
		}
	}
}

// maxList raises every quantity of dst to src's.
func maxList(dst, src v1.ResourceList) {
	for name, q := range src {
		if cur, ok := dst[name]; !ok || q.Cmp(cur) > 0 {
			dst[name] = q.DeepCopy()
		}
	}
}

// maxLists is the per-resource maximum of a and b, over the keys of both.
func maxLists(a, b v1.ResourceList) v1.ResourceList {
	out := a.DeepCopy()
	if out == nil {
		out = v1.ResourceList{}
	}
	maxList(out, b)
	return out
}

// setMax raises r to rl per resource, as v1.18–v1.26 Resource.SetMaxResource:
// cpu, memory, ephemeral-storage (with eph) and scalar resources; "pods"
// and unknown names are ignored.
func (r *Resource) setMax(rl v1.ResourceList, eph bool) {
	for name, q := range rl {
		switch {
		case name == v1.ResourceCPU:
			r.MilliCPU = max(r.MilliCPU, q.MilliValue())
		case name == v1.ResourceMemory:
			r.Memory = max(r.Memory, q.Value())
		case name == v1.ResourceEphemeralStorage:
			if eph {
				r.EphemeralStorage = max(r.EphemeralStorage, q.Value())
			}
		case IsScalarResourceName(name):
			if v := q.Value(); v > r.ScalarResources[name] {
				r.setScalar(name, v)
			}
		}
	}
}

func (r *Resource) setScalar(name v1.ResourceName, v int64) {
	if r.ScalarResources == nil {
		r.ScalarResources = map[v1.ResourceName]int64{}
	}
	r.ScalarResources[name] = v
}
