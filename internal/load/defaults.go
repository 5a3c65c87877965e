package load

import (
	"crypto/sha1"
	"encoding/hex"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	resourcehelper "k8s.io/component-helpers/resource"
)

// This file reproduces, for objects read from files, the parts of the API
// server's v1 defaulting (Kubernetes v1.36, default feature gates) that change
// what the scheduler computes. Objects exported from a cluster were defaulted
// when they were stored, so applying these functions to them changes nothing.
//
// Left out on purpose, because no scheduling decision reads them: image pull
// policy, termination message path/policy, DNS and restart policy, security
// context, grace periods, service links, probe and volume defaults. Admission
// (e.g. priority from priorityClassName, default tolerations) is not
// defaulting and is not reproduced either.

// DefaultFilePod is what every pod that does not come from the API server
// gets, in place, before the scheduler model sees it (files, a simulate
// script's inline manifests): the namespace "default" when it has none,
// then DefaultPod. A missing UID is left to the caller: ReadFiles derives
// it (DerivedUID), a script step may reuse a known pod's.
func DefaultFilePod(pod *corev1.Pod) {
	if pod.Namespace == "" {
		pod.Namespace = corev1.NamespaceDefault
	}
	DefaultPod(pod)
}

// DefaultPod applies to pod, in place, the v1 defaulting that matters to
// scheduling (a resource list or a pod's containers it changes are replaced
// by a changed copy, never written to, because the reader shares equal
// lists, and a template's containers, between pods):
//   - in each container and init container, a resource with a limit but no
//     request gets a request equal to its limit;
//   - pod-level resources (PodLevelResources, on by default since v1.34), only
//     when spec.resources is set: hugepage limits missing at pod level are the
//     containers' aggregated limits (unless a pod-level hugepage request is
//     set); then, when pod-level limits exist, missing pod-level requests for
//     cpu and memory are the containers' aggregated requests, and any
//     supported resource still without a request gets its pod-level limit;
//   - container ports without a protocol get TCP, and with hostNetwork a
//     port without a hostPort gets hostPort = containerPort;
//   - an empty schedulerName becomes "default-scheduler";
//   - every resource quantity of the pod's spec and status is rounded up to
//     a multiple of 1m.
func DefaultPod(pod *corev1.Pod) {
	spec := &pod.Spec
	inits, containers := ownedContainers{cs: spec.InitContainers}, ownedContainers{cs: spec.Containers}
	inits.requestsFromLimits()
	containers.requestsFromLimits()
	setContainers(spec, &inits, &containers)
	// Pod-level defaults read the container requests defaulted just above.
	podLevelHugePageLimits(pod)
	podLevelRequests(pod)

	if spec.SchedulerName == "" {
		spec.SchedulerName = corev1.DefaultSchedulerName
	}
	inits.defaultPorts(spec.HostNetwork)
	containers.defaultPorts(spec.HostNetwork)

	// The API server rounds quantities after the defaulting above, so
	// defaulted pod-level sums are computed from unrounded values.
	inits.roundUp()
	containers.roundUp()
	setContainers(spec, &inits, &containers)
	for i := range spec.EphemeralContainers {
		roundUpRequirements(&spec.EphemeralContainers[i].Resources)
	}
	spec.Overhead = roundedUp(spec.Overhead)
	if spec.Resources != nil {
		roundUpRequirements(spec.Resources)
	}
	status := &pod.Status
	status.InitContainerStatuses = roundedStatuses(status.InitContainerStatuses)
	status.ContainerStatuses = roundedStatuses(status.ContainerStatuses)
	status.EphemeralContainerStatuses = roundedStatuses(status.EphemeralContainerStatuses)
	status.AllocatedResources = roundedUp(status.AllocatedResources)
	if status.Resources != nil {
		roundUpRequirements(status.Resources)
	}
}

// DefaultNode applies to node, in place, the v1 defaulting that matters to
// scheduling: a node with a capacity but no allocatable gets allocatable
// equal to its capacity, and both are rounded up to a multiple of 1m.
func DefaultNode(node *corev1.Node) {
	if node.Status.Allocatable == nil && node.Status.Capacity != nil {
		node.Status.Allocatable = node.Status.Capacity.DeepCopy()
	}
	node.Status.Capacity = roundedUp(node.Status.Capacity)
	node.Status.Allocatable = roundedUp(node.Status.Allocatable)
}

// writable returns l, or a copy of it when copied is false (setting it),
// so that a list shared with other pods is copied before its first change.
func writable(l corev1.ResourceList, copied *bool) corev1.ResourceList {
	if *copied {
		return l
	}
	*copied = true
	out := make(corev1.ResourceList, len(l)+1)
	maps.Copy(out, l)
	return out
}

