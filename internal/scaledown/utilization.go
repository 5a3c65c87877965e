package scaledown

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// GPUResource is the extended resource that makes a node a GPU node, whose
// utilization is its GPU's alone (cluster-autoscaler's default GPU
// resource name).
const GPUResource v1.ResourceName = "nvidia.com/gpu"

// Utilization is a node's requested share of its allocatable resources,
// as cluster-autoscaler computes it (simulator/utilization): per resource
// the sum of the node's pods' requests over the node's allocatable; 0 when
// nothing of it is allocatable. The requests are those the scheduler's
// cache accounts (init containers, sidecars, overhead, resizes, as the
// modelled version does), so the shares agree with "dump".
type Utilization struct {
	CPU, Memory, GPU float64
	// Resource names the resource Value is of: "cpu" or "memory" (the
	// higher of the two; cpu on a tie), or GPUResource on a GPU node.
	Resource v1.ResourceName
	// Value is the node's utilization, compared with the threshold.
	Value float64
}

// utilizationOf computes node's utilization from pods (the cache's pods
// of the node), leaving DaemonSet and mirror pods out as opts says.
func utilizationOf(node *v1.Node, pods []*cache.PodInfo, opts *Options) Utilization {
	var cpu, mem, gpu int64
	for _, pi := range pods {
		p := pi.Pod
		if opts.IgnoreDaemonSetsUtilization && isDaemonSetPod(p) || opts.IgnoreMirrorPodsUtilization && isMirrorPod(p) {
			continue
		}
		r := &pi.Resource.Resource
		cpu += r.MilliCPU
		mem += r.Memory
		gpu += r.ScalarResources[GPUResource]
	}
	alloc := node.Status.Allocatable
	u := Utilization{
		CPU:    ratio(cpu, alloc.Cpu().MilliValue()),
		Memory: ratio(mem, alloc.Memory().Value()),
	}
	if q, ok := alloc[GPUResource]; ok && !q.IsZero() {
		u.GPU = ratio(gpu, q.Value())
		u.Resource, u.Value = GPUResource, u.GPU
		return u
	}
	u.Resource, u.Value = v1.ResourceCPU, u.CPU
	if u.Memory > u.CPU {
		u.Resource, u.Value = v1.ResourceMemory, u.Memory
	}
	return u
}

func ratio(requested, allocatable int64) float64 {
	if allocatable <= 0 {
		return 0
	}
	return float64(requested) / float64(allocatable)
}

// isGPUNode: the node has GPUResource allocatable.
func isGPUNode(node *v1.Node) bool {
	q, ok := node.Status.Allocatable[GPUResource]
	return ok && !q.IsZero()
}

func isDaemonSetPod(p *v1.Pod) bool {
	ref := metav1.GetControllerOfNoCopy(p)
	return ref != nil && ref.Kind == "DaemonSet"
}

func isMirrorPod(p *v1.Pod) bool {
	_, ok := p.Annotations[v1.MirrorPodAnnotationKey]
	return ok
}
