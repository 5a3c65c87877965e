package load

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/pager"
)

// SchedulingKind is a kind of object, other than Node and Pod, that one of
// kube-scheduler v1.36's default plugins reads through an informer.
type SchedulingKind struct {
	// GVR is what a live cluster is listed by.
	GVR schema.GroupVersionResource
	// Kind is the object's kind in that group and version.
	Kind string
	// Plugins names the plugins whose verdicts depend on objects of this
	// kind: when they cannot be listed, those verdicts become approximate.
	Plugins []string
}

// SchedulingKinds are the kinds Cluster.Objects holds, in the order they are
// listed. Upstream: the informers the v1.36 in-tree plugins register in their
// constructors (pkg/scheduler/framework/plugins/*, framework/preemption).
var SchedulingKinds = []SchedulingKind{
	{corev1.SchemeGroupVersion.WithResource("persistentvolumeclaims"), "PersistentVolumeClaim", []string{"VolumeBinding", "VolumeRestrictions", "VolumeZone", "NodeVolumeLimits"}},
	{corev1.SchemeGroupVersion.WithResource("persistentvolumes"), "PersistentVolume", []string{"VolumeBinding", "VolumeZone", "NodeVolumeLimits"}},
	{storagev1.SchemeGroupVersion.WithResource("storageclasses"), "StorageClass", []string{"VolumeBinding", "VolumeZone", "NodeVolumeLimits"}},
	{storagev1.SchemeGroupVersion.WithResource("csinodes"), "CSINode", []string{"NodeVolumeLimits", "VolumeBinding"}},
	{storagev1.SchemeGroupVersion.WithResource("csidrivers"), "CSIDriver", []string{"NodeVolumeLimits", "VolumeBinding"}},
	{storagev1.SchemeGroupVersion.WithResource("csistoragecapacities"), "CSIStorageCapacity", []string{"VolumeBinding"}},
	{storagev1.SchemeGroupVersion.WithResource("volumeattachments"), "VolumeAttachment", []string{"NodeVolumeLimits"}},
	{corev1.SchemeGroupVersion.WithResource("namespaces"), "Namespace", []string{"InterPodAffinity"}},
	{corev1.SchemeGroupVersion.WithResource("services"), "Service", []string{"PodTopologySpread"}},
	{corev1.SchemeGroupVersion.WithResource("replicationcontrollers"), "ReplicationController", []string{"PodTopologySpread"}},
	{appsv1.SchemeGroupVersion.WithResource("replicasets"), "ReplicaSet", []string{"PodTopologySpread"}},
	{appsv1.SchemeGroupVersion.WithResource("statefulsets"), "StatefulSet", []string{"PodTopologySpread"}},
	{policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets"), "PodDisruptionBudget", []string{"DefaultPreemption"}},
	{resourcev1.SchemeGroupVersion.WithResource("resourceclaims"), "ResourceClaim", []string{"DynamicResources"}},
	{resourcev1.SchemeGroupVersion.WithResource("resourceslices"), "ResourceSlice", []string{"DynamicResources"}},
	{resourcev1.SchemeGroupVersion.WithResource("deviceclasses"), "DeviceClass", []string{"DynamicResources"}},
}

// DaemonSetKind is the kind kubectl drain reads besides the scheduling
// kinds: its DaemonSet rule looks up the DaemonSet that controls a pod
// (k8s.io/kubectl/pkg/drain, v0.36). List it with ListOptions.Kinds; from
// files, keep it with FileOptions.ExtraKinds.
func DaemonSetKind() SchedulingKind {
	return SchedulingKind{appsv1.SchemeGroupVersion.WithResource("daemonsets"), "DaemonSet", []string{"drain's DaemonSet rule"}}
}

// schedulingKind returns the entry of SchedulingKinds of gvk's group and
// kind (whatever its version), or nil.
func schedulingKind(gvk schema.GroupVersionKind) *SchedulingKind {
	for i := range SchedulingKinds {
		if k := &SchedulingKinds[i]; k.GVR.Group == gvk.Group && k.Kind == gvk.Kind {
			return k
		}
	}
	return nil
}

// lister returns the paged list function of kind's resource at the cluster
// scope, through client's typed client (protobuf when client is configured
// for it, see ConfigureClient), or nil for a kind it does not know.
func lister(client kubernetes.Interface, kind SchedulingKind) pager.ListPageFunc {
	var list func(context.Context, metav1.ListOptions) (runtime.Object, error)
	switch kind.GVR {
	case corev1.SchemeGroupVersion.WithResource("persistentvolumeclaims"):
		list = wrap(client.CoreV1().PersistentVolumeClaims(metav1.NamespaceAll).List)
	case corev1.SchemeGroupVersion.WithResource("persistentvolumes"):
		list = wrap(client.CoreV1().PersistentVolumes().List)
	case storagev1.SchemeGroupVersion.WithResource("storageclasses"):
		list = wrap(client.StorageV1().StorageClasses().List)
	case storagev1.SchemeGroupVersion.WithResource("csinodes"):
		list = wrap(client.StorageV1().CSINodes().List)
	case storagev1.SchemeGroupVersion.WithResource("csidrivers"):
		list = wrap(client.StorageV1().CSIDrivers().List)
	case storagev1.SchemeGroupVersion.WithResource("csistoragecapacities"):
		list = wrap(client.StorageV1().CSIStorageCapacities(metav1.NamespaceAll).List)
	case storagev1.SchemeGroupVersion.WithResource("volumeattachments"):
		list = wrap(client.StorageV1().VolumeAttachments().List)
	case corev1.SchemeGroupVersion.WithResource("namespaces"):
		list = wrap(client.CoreV1().Namespaces().List)
	case corev1.SchemeGroupVersion.WithResource("services"):
		list = wrap(client.CoreV1().Services(metav1.NamespaceAll).List)
	case corev1.SchemeGroupVersion.WithResource("replicationcontrollers"):
		list = wrap(client.CoreV1().ReplicationControllers(metav1.NamespaceAll).List)
	case appsv1.SchemeGroupVersion.WithResource("replicasets"):
		list = wrap(client.AppsV1().ReplicaSets(metav1.NamespaceAll).List)
	case appsv1.SchemeGroupVersion.WithResource("statefulsets"):
		list = wrap(client.AppsV1().StatefulSets(metav1.NamespaceAll).List)
	case appsv1.SchemeGroupVersion.WithResource("daemonsets"):
		list = wrap(client.AppsV1().DaemonSets(metav1.NamespaceAll).List)
	case policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets"):
		list = wrap(client.PolicyV1().PodDisruptionBudgets(metav1.NamespaceAll).List)
	case resourcev1.SchemeGroupVersion.WithResource("resourceclaims"):
		list = wrap(client.ResourceV1().ResourceClaims(metav1.NamespaceAll).List)
	case resourcev1.SchemeGroupVersion.WithResource("resourceslices"):
		list = wrap(client.ResourceV1().ResourceSlices().List)
	case resourcev1.SchemeGroupVersion.WithResource("deviceclasses"):
		list = wrap(client.ResourceV1().DeviceClasses().List)
	default:
		return nil
	}
	return list
}

// wrap turns a typed List method into a pager.ListPageFunc.
func wrap[L runtime.Object](list func(context.Context, metav1.ListOptions) (L, error)) func(context.Context, metav1.ListOptions) (runtime.Object, error) {
	return func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return list(ctx, opts)
	}
}
