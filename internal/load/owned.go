package load

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// ownedContainers is a pod's containers (or init containers) as DefaultPod
// changes them: the slice itself until its first change, then a copy of it
// and of its containers' ports. The pod decoder hands the replicas of a
// template one slice of containers (podDecoder.commonContainers), read on
// every core; a pod whose defaults change a container gets containers of
// its own instead.
type ownedContainers struct {
	cs     []corev1.Container
	copied bool
}

// at returns the i-th container for writing.
func (o *ownedContainers) at(i int) *corev1.Container {
	if !o.copied {
		o.copied = true
		o.cs = slices.Clone(o.cs)
		for j := range o.cs {
			o.cs[j].Ports = slices.Clone(o.cs[j].Ports)
		}
	}
	return &o.cs[i]
}

// requestsFromLimits gives every resource that has a limit but no request
// a request equal to the limit, in a new list.
func (o *ownedContainers) requestsFromLimits() {
	for i := range o.cs {
		r := &o.cs[i].Resources
		var requests corev1.ResourceList // r.Requests' copy, once a request is missing
		for name, limit := range r.Limits {
			if _, ok := r.Requests[name]; ok {
				continue
			}
			if requests == nil {
				requests = make(corev1.ResourceList, len(r.Requests)+len(r.Limits))
				maps.Copy(requests, r.Requests)
			}
			requests[name] = limit.DeepCopy()
		}
		if requests != nil {
			o.at(i).Resources.Requests = requests
		}
	}
}

// defaultPorts gives ports without a protocol TCP and, on the host network,
// ports without a host port their container port.
func (o *ownedContainers) defaultPorts(hostNetwork bool) {
	for i := range o.cs {
		for j := range o.cs[i].Ports {
			port := o.cs[i].Ports[j]
			if port.Protocol == "" {
				port.Protocol = corev1.ProtocolTCP
			}
			if hostNetwork && port.HostPort == 0 {
				port.HostPort = port.ContainerPort
			}
			if port != o.cs[i].Ports[j] {
				o.at(i).Ports[j] = port
			}
		}
	}
}

// roundUp rounds every container's limits and requests up to a multiple of
// 1m (roundedUp).
func (o *ownedContainers) roundUp() {
	for i := range o.cs {
		r := o.cs[i].Resources
		if l, rounded := rounding(r.Limits); rounded {
			o.at(i).Resources.Limits = l
		}
		if l, rounded := rounding(r.Requests); rounded {
			o.at(i).Resources.Requests = l
		}
	}
}

// setContainers gives spec the containers DefaultPod changed, if it
// changed any: a shared slice is not even written back.
func setContainers(spec *corev1.PodSpec, inits, containers *ownedContainers) {
	if inits.copied {
		spec.InitContainers = inits.cs
	}
	if containers.copied {
		spec.Containers = containers.cs
	}
}