// podLevelHugePageLimits sets pod-level hugepage limits from the containers'
// aggregated limits where the pod sets pod-level resources but neither a limit
// nor a request for that hugepage size.
func podLevelHugePageLimits(pod *corev1.Pod) {
	res := pod.Spec.Resources
	if res == nil || len(res.Limits) == 0 && len(res.Requests) == 0 {
		return
	}
	copied := false
	for name, limit := range resourcehelper.AggregateContainerLimits(pod, resourcehelper.PodResourcesOptions{}) {
		if !isHugePages(name) || !resourcehelper.IsSupportedPodLevelResource(name) {
			continue
		}
		if _, ok := res.Requests[name]; ok {
			continue
		}
		if _, ok := res.Limits[name]; ok {
			continue
		}
		res.Limits = writable(res.Limits, &copied)
		res.Limits[name] = limit.DeepCopy()
	}
}

// podLevelRequests fills missing pod-level requests when pod-level limits are
// set: first from the containers' aggregated requests (overcommittable
// resources only, i.e. cpu and memory), then from the pod-level limits.
func podLevelRequests(pod *corev1.Pod) {
	res := pod.Spec.Resources
	if res == nil || len(res.Limits) == 0 {
		return
	}
	copied := false
	set := func(name corev1.ResourceName, q resource.Quantity) {
		res.Requests = writable(res.Requests, &copied)
		res.Requests[name] = q.DeepCopy()
	}
	for name, req := range resourcehelper.AggregateContainerRequests(pod, resourcehelper.PodResourcesOptions{}) {
		if _, ok := res.Requests[name]; !ok && resourcehelper.IsSupportedPodLevelResource(name) && overcommittable(name) {
			set(name, req)
		}
	}
	for name, limit := range res.Limits {
		if _, ok := res.Requests[name]; !ok && resourcehelper.IsSupportedPodLevelResource(name) {
			set(name, limit)
		}
	}
}

// isHugePages reports whether name is a hugepages-<size> resource.
func isHugePages(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix)
}

// overcommittable reports whether requests for name may be lower than its
// limits: native resources (unprefixed or *kubernetes.io/) except hugepages.
func overcommittable(name corev1.ResourceName) bool {
	native := !strings.Contains(string(name), "/") || strings.Contains(string(name), corev1.ResourceDefaultNamespacePrefix)
	return native && !isHugePages(name)
}

// roundedUp returns list with every quantity rounded up to a multiple of 1m
// (milli scale): list itself when all are multiples already, so a stored
// object keeps its exact representation, or else a rounded copy.
func roundedUp(list corev1.ResourceList) corev1.ResourceList {
	list, _ = rounding(list)
	return list
}

// rounding is roundedUp, also reporting whether it rounded anything (and
// so returns a copy).
func rounding(list corev1.ResourceList) (corev1.ResourceList, bool) {
	copied := false
	for name, q := range list {
		rounded := q.DeepCopy()
		rounded.RoundUp(resource.Milli)
		if rounded.Cmp(q) != 0 {
			list = writable(list, &copied)
			list[name] = rounded
		}
	}
	return list, copied
}

// roundedStatuses returns statuses with their allocated and actual
// resources rounded up (roundedUp): statuses itself when every quantity is
// a multiple of 1m already, or else a copy holding the rounded lists. The
// pod decoder shares equal statuses between pods, so they are never
// written.
func roundedStatuses(statuses []corev1.ContainerStatus) []corev1.ContainerStatus {
	copied := false
	for i := range statuses {
		s := &statuses[i]
		allocated, roundedAllocated := rounding(s.AllocatedResources)
		var limits, requests corev1.ResourceList
		roundedResources := false
		if s.Resources != nil {
			var l, r bool
			limits, l = rounding(s.Resources.Limits)
			requests, r = rounding(s.Resources.Requests)
			roundedResources = l || r
		}
		if !roundedAllocated && !roundedResources {
			continue
		}
		if !copied {
			statuses, copied = slices.Clone(statuses), true
			s = &statuses[i]
		}
		s.AllocatedResources = allocated
		if roundedResources {
			r := *s.Resources
			r.Limits, r.Requests = limits, requests
			s.Resources = &r
		}
	}
	return statuses
}

// roundUpRequirements rounds r's limits and requests (roundedUp).
func roundUpRequirements(r *corev1.ResourceRequirements) {
	r.Limits = roundedUp(r.Limits)
	r.Requests = roundedUp(r.Requests)
}

// derivedUIDSpace is the name space of DerivedUID: the version-5 UUID of the
// URL "https://github.com/schedcache/kubectl-schedcache/derived-pod-uid" in
// RFC 9562's URL name space, i.e. 800b1b93-b6da-5127-9923-d205717948b6.
var derivedUIDSpace = [16]byte{
	0x80, 0x0b, 0x1b, 0x93, 0xb6, 0xda, 0x51, 0x27,
	0x99, 0x23, 0xd2, 0x05, 0x71, 0x79, 0x48, 0xb6,
}

// DerivedUID returns the UID that ReadFiles gives a pod that has no
// metadata.uid (hand-written manifests): a DERIVED, not server-assigned, UID,
// stable across runs. It is the RFC 9562 version-5 (SHA-1, name-based) UUID
// of "namespace/name" in a name space private to kubectl-schedcache, in the
// usual 8-4-4-4-12 lower-case hex form.
func DerivedUID(namespace, name string) types.UID {
	h := sha1.New()
	h.Write(derivedUIDSpace[:])
	h.Write([]byte(namespace + "/" + name))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return types.UID(b[:])
}
