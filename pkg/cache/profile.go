package cache

import v1 "k8s.io/api/core/v1"

// Profile is what the model runs as: one kube-scheduler version's Behavior
// and the feature gates in force. Every version-dependent computation that
// callers need (a pod's requests, its host ports, allocatable) is a method
// here, so that callers never switch on the version.
type Profile struct {
	Behavior
	Gates FeatureGates
}

// NewProfile returns the profile of kube-scheduler v with gates (nil: v's
// defaults). Gates that cannot be set at v are forced to the value v's code
// behaves as (see FeatureGates).
func NewProfile(v Version, gates *FeatureGates) Profile {
	g := FeatureGatesFor(v)
	if gates != nil {
		g = gates.normalized(v)
	}
	return Profile{Behavior: *BehaviorFor(v), Gates: g}
}

// DefaultProfile is kube-scheduler v1.36 with its default gates.
func DefaultProfile() Profile { return NewProfile(Latest, nil) }

// PodResource is what pod adds to its node's Requested and
// NonZeroRequested at this version, with these gates.
func (p *Profile) PodResource(pod *v1.Pod) PodResource {
	return podResourceFor(pod, &p.Behavior, p.Gates)
}

// NewResource converts a node's allocatable list (ephemeral-storage only
// with gate LocalStorageCapacityIsolation, read up to v1.24).
func (p *Profile) NewResource(rl v1.ResourceList) *Resource {
	r := &Resource{}
	r.add(rl, p.Gates.LocalStorageCapacityIsolation)
	return r
}

// HostPorts lists the host ports a pod occupies: from v1.33 sidecars' and
// regular containers' (see HostPorts); before, regular containers' only
// (upstream walks every container port then, and HostPortInfo ignores the
// ones without a host port, which comes to the same).
func (p *Profile) HostPorts(pod *v1.Pod) []v1.ContainerPort {
	if p.SidecarHostPorts {
		return HostPorts(pod)
	}
	var ports []v1.ContainerPort
	for i := range pod.Spec.Containers {
		for _, port := range pod.Spec.Containers[i].Ports {
			if port.HostPort > 0 {
				ports = append(ports, port)
			}
		}
	}
	return ports
}

// pvcKeys lists the pod's "namespace/claim" keys that NodeInfo counts
// (none before v1.22).
func (p *Profile) pvcKeys(pod *v1.Pod) []string {
	if !p.PVCRefCounts {
		return nil
	}
	return PVCKeys(pod)
}
