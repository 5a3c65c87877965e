package gencluster

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// smallLabels is how many of a pod's labels ShapeSmall keeps.
const smallLabels = 2

// smallPod is pod as ShapeSmall writes it: what the scheduler's cache and
// filters read, nothing the API server or the kubelet adds around it. It
// draws nothing from the random source, so the pods after it are those of
// the default shape.
func smallPod(pod *v1.Pod) *v1.Pod {
	s := &v1.Pod{
		TypeMeta: pod.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:                       pod.Name,
			Namespace:                  pod.Namespace,
			UID:                        pod.UID,
			CreationTimestamp:          pod.CreationTimestamp,
			DeletionTimestamp:          pod.DeletionTimestamp,
			DeletionGracePeriodSeconds: pod.DeletionGracePeriodSeconds,
			Labels:                     firstLabels(pod.Labels, smallLabels),
			OwnerReferences:            pod.OwnerReferences,
		},
		Spec: v1.PodSpec{
			Containers: smallContainers(pod.Spec.Containers),
			NodeName:   pod.Spec.NodeName,
		},
		Status: v1.PodStatus{Phase: pod.Status.Phase, NominatedNodeName: pod.Status.NominatedNodeName},
	}
	if p := pod.Spec.Priority; p != nil && *p != 0 {
		// The scheduler reads a missing priority as 0.
		s.Spec.Priority = p
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
			s.Status.Conditions = []v1.PodCondition{{Type: c.Type, Status: c.Status, Reason: c.Reason, LastTransitionTime: c.LastTransitionTime}}
		}
	}
	return s
}

// firstLabels keeps the n first labels in key order (a deterministic choice).
func firstLabels(labels map[string]string, n int) map[string]string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]string, min(n, len(keys)))
	for _, k := range keys[:min(n, len(keys))] {
		out[k] = labels[k]
	}
	return out
}

// smallContainers keeps each container's name, image and requests.
func smallContainers(cs []v1.Container) []v1.Container {
	out := make([]v1.Container, len(cs))
	for i, c := range cs {
		out[i] = v1.Container{Name: c.Name, Image: c.Image, Resources: v1.ResourceRequirements{Requests: c.Resources.Requests}}
	}
	return out
}
