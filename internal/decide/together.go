package decide

import (
	v1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// FitWhereNamed reports whether the pods that verdicts call scheduled, each
// judged alone, also fit all together on the nodes their verdicts name:
// per node, the named pods' requests (component-helpers' PodRequests, as
// NodeResourcesFit sums them) added to what the node's pods request stay
// within its allocatable cpu, memory, ephemeral storage and scalar
// resources, and the pod count within its allowed pods. Then placing them
// one after another cannot leave one without room on its node, so the
// placement one after another (PlaceTogether, a cycle per pod) is not
// needed to know that none stays Pending. It returns false, to ask for
// that placement, for a pod whose fit depends on the other pods placed
// beside it: required pod (anti-)affinity, DoNotSchedule topology spread,
// host ports, claims (volumes and resources). snap is the snapshot the
// verdicts were decided on. Cost: one pass over the pods.
func FitWhereNamed(snap *cache.Snapshot, verdicts []*Verdict) bool {
	need := map[string]*cache.Resource{}
	count := map[string]int64{}
	for _, v := range verdicts {
		if v.Result != Scheduled || v.Pod.Spec.NodeName != "" {
			continue
		}
		if dependsOnOthers(v.Pod) {
			return false
		}
		r := need[v.Node]
		if r == nil {
			r = &cache.Resource{}
			need[v.Node] = r
		}
		r.Add(resourcehelper.PodRequests(v.Pod, resourcehelper.PodResourcesOptions{}))
		count[v.Node]++
	}
	for name, r := range need {
		n, err := snap.Get(name)
		if err != nil || !fitsBeside(n, r, count[name]) {
			return false
		}
	}
	return true
}

// fitsBeside: r and k more pods fit n as it is.
func fitsBeside(n *cache.NodeInfo, r *cache.Resource, k int64) bool {
	a, used := n.Allocatable, n.Requested
	if int64(len(n.Pods))+k > a.AllowedPodNumber || used.MilliCPU+r.MilliCPU > a.MilliCPU ||
		used.Memory+r.Memory > a.Memory || used.EphemeralStorage+r.EphemeralStorage > a.EphemeralStorage && r.EphemeralStorage > 0 {
		return false
	}
	for name, q := range r.ScalarResources {
		if q > 0 && used.ScalarResources[name]+q > a.ScalarResources[name] {
			return false
		}
	}
	return true
}

// dependsOnOthers: the pod's Filter verdict on a node can change with the
// pods placed beside it otherwise than by their requests.
func dependsOnOthers(p *v1.Pod) bool {
	if a := p.Spec.Affinity; a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil) {
		return true
	}
	for _, c := range p.Spec.TopologySpreadConstraints {
		if c.WhenUnsatisfiable == v1.DoNotSchedule {
			return true
		}
	}
	if len(p.Spec.ResourceClaims) > 0 {
		return true
	}
	for _, v := range p.Spec.Volumes {
		if v.PersistentVolumeClaim != nil || v.Ephemeral != nil {
			return true
		}
	}
	for _, c := range append(append([]v1.Container{}, p.Spec.InitContainers...), p.Spec.Containers...) {
		for _, port := range c.Ports {
			if port.HostPort > 0 {
				return true
			}
		}
	}
	return false
}
