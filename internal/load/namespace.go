package load

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
)

// clusterScoped are the kinds read from files that have no namespace; every
// other kind kept (pods, claims, workloads, disruption budgets…) has one.
var clusterScoped = sets.New(
	schema.GroupKind{Kind: "Node"}, schema.GroupKind{Kind: "PersistentVolume"}, schema.GroupKind{Kind: "Namespace"},
	schema.GroupKind{Group: "storage.k8s.io", Kind: "StorageClass"}, schema.GroupKind{Group: "storage.k8s.io", Kind: "CSINode"},
	schema.GroupKind{Group: "storage.k8s.io", Kind: "CSIDriver"}, schema.GroupKind{Group: "storage.k8s.io", Kind: "VolumeAttachment"},
	schema.GroupKind{Group: "resource.k8s.io", Kind: "ResourceSlice"}, schema.GroupKind{Group: "resource.k8s.io", Kind: "DeviceClass"},
)

// namespaceOf is the namespace of a namespaced object read from a file:
// its own, else FileOptions.Namespace, else "default" (kubectl's -f rule:
// -n, else the context's namespace, else default).
func (c *collector) namespaceOf(own string) string {
	switch {
	case own != "":
		return own
	case c.namespace != "":
		return c.namespace
	}
	return corev1.NamespaceDefault
}

// setNamespace gives a namespaced object read without a namespace the one
// namespaceOf says; cluster-scoped objects keep none.
func (c *collector) setNamespace(gk schema.GroupKind, obj interface {
	GetNamespace() string
	SetNamespace(string)
}) {
	if !clusterScoped.Has(gk) {
		obj.SetNamespace(c.namespaceOf(obj.GetNamespace()))
	}
}
