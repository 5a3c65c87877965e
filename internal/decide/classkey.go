package decide

import (
	"encoding/json"

	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	resourcehelper "k8s.io/component-helpers/resource"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"
)

// podIdentity is what, beside a pod's name and UID, tells Evaluate whether a
// pod's cycle can depend on which pod it is, read once from Input.Objects.
type podIdentity struct {
	// owners are the UIDs of the pods that are the controller of some
	// object: DynamicResources looks up a pod's extended-resource claim by
	// its controller reference (name and UID: findExtendedResourceClaim,
	// extendeddynamicresources.go, v1.36.3).
	owners sets.Set[types.UID]
	// deviceClasses: some DeviceClass exists, so an extended resource may
	// be backed by DRA, whose claim for it is the pod's own.
	deviceClasses bool
}

func newPodIdentity(objects []k8sruntime.Object) podIdentity {
	id := podIdentity{owners: sets.New[types.UID]()}
	for _, o := range objects {
		switch o.(type) {
		case *resourcev1.DeviceClass, *resourcev1beta1.DeviceClass, *resourcev1beta2.DeviceClass:
			id.deviceClasses = true
		}
		m, ok := o.(metav1.Object)
		if !ok {
			continue
		}
		for _, ref := range m.GetOwnerReferences() {
			if ref.Kind == "Pod" {
				id.owners.Insert(ref.UID)
			}
		}
	}
	return id
}

// classKey is the key of pod's equivalence class under profile: pods with
// equal keys get the same verdict from every PreEnqueue, PreFilter, Filter,
// PreScore, Score and PostFilter plugin and from the cycle around them, so
// one cycle serves them all. "" means the pod is a class of its own.
//
// The key is the pod as JSON without what only names the object (name,
// generateName, UID, resourceVersion, creationTimestamp, managedFields,
// selfLink) and without its PodScheduled condition (the scheduler's own
// record of earlier cycles, which no plugin reads). Everything else stays,
// read by a plugin or not: namespace, labels and owner references
// (affinity terms, topology spread and its default selectors), annotations,
// the whole spec, and the status (PodRequests reads container statuses and
// the resize condition; DRA reads claim statuses).
//
// A cycle reads the pod's name or UID, and so is its own, when the pod is
// nominated (the nominated-pods pass leaves the pod itself out by UID:
// addGENominatedPods, framework/runtime/framework.go, and its nominated
// node is tried first), when it has resource claims (claims generated from
// a template are named in its status, and a claim reserved for it is
// matched by UID), generic ephemeral volumes (their PVCs are named after
// the pod), when some object names it as controller, or when it requests an
// extended resource while a DeviceClass exists (DRA's claim for the
// extended resource is the pod's own, found by owner name and UID). Those
// pods get "".
func (e *Evaluator) classKey(profile string, pod *v1.Pod) string {
	if !e.shareable(pod) {
		return ""
	}
	k := *pod
	k.Name, k.GenerateName, k.UID, k.ResourceVersion = "", "", "", ""
	k.SetSelfLink("") // no longer set by servers, but old dumps carry it
	k.CreationTimestamp, k.ManagedFields = metav1.Time{}, nil
	k.Status.Conditions = nil
	for _, c := range pod.Status.Conditions {
		if c.Type != v1.PodScheduled {
			k.Status.Conditions = append(k.Status.Conditions, c)
		}
	}
	key, err := json.Marshal(struct {
		Profile string
		Pod     *v1.Pod
	}{profile, &k})
	if err != nil {
		return ""
	}
	return string(key)
}

// shareable says whether pod's cycle can be shared at all (see classKey).
func (e *Evaluator) shareable(pod *v1.Pod) bool {
	switch {
	case e.evaluateEach,
		pod.Status.NominatedNodeName != "",
		e.nominator.holds(pod.UID),
		len(pod.Spec.ResourceClaims) > 0,
		hasEphemeralVolume(pod),
		e.identity.owners.Has(pod.UID),
		e.identity.deviceClasses && requestsExtendedResource(pod):
		return false
	}
	return true
}

func hasEphemeralVolume(p *v1.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if v.Ephemeral != nil {
			return true
		}
	}
	return false
}

// requestsExtendedResource: some container, the pod or its overhead
// requests a resource DRA could back (IsDRAExtendedResourceName).
func requestsExtendedResource(p *v1.Pod) bool {
	for name := range resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}) {
		if schedutil.IsDRAExtendedResourceName(name) {
			return true
		}
	}
	return false
}

// ClassKey is the key of pod's equivalence class (see classKey) under the
// profile of its schedulerName: two pods with equal non-empty keys get the
// same verdict from every cycle over the same state. "" when the pod is a
// class of its own, or no profile serves it.
func (e *Evaluator) ClassKey(pod *v1.Pod) string {
	fw, ok := e.frameworks[pod.Spec.SchedulerName]
	if !ok {
		return ""
	}
	return e.classKey(fw.ProfileName(), pod)
}
