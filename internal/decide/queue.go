package decide

import (
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
)

// QueueOrder returns pods in the order kube-scheduler's active queue pops
// them, by its PrioritySort plugin (the only in-tree QueueSort plugin,
// v1.36): higher spec.priority first, then earlier arrival. A pod arrives
// in the queue when the scheduler's informer delivers it; its
// creationTimestamp stands in for that here, and pods without one (given
// in a file, not yet created) arrive after all others, in the given order.
func QueueOrder(pods []*v1.Pod) []*v1.Pod {
	var latest time.Time
	for _, p := range pods {
		if t := p.CreationTimestamp.Time; t.After(latest) {
			latest = t
		}
	}
	infos := make([]*framework.QueuedPodInfo, len(pods))
	for i, p := range pods {
		at := p.CreationTimestamp.Time
		if at.IsZero() {
			at = latest.Add(time.Duration(i+1) * time.Nanosecond)
		}
		infos[i] = &framework.QueuedPodInfo{PodInfo: &framework.PodInfo{Pod: p}, Timestamp: at}
	}
	less := (&queuesort.PrioritySort{}).Less
	sort.SliceStable(infos, func(i, j int) bool { return less(infos[i], infos[j]) })
	out := make([]*v1.Pod, len(pods))
	for i, qi := range infos {
		out[i] = qi.Pod
	}
	return out
}
