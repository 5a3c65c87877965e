package v1alpha1

// Resource mirrors the scheduler's framework.Resource.
type Resource struct {
	// MilliCPU in millicores.
	MilliCPU int64 `json:"milliCPU"`
	// Memory in bytes.
	Memory int64 `json:"memory"`
	// EphemeralStorage in bytes.
	EphemeralStorage int64 `json:"ephemeralStorage"`
	// AllowedPodNumber: pods (allocatable only; 0 in requested).
	AllowedPodNumber int64 `json:"allowedPodNumber"`
	// ScalarResources: extended resources, hugepages (bytes) and other
	// scalar resources by name.
	ScalarResources map[string]int64 `json:"scalarResources,omitempty"`
}

// NonZeroResource is the scheduler's NonZeroRequested: cpu and memory with
// 100m / 200Mi substituted for missing container requests.
type NonZeroResource struct {
	// MilliCPU in millicores.
	MilliCPU int64 `json:"milliCPU"`
	// Memory in bytes.
	Memory int64 `json:"memory"`
}

// Add adds o to r, field by field (int64 arithmetic, wrapping as the
// scheduler's sums do); scalar resources by name.
func (r *Resource) Add(o *Resource) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
	r.EphemeralStorage += o.EphemeralStorage
	r.AllowedPodNumber += o.AllowedPodNumber
	for k, v := range o.ScalarResources {
		if r.ScalarResources == nil {
			r.ScalarResources = map[string]int64{}
		}
		r.ScalarResources[k] += v
	}
}

// Add adds o to r.
func (r *NonZeroResource) Add(o *NonZeroResource) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
}
