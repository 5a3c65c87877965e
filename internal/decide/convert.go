package decide

import (
	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// convertNode is the one place where our model's NodeInfo becomes the
// framework's. The plugins read a NodeInfo's pods, used ports, Requested,
// NonZeroRequested, Allocatable, image states, PVC counts and declared
// features; all but the last come from our cache as it accounted them (the
// point of the model: equal to what kube-scheduler's cache holds, which
// TestConvertMatchesUpstreamAccounting checks against framework.NodeInfo's own
// AddPod). Declared features are derived by the framework's SetNode, as the
// scheduler's cache does when a node is added (framework/types.go, v1.36).
//
// ni must have a node. prev is the node's previous conversion, or nil: a pod
// object prev already held keeps its PodInfo (the pod plus its parsed
// affinity terms, a pure function of the pod), so converting a node again
// after one pod was assumed parses that one pod. Within a node, the
// affinity lists hold the same PodInfos as the pod list, as upstream's do.
// It reads nothing but its arguments, so nodes convert in parallel.
func convertNode(ni *cache.NodeInfo, prev *framework.NodeInfo) *framework.NodeInfo {
	out := framework.NewNodeInfo()
	out.SetNode(ni.Node())
	pc := podConverter{prev: podInfosOf(prev)}
	out.Pods = pc.pods(ni.Pods)
	if len(ni.PodsWithAffinity)+len(ni.PodsWithRequiredAntiAffinity) > 0 {
		pc.made = make(map[*cache.PodInfo]fwk.PodInfo, len(ni.Pods))
		for i, pi := range ni.Pods {
			pc.made[pi] = out.Pods[i]
		}
		out.PodsWithAffinity = pc.pods(ni.PodsWithAffinity)
		out.PodsWithRequiredAntiAffinity = pc.pods(ni.PodsWithRequiredAntiAffinity)
	}
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

// podInfosOf indexes a converted node's PodInfos by pod object.
func podInfosOf(ni *framework.NodeInfo) map[*v1.Pod]fwk.PodInfo {
	if ni == nil || len(ni.Pods) == 0 {
		return nil
	}
	m := make(map[*v1.Pod]fwk.PodInfo, len(ni.Pods))
	for _, pi := range ni.Pods {
		m[pi.GetPod()] = pi
	}
	return m
}

// podConverter makes one node's PodInfos: the ones already made for this
// conversion (made), else the previous conversion's for the same pod
// object (prev), else new ones.
type podConverter struct {
	prev map[*v1.Pod]fwk.PodInfo
	made map[*cache.PodInfo]fwk.PodInfo
}

func (c *podConverter) pods(in []*cache.PodInfo) []fwk.PodInfo {
	if len(in) == 0 {
		return nil
	}
	out := make([]fwk.PodInfo, len(in))
	for i, pi := range in {
		out[i] = c.podInfo(pi)
	}
	return out
}

func (c *podConverter) podInfo(pi *cache.PodInfo) fwk.PodInfo {
	if fpi, ok := c.made[pi]; ok {
		return fpi
	}
	if fpi, ok := c.prev[pi.Pod]; ok {
		return fpi
	}
	return newPodInfo(pi.Pod)
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
