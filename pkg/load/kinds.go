package load

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
