package load

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ServedKind returns the kind an object of gvk is served as today: for the
// workload kinds of the group-versions the API server no longer serves
// (DaemonSet, Deployment, ReplicaSet and StatefulSet of extensions/v1beta1,
// apps/v1beta1 and apps/v1beta2, removed in Kubernetes v1.16), their
// apps/v1 kind; gvk itself for every other kind. Old clusters' dumps and
// the ownerReferences of pods created by their controllers name these
// versions: the objects are the same, stored once and read as apps/v1
// since, so the model reads them as apps/v1 too (the fields the scheduler
// and kubectl drain read have the same names and meaning in every version).
func ServedKind(gvk schema.GroupVersionKind) schema.GroupVersionKind {
	if !legacyWorkloadVersion(gvk.GroupVersion()) {
		return gvk
	}
	switch gvk.Kind {
	case "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet",
		"DaemonSetList", "DeploymentList", "ReplicaSetList", "StatefulSetList":
		return appsv1.SchemeGroupVersion.WithKind(gvk.Kind)
	}
	return gvk
}

// legacyWorkloadVersion: a group-version that once served the apps
// workloads.
func legacyWorkloadVersion(gv schema.GroupVersion) bool {
	switch gv {
	case schema.GroupVersion{Group: "extensions", Version: "v1beta1"},
		schema.GroupVersion{Group: "apps", Version: "v1beta1"},
		schema.GroupVersion{Group: "apps", Version: "v1beta2"}:
		return true
	}
	return false
}
