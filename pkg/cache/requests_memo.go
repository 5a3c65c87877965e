package cache

// This file memoizes the per-pod request computation. The replicas of one
// workload have the same containers, so at 150,000 pods the cache would
// run the same component-helpers PodRequests calls (two per pod since
// v1.32) over a few thousand distinct templates. The memo keys the result
// by every field any of the modelled algorithms reads, so a hit returns
// exactly what the computation would.

import (
	"encoding/binary"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// maxMemoEntries bounds the memo: past it, new templates are computed
// without being stored (a cluster of all-different pods costs no more
// memory than this many keys).
const maxMemoEntries = 1 << 16

// requestsMemo maps a pod's request inputs (appendRequestsKey) to its
// PodResource, for one Profile. Not safe for concurrent use: the cache
// calls it under its write lock.
//
// The key is taken before computing, and that matters in one corner:
// component-helpers' PodRequests (v0.32–v0.36) stores the pod-level
// requests in its result without copying, then adds the overhead to them,
// so a quantity held as an arbitrary-precision decimal (a value beyond
// int64 at its scale) is changed in the pod itself. Each pod is computed
// once, when it enters the cache, so a memoized result is what that pod's
// own first computation gives.
type requestsMemo struct {
	results map[string]PodResource
	buf     []byte
	hits    int
}

func newRequestsMemo() *requestsMemo {
	return &requestsMemo{results: map[string]PodResource{}}
}

// podResource returns p.PodResource(pod), from the memo when a pod with
// the same request inputs was computed before.
func (m *requestsMemo) podResource(pod *v1.Pod, p *Profile) PodResource {
	if m == nil {
		return p.PodResource(pod)
	}
	m.buf = appendRequestsKey(m.buf[:0], pod)
	if r, ok := m.results[string(m.buf)]; ok {
		m.hits++
		return r
	}
	r := p.PodResource(pod)
	if len(m.results) < maxMemoEntries {
		m.results[string(m.buf)] = r
	}
	return r
}

// appendRequestsKey appends to b an encoding of everything the request
// algorithms of v1.18–v1.36 read from pod (component-helpers v0.36
// resource.PodRequests and AggregateContainerRequests, and the older
// algorithms of requests_versions.go, which read subsets of it): per
// container and init container its name, requests and restart policy; the
// overhead; the pod-level requests and limits; per container status its
// name, actuated requests and allocated resources; the pod status's
// resources, allocated resources, resize field, conditions and
// node-allocatable claim statuses. The encoding is injective (every string
// and list is length-prefixed), so equal keys mean equal inputs.
func appendRequestsKey(b []byte, pod *v1.Pod) []byte {
	s := &pod.Spec
	b = appendContainers(b, s.Containers)
	b = appendContainers(b, s.InitContainers)
	b = appendList(b, s.Overhead)
	b = appendRequirements(b, s.Resources)
	st := &pod.Status
	b = appendStatuses(b, st.ContainerStatuses)
	b = appendStatuses(b, st.InitContainerStatuses)
	b = appendRequirements(b, st.Resources)
	b = appendList(b, st.AllocatedResources)
	b = appendString(b, string(st.Resize)) //nolint:staticcheck // read by the v1.27–v1.32 algorithms
	b = binary.AppendUvarint(b, uint64(len(st.Conditions)))
	for i := range st.Conditions {
		c := &st.Conditions[i]
		b = appendString(appendString(appendString(appendString(b, string(c.Type)), string(c.Status)), c.Reason), c.Message)
	}
	b = binary.AppendUvarint(b, uint64(len(st.NodeAllocatableResourceClaimStatuses)))
	for i := range st.NodeAllocatableResourceClaimStatuses {
		b = appendList(b, st.NodeAllocatableResourceClaimStatuses[i].Resources)
	}
	return b
}

func appendContainers(b []byte, cs []v1.Container) []byte {
	b = binary.AppendUvarint(b, uint64(len(cs)))
	for i := range cs {
		c := &cs[i]
		b = appendString(b, c.Name)
		b = appendList(b, c.Resources.Requests)
		if c.RestartPolicy != nil {
			b = appendString(append(b, 1), string(*c.RestartPolicy))
		} else {
			b = append(b, 0)
		}
	}
	return b
}

func appendStatuses(b []byte, ss []v1.ContainerStatus) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for i := range ss {
		s := &ss[i]
		b = appendString(b, s.Name)
		b = appendRequirements(b, s.Resources)
		b = appendList(b, s.AllocatedResources)
	}
	return b
}

// appendRequirements appends optional requests and limits (nil and empty
// encode differently).
func appendRequirements(b []byte, r *v1.ResourceRequirements) []byte {
	if r == nil {
		return append(b, 0)
	}
	return appendList(appendList(append(b, 1), r.Requests), r.Limits)
}

// appendList appends a resource list in key order: each name and the
// quantity's exact value (mantissa and exponent; a value written two ways
// may encode two ways, which only misses the memo). A nil list and an empty
// one encode differently.
func appendList(b []byte, rl v1.ResourceList) []byte {
	if rl == nil {
		return append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(rl))+1)
	var names [8]v1.ResourceName
	keys := names[:0]
	for name := range rl {
		keys = append(keys, name)
	}
	slices.SortFunc(keys, func(x, y v1.ResourceName) int { return strings.Compare(string(x), string(y)) })
	for _, name := range keys {
		q := rl[name]
		b = appendString(b, string(name))
		var scratch [32]byte
		mantissa, exponent := q.AsCanonicalBytes(scratch[:0])
		b = append(binary.AppendUvarint(b, uint64(len(mantissa))), mantissa...)
		b = binary.AppendVarint(b, int64(exponent))
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
