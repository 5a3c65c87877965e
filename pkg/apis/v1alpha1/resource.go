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
