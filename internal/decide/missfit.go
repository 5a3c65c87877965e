package decide

import (
	"cmp"
	"slices"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
)

// podAsks is what a pod asks of each resource NodeResourcesFit can find
// short, by the reason it gives ("Insufficient cpu", "Too many pods"), as
// noderesources.Fits computes it with v1.36's default gates.
//
// The near misses need each rejecting node's shortfalls, and Fits
// computes the pod's request again for every node (most of the analysis'
// cost on an unschedulable pod at 5,000 nodes). The request is the pod's
// alone, so newPodAsks asks Fits once, against a node with nothing
// allocatable and no room for a pod: every resource the pod requests is
// then insufficient, with the pod's request as Requested (Fits skips the
// resources it requests none of, on any node). A node's part, its free
// amount, is Fits' Capacity − Used for that resource (free).
type podAsks map[string]noderesources.InsufficientResource

func newPodAsks(pod *v1.Pod) podAsks {
	asks := podAsks{}
	for _, ir := range noderesources.Fits(pod, framework.NewNodeInfo(), nil, fitsOptions()) {
		asks[ir.Reason] = ir
	}
	return asks
}

// fitsOptions are the gates of Fits' request as v1.36.3 defaults them.
func fitsOptions() noderesources.ResourceRequestsOptions {
	return noderesources.ResourceRequestsOptions{
		EnablePodLevelResources:           utilfeature.DefaultFeatureGate.Enabled(features.PodLevelResources),
		EnableDRANodeAllocatableResources: utilfeature.DefaultFeatureGate.Enabled(features.DRANodeAllocatableResources),
	}
}

// shortfalls are the resources of reasons with the pod's request and
// ni's free amount, in the order of reasons; reasons that are not
// NodeResourcesFit's resource reasons are left out.
func (a podAsks) shortfalls(ni fwk.NodeInfo, reasons []string) []Shortfall {
	var out []Shortfall
	for _, r := range reasons {
		ir, ok := a[r]
		if !ok {
			continue
		}
		out = append(out, Shortfall{Resource: string(ir.ResourceName), Requested: ir.Requested, Free: free(ni, ir.ResourceName)})
	}
	return out
}

// free is fitsRequest's Capacity − Used of one resource on ni (v1.36.3):
// allocatable minus requested, and for pods the allowed number minus the
// pods on the node.
func free(ni fwk.NodeInfo, name v1.ResourceName) int64 {
	alloc, req := ni.GetAllocatable(), ni.GetRequested()
	switch name {
	case v1.ResourcePods:
		return int64(alloc.GetAllowedPodNumber()) - int64(len(ni.GetPods()))
	case v1.ResourceCPU:
		return alloc.GetMilliCPU() - req.GetMilliCPU()
	case v1.ResourceMemory:
		return alloc.GetMemory() - req.GetMemory()
	case v1.ResourceEphemeralStorage:
		return alloc.GetEphemeralStorage() - req.GetEphemeralStorage()
	}
	return alloc.GetScalarResources()[name] - req.GetScalarResources()[name]
}

// nearest are the n misses nearest to taking the pod (all with n ≤ 0), in
// nearMisses' order: fewest rejections, then fewest reasons, then the
// smallest shortage, then the order given. Each miss's rank is worked out
// once: a comparison that counted them again was most of the sort, and
// the sort most of the near misses' own work at 5,000 nodes.
func nearest(misses []NearMiss, n int) []NearMiss {
	type rank struct {
		rejections, reasons int
		shortage            float64
		i                   int
	}
	ranks := make([]rank, len(misses))
	for i := range misses {
		m := &misses[i]
		ranks[i] = rank{rejections: len(m.Rejections), reasons: m.reasons(), shortage: m.shortage(), i: i}
	}
	slices.SortStableFunc(ranks, func(a, b rank) int {
		switch {
		case a.rejections != b.rejections:
			return cmp.Compare(a.rejections, b.rejections)
		case a.reasons != b.reasons:
			return cmp.Compare(a.reasons, b.reasons)
		case a.shortage < b.shortage:
			return -1
		case b.shortage < a.shortage:
			return 1
		}
		return 0
	})
	if n > 0 && len(ranks) > n {
		ranks = ranks[:n]
	}
	if len(ranks) == 0 {
		return nil
	}
	out := make([]NearMiss, len(ranks))
	for k, r := range ranks {
		out[k] = misses[r.i]
	}
	return out
}
