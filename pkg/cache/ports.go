package cache

import v1 "k8s.io/api/core/v1"

// ProtocolPort is one (protocol, host port) pair, e.g. {"TCP", 80}.
type ProtocolPort struct {
	Protocol string
	Port     int32
}

// HostPortInfo is a node's used host ports: host IP → set of ProtocolPort.
// Like upstream it is a set, not a reference count: two pods using the same
// (ip, protocol, port) collapse into one entry, and removing either pod
// deletes it.
type HostPortInfo map[string]map[ProtocolPort]struct{}

// sanitize applies the scheduler's defaults: empty IP → "0.0.0.0", empty
// protocol → "TCP".
func sanitize(ip, protocol string) (string, string) {
	if ip == "" {
		ip = "0.0.0.0"
	}
	if protocol == "" {
		protocol = string(v1.ProtocolTCP)
	}
	return ip, protocol
}

// Add records a host port; ports ≤ 0 are ignored.
func (h HostPortInfo) Add(ip, protocol string, port int32) {
	if port <= 0 {
		return
	}
	ip, protocol = sanitize(ip, protocol)
	if h[ip] == nil {
		h[ip] = map[ProtocolPort]struct{}{}
	}
	h[ip][ProtocolPort{Protocol: protocol, Port: port}] = struct{}{}
}

// Remove deletes a host port (and the IP once it has none); ports ≤ 0 are ignored.
func (h HostPortInfo) Remove(ip, protocol string, port int32) {
	if port <= 0 {
		return
	}
	ip, protocol = sanitize(ip, protocol)
	if m, ok := h[ip]; ok {
		delete(m, ProtocolPort{Protocol: protocol, Port: port})
		if len(m) == 0 {
			delete(h, ip)
		}
	}
}

// Len is the number of (ip, protocol, port) entries.
func (h HostPortInfo) Len() int {
	n := 0
	for _, m := range h {
		n += len(m)
	}
	return n
}

func (h HostPortInfo) clone() HostPortInfo {
	c := make(HostPortInfo, len(h))
	for ip, m := range h {
		cm := make(map[ProtocolPort]struct{}, len(m))
		for pp := range m {
			cm[pp] = struct{}{}
		}
		c[ip] = cm
	}
	return c
}

// HostPorts lists the host ports a pod occupies on its node, as v1.34+ does:
// ports with hostPort > 0 of restartable (sidecar) init containers, then of
// regular containers. Plain init containers are ignored.
func HostPorts(pod *v1.Pod) []v1.ContainerPort {
	var ports []v1.ContainerPort
	collect := func(c *v1.Container) {
		for _, p := range c.Ports {
			if p.HostPort > 0 {
				ports = append(ports, p)
			}
		}
	}
	for i := range pod.Spec.InitContainers {
		if isSidecar(&pod.Spec.InitContainers[i]) {
			collect(&pod.Spec.InitContainers[i])
		}
	}
	for i := range pod.Spec.Containers {
		collect(&pod.Spec.Containers[i])
	}
	return ports
}

func isSidecar(c *v1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways
}
