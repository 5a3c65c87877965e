package whatif

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Recreation says what a pod's controller does once the pod is gone
// (evicted, deleted, or lost with its node).
type Recreation string

const (
	// Recreated means: a ReplicaSet, StatefulSet, Job or ReplicationController
	// creates a replacement from the same template.
	Recreated Recreation = "recreated"
	// NotMoved means: a DaemonSet pod belongs to its node; the DaemonSet does not
	// place it elsewhere.
	NotMoved Recreation = "not-moved"
	// NotRecreated means: a pod without a controller (or with one this package
	// does not know) is gone for good.
	NotRecreated Recreation = "not-recreated"
)

// ReplacementSuffix ends the name of a replacement whose controller names
// pods with a random suffix (ReplicaSet, Job, ReplicationController): the
// real name is unknowable, so the replacement is named after the pod it
// replaces, stable across runs.
const ReplacementSuffix = "-replacement"

// RecreationOf tells what the pod's controller (its ownerReference with
// controller: true) does when the pod goes away: ReplicaSet, StatefulSet,
// Job and ReplicationController recreate it, a DaemonSet does not move it,
// anything else (no controller, or a custom resource's controller, whose
// behaviour is unknown) leaves it gone.
func RecreationOf(pod *v1.Pod) Recreation {
	ref := metav1.GetControllerOfNoCopy(pod)
	if ref == nil {
		return NotRecreated
	}
	switch ref.Kind {
	case "ReplicaSet", "StatefulSet", "Job", "ReplicationController":
		return Recreated
	case "DaemonSet":
		return NotMoved
	}
	return NotRecreated
}

// Replacement returns the pod the controller creates in place of pod, as
// the scheduler's queue then sees it: the same spec and labels, no node
// (spec.nodeName and status.nominatedNodeName cleared), status reset to
// Pending (QoS class kept: the API server sets it from the spec), no
// deletion timestamp, and a UID derived from pod's so that the cache and
// the nominator never confuse the two. A StatefulSet's replacement keeps the
// pod's name (and so its claims); others get the name plus
// ReplacementSuffix. pod is not modified.
//
// Upstream: the controllers' pod creation from the template
// (pkg/controller/controller_utils.go GetPodFromTemplate, v1.36) gives the
// same spec; the differences that cannot matter to the scheduler (a new
// random name, creation time) are chosen deterministically instead.
func Replacement(pod *v1.Pod) *v1.Pod {
	r := &v1.Pod{
		TypeMeta: pod.TypeMeta,
		ObjectMeta: metav1.ObjectMeta{
			Name:            pod.Name,
			GenerateName:    pod.GenerateName,
			Namespace:       pod.Namespace,
			UID:             types.UID(string(pod.UID) + ReplacementSuffix),
			Labels:          pod.Labels,
			Annotations:     pod.Annotations,
			OwnerReferences: pod.OwnerReferences,
			Finalizers:      pod.Finalizers,
		},
		Spec:   *pod.Spec.DeepCopy(),
		Status: v1.PodStatus{Phase: v1.PodPending, QOSClass: pod.Status.QOSClass},
	}
	if ref := metav1.GetControllerOfNoCopy(pod); ref == nil || ref.Kind != "StatefulSet" {
		r.Name = pod.Name + ReplacementSuffix
	}
	r.Spec.NodeName = ""
	return r
}
