package loadtest

import (
	"maps"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// SelectPending makes the first n plain pending pods of pods (no node, no
// scheduling gate, no volume, the default scheduler) select selector, with
// no affinity, and sets their first container's requests to 1 cpu and
// 2Gi; copies replace the objects in pods. Their other containers, init
// containers and overhead stay as generated, so the pods' total requests
// differ (from 1 cpu / 768Mi up). It returns how many it changed. The
// until-fits and scale-up benchmarks place them on new nodes.
func SelectPending(pods []*v1.Pod, n int, selector map[string]string) int {
	chosen := 0
	for i, p := range pods {
		if chosen == n {
			break
		}
		if p.Spec.NodeName != "" || len(p.Spec.SchedulingGates) > 0 || len(p.Spec.Volumes) > 0 || (p.Spec.SchedulerName != "" && p.Spec.SchedulerName != v1.DefaultSchedulerName) {
			continue
		}
		q := p.DeepCopy()
		q.Spec.NodeSelector = maps.Clone(selector)
		q.Spec.Affinity = nil
		q.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("2Gi")}
		pods[i] = q
		chosen++
	}
	return chosen
}
