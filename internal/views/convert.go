// Package views turns the scheduler-cache model into the output kinds of
// pkg/apis/v1alpha1. Views are pure functions of a model.Model: no I/O, no
// clock, deterministic order, so the same input always prints the same bytes.
package views

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/node/topology"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// zoneOf renders a node's zone key as "region/zone"; "" for placeholders
// and unlabelled nodes.
func zoneOf(n *v1.Node) string {
	if n == nil {
		return ""
	}
	return cache.ZoneKeyString(topology.GetZoneKey(n))
}

// portString renders a host port with the scheduler's defaults applied
// (empty IP → 0.0.0.0, empty protocol → TCP).
func portString(ip, protocol string, port int32) string {
	if ip == "" {
		ip = "0.0.0.0"
	}
	if protocol == "" {
		protocol = string(v1.ProtocolTCP)
	}
	return fmt.Sprintf("%s/%s/%d", ip, protocol, port)
}

func usedPorts(h cache.HostPortInfo) []string {
	var out []string
	for ip, set := range h {
		for pp := range set {
			out = append(out, portString(ip, pp.Protocol, pp.Port))
		}
	}
	sort.Strings(out)
	return out
}

func podName(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

func podNames(pis []*cache.PodInfo) []string {
	var out []string
	for _, pi := range pis {
		out = append(out, podName(pi.Pod))
	}
	sort.Strings(out)
	return out
}

// sortedNodeNames returns the keys of a Dump in name order.
func sortedNodeNames(nodes map[string]*cache.NodeInfo) []string {
	names := make([]string, 0, len(nodes))
	for name := range nodes {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
