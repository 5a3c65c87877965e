package decide

import (
	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// converter is the one place where our model's NodeInfo becomes the
// framework's. The plugins read a NodeInfo's pods, used ports, Requested,
// NonZeroRequested, Allocatable, image states, PVC counts and declared
// features; all but the last come from our cache as it accounted them (the
// point of the model: equal to what kube-scheduler's cache holds, which
// TestConvertMatchesUpstreamAccounting checks against framework.NodeInfo's own
// AddPod). Declared features are derived by the framework's SetNode, as the
// scheduler's cache does when a node is added (framework/types.go, v1.36).
//
// PodInfos (the pod plus its parsed affinity terms) are made once per cached
// pod and reused when a node is converted again.
type converter struct {
	podInfos map[*cache.PodInfo]*framework.PodInfo
}

func newConverter() *converter {
	return &converter{podInfos: map[*cache.PodInfo]*framework.PodInfo{}}
}

// nodeInfo converts one NodeInfo of a snapshot (it must have a node).
func (c *converter) nodeInfo(ni *cache.NodeInfo) *framework.NodeInfo {
	out := framework.NewNodeInfo()
	out.SetNode(ni.Node())
	out.Pods = c.pods(ni.Pods)
	out.PodsWithAffinity = c.pods(ni.PodsWithAffinity)
	out.PodsWithRequiredAntiAffinity = c.pods(ni.PodsWithRequiredAntiAffinity)
	out.UsedPorts = usedPorts(ni.UsedPorts)
	out.Requested = toResource(ni.Requested)
	out.NonZeroRequested = toResource(ni.NonZeroRequested)
	out.Allocatable = toResource(ni.Allocatable)
	for name, st := range ni.ImageStates {
		out.ImageStates[name] = &fwk.ImageStateSummary{Size: st.Size, NumNodes: st.NumNodes}
	}
	for k, n := range ni.PVCRefCounts {
		out.PVCRefCounts[k] = n
	}
	out.Generation = ni.Generation
	return out
}

func (c *converter) pods(in []*cache.PodInfo) []fwk.PodInfo {
	if len(in) == 0 {
		return nil
	}
	out := make([]fwk.PodInfo, len(in))
	for i, pi := range in {
		out[i] = c.podInfo(pi)
	}
	return out
}

func (c *converter) podInfo(pi *cache.PodInfo) *framework.PodInfo {
	if fpi, ok := c.podInfos[pi]; ok {
		return fpi
	}
	fpi := newPodInfo(pi.Pod)
	c.podInfos[pi] = fpi
	return fpi
}

// newPodInfo parses a pod's affinity terms. Like the scheduler's cache
// (NodeInfo.AddPod), a term that does not parse is dropped, not an error:
// the API server does not validate every selector it stores.
func newPodInfo(pod *v1.Pod) *framework.PodInfo {
	pi, _ := framework.NewPodInfo(pod)
	return pi
}

func toResource(r *cache.Resource) *framework.Resource {
	out := &framework.Resource{
		MilliCPU:         r.MilliCPU,
		Memory:           r.Memory,
		EphemeralStorage: r.EphemeralStorage,
		AllowedPodNumber: int(r.AllowedPodNumber),
	}
	if len(r.ScalarResources) > 0 {
		out.ScalarResources = make(map[v1.ResourceName]int64, len(r.ScalarResources))
		for k, v := range r.ScalarResources {
			out.ScalarResources[k] = v
		}
	}
	return out
}

func usedPorts(in cache.HostPortInfo) fwk.HostPortInfo {
	out := make(fwk.HostPortInfo, len(in))
	for ip, ports := range in {
		m := make(map[fwk.ProtocolPort]struct{}, len(ports))
		for p := range ports {
			m[fwk.ProtocolPort{Protocol: p.Protocol, Port: p.Port}] = struct{}{}
		}
		out[ip] = m
	}
	return out
}
