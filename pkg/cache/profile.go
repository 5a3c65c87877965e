package cache

import v1 "k8s.io/api/core/v1"

// Profile is what the model runs as: one kube-scheduler version's Behavior
// and the feature gates in force. Every version-dependent computation that
// callers need (a pod's requests, its host ports, allocatable, the fit
// check) is a method here, so that callers never switch on the version.
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

// SidecarsRefused is the reason NodeResourcesFit gives, at v1.28+ with gate
// SidecarContainers off, for a pod with a restartable init container.
const SidecarsRefused = "Pod has a restartable init container and the SidecarContainers feature is disabled"

// FitReasons is why pod, which requests req (its PodResource's Resource),
// does not fit ni by NodeResourcesFit's rules; nil means it fits. At v1.28+
// with gate SidecarContainers off a pod with a restartable init container
// fits nowhere (pkg/scheduler/framework/plugins/noderesources/fit.go,
// v1.28.15 Filter, v1.32.13 PreFilter); otherwise see InsufficientResources.
func (p *Profile) FitReasons(pod *v1.Pod, req *Resource, ni *NodeInfo) []string {
	if p.Sidecars && !p.Gates.SidecarContainers && hasSidecar(pod) {
		return []string{SidecarsRefused}
	}
	return InsufficientResources(req, ni)
}

func hasSidecar(pod *v1.Pod) bool {
	for i := range pod.Spec.InitContainers {
		if isSidecar(&pod.Spec.InitContainers[i]) {
			return true
		}
	}
	return false
}
