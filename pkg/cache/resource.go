package cache

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Resource is the scheduler's flat view of a resource list (upstream
// framework.Resource). Units: MilliCPU in millicores; Memory and
// EphemeralStorage in bytes; AllowedPodNumber in pods; ScalarResources hold
// Quantity.Value() per name (extended resources in their own unit, hugepages
// in bytes).
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int64
	ScalarResources  map[v1.ResourceName]int64
}

// NewResource converts a ResourceList the way the scheduler does: cpu,
// memory, pods and ephemeral-storage map to their fields, scalar resources
// (see IsScalarResourceName) to ScalarResources, anything else is dropped.
func NewResource(rl v1.ResourceList) *Resource {
	r := &Resource{}
	r.Add(rl)
	return r
}

// Add adds every quantity of rl to r (v1.36 Resource.Add semantics).
func (r *Resource) Add(rl v1.ResourceList) { r.add(rl, true) }

// add is Add, counting ephemeral-storage only when eph is set (gate
// LocalStorageCapacityIsolation, which kube-scheduler read up to v1.24).
func (r *Resource) add(rl v1.ResourceList, eph bool) {
	for name, q := range rl {
		switch name {
		case v1.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case v1.ResourceMemory:
			r.Memory += q.Value()
		case v1.ResourcePods:
			r.AllowedPodNumber += q.Value()
		case v1.ResourceEphemeralStorage:
			if eph {
				r.EphemeralStorage += q.Value()
			}
		default:
			if IsScalarResourceName(name) {
				r.addScalar(name, q.Value())
			}
		}
	}
}

func (r *Resource) addScalar(name v1.ResourceName, v int64) {
	if r.ScalarResources == nil {
		r.ScalarResources = map[v1.ResourceName]int64{}
	}
	r.ScalarResources[name] += v
}

// Clone returns a deep copy of r.
func (r *Resource) Clone() *Resource {
	c := *r
	if r.ScalarResources != nil {
		c.ScalarResources = make(map[v1.ResourceName]int64, len(r.ScalarResources))
		for k, v := range r.ScalarResources {
			c.ScalarResources[k] = v
		}
	}
	return &c
}

// String mirrors the scheduler dumper's "%+v" of a *Resource, with scalar
// resources in sorted key order (Go's fmt sorts map keys).
func (r *Resource) String() string {
	return fmt.Sprintf("&{MilliCPU:%d Memory:%d EphemeralStorage:%d AllowedPodNumber:%d ScalarResources:%v}",
		r.MilliCPU, r.Memory, r.EphemeralStorage, r.AllowedPodNumber, r.scalarMap())
}

func (r *Resource) scalarMap() map[v1.ResourceName]int64 {
	if r.ScalarResources == nil {
		return map[v1.ResourceName]int64{}
	}
	return r.ScalarResources
}

// IsScalarResourceName reports whether the scheduler tracks name as a scalar
// resource: an extended resource (domain-qualified, outside kubernetes.io),
// hugepages-*, a kubernetes.io/-prefixed native resource, or
// attachable-volumes-* (upstream schedutil.IsScalarResourceName, unchanged
// since v1.18).
func IsScalarResourceName(name v1.ResourceName) bool {
	s := string(name)
	return isExtendedResourceName(s) ||
		strings.HasPrefix(s, v1.ResourceHugePagesPrefix) ||
		strings.Contains(s, v1.ResourceDefaultNamespacePrefix) ||
		strings.HasPrefix(s, v1.ResourceAttachableVolumesPrefix)
}

// isExtendedResourceName: a name with a domain that is not kubernetes.io and
// that stays a qualified name once the quota prefix "requests." is prepended.
func isExtendedResourceName(s string) bool {
	native := !strings.Contains(s, "/") || strings.Contains(s, v1.ResourceDefaultNamespacePrefix)
	if native || strings.HasPrefix(s, v1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(v1.DefaultResourceRequestsPrefix+s)) == 0
}
