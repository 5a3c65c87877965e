package load

// This file drops, from each loaded pod, the fields that neither
// kube-scheduler's cache nor any view of ours reads, the way the scheduler's
// own informers drop managedFields (v1.29+) to save memory. What a pod
// weighs is mostly in what its kubelet and its containers use: environment,
// mounts, probes, container states, the volumes only the kubelet mounts. At
// 150,000 pods this halves the memory the objects take. Only fields of
// those kinds go; everything the cache or a scheduler plugin reads
// (resources, ports, claims and other volumes, affinity, conditions but
// their times, the allocated and actual resources in the status) stays,
// and new API fields stay by default. TestSlimAndShareChangeNoView
// (internal/views) checks that every view prints the same with and without it.

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// slimPod clears the fields of pod that no accounting reads.
func slimPod(pod *corev1.Pod) { slimPodKeeping(pod, false) }

// slimPodKeeping is slimPod, keeping the pod's emptyDir volumes when
// keepEmptyDir is set (FileOptions.KeepEmptyDir).
func slimPodKeeping(pod *corev1.Pod, keepEmptyDir bool) {
	for i := range pod.Spec.InitContainers {
		slimContainer(&pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		slimContainer(&pod.Spec.Containers[i])
	}
	for i := range pod.Spec.EphemeralContainers {
		slimContainer((*corev1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	pod.Spec.Volumes = keptVolumes(pod.Spec.Volumes, false, keepEmptyDir)
	for _, statuses := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for i := range statuses {
			slimContainerStatus(&statuses[i])
		}
	}
	for i := range pod.Status.Conditions {
		slimCondition(&pod.Status.Conditions[i])
	}
	trimPod(pod)
}

// slimCondition drops a condition's times. The request algorithms read a
// condition's type, status and reason (a pending or infeasible resize); its
// times only the kubelet and the controllers. Without them the replicas'
// conditions are equal, and shared (share.go, poddecode.go). A pending
// pod's PodScheduled=False keeps its transition time: "why" tells when the
// cluster's scheduler recorded its verdict. Like slimContainerStatus, it
// writes nothing to a condition slimmed already: a shared one is read on
// other cores.
func slimCondition(c *corev1.PodCondition) {
	zero(&c.LastProbeTime)
	if c.Type != corev1.PodScheduled || c.Status != corev1.ConditionFalse {
		zero(&c.LastTransitionTime)
	}
}

// zero sets *v to its zero value unless it is zero already.
func zero[T comparable](v *T) {
	var z T
	if *v != z {
		*v = z
	}
}

// trimPod gives the pod's larger slices their exact length: JSON decoding
// grows them by doubling, which leaves a third of their memory unused on
// average (a Container is 408 bytes, a condition 120).
func trimPod(pod *corev1.Pod) {
	pod.Spec.InitContainers = trim(pod.Spec.InitContainers)
	pod.Spec.Containers = trim(pod.Spec.Containers)
	pod.Spec.Tolerations = trim(pod.Spec.Tolerations)
	pod.Status.InitContainerStatuses = trim(pod.Status.InitContainerStatuses)
	pod.Status.ContainerStatuses = trim(pod.Status.ContainerStatuses)
	pod.Status.Conditions = trim(pod.Status.Conditions)
}

// trim returns s, or a copy of it without spare capacity when it has some.
func trim[S ~[]E, E any](s S) S {
	if cap(s) == len(s) {
		return s
	}
	return slices.Clone(s)
}

// kubeletOnly reports whether v's source is one that only the kubelet
// reads: a config map, a secret, a projection, the downward API, emptyDir
// or hostPath. No scheduler plugin of v1.36.3 looks at such a volume:
// claims and ephemeral volumes (NodeInfo's PVC counts, VolumeBinding,
// VolumeZone), inline disks (VolumeRestrictions' conflicts), CSI and
// migratable in-tree volumes (NodeVolumeLimits) and image volumes
// (ImageLocality) are all other sources. The only reads that see them are
// NodeVolumeLimits' and VolumeZone's "no volumes at all" shortcuts, which
// lead to the same answer as counting none. With keepEmptyDir, emptyDir
// and hostPath are not among them: kubectl drain's local-storage rule
// reads emptyDir, cluster-autoscaler's both.
func kubeletOnly(v *corev1.Volume, keepEmptyDir bool) bool {
	s := &v.VolumeSource
	if s.EmptyDir != nil || s.HostPath != nil {
		return !keepEmptyDir
	}
	return s.ConfigMap != nil || s.Secret != nil || s.Projected != nil || s.DownwardAPI != nil
}

// keptVolumes returns the volumes of vs that are not kubeletOnly (keeping
// emptyDir ones with keepEmptyDir), nil when
// none is: vs itself when none is dropped and fresh is false, or else a new
// slice of exactly their number. Every pod has such a volume (its service
// account token, projected): kept, it was 256 bytes a pod.
func keptVolumes(vs []corev1.Volume, fresh, keepEmptyDir bool) []corev1.Volume {
	n := 0
	for i := range vs {
		if !kubeletOnly(&vs[i], keepEmptyDir) {
			n++
		}
	}
	switch {
	case n == 0:
		return nil
	case n == len(vs) && !fresh:
		return vs
	}
	out := make([]corev1.Volume, 0, n)
	for i := range vs {
		if !kubeletOnly(&vs[i], keepEmptyDir) {
			out = append(out, vs[i])
		}
	}
	return out
}

// slimContainer keeps a container's name, image, ports, resources, resize
// and restart policies. Like slimContainerStatus, it writes nothing to a
// container slimmed already: the pod decoder shares containers between
// pods, read on other cores.
func slimContainer(c *corev1.Container) {
	nilSlice(&c.Command)
	nilSlice(&c.Args)
	zero(&c.WorkingDir)
	nilSlice(&c.Env)
	nilSlice(&c.EnvFrom)
	nilSlice(&c.VolumeMounts)
	nilSlice(&c.VolumeDevices)
	zero(&c.LivenessProbe)
	zero(&c.ReadinessProbe)
	zero(&c.StartupProbe)
	zero(&c.Lifecycle)
	zero(&c.TerminationMessagePath)
	zero(&c.TerminationMessagePolicy)
	zero(&c.SecurityContext)
}

// nilSlice sets *s to nil unless it is nil already (zero, for a slice).
func nilSlice[S ~[]E, E any](s *S) {
	if *s != nil {
		*s = nil
	}
}

// slimContainerStatus keeps a status' name, readiness, restart count and
// its allocated and actual resources. It writes nothing to a status slimmed
// already: the pod decoder shares slimmed statuses between pods, read on
// other cores.
func slimContainerStatus(s *corev1.ContainerStatus) {
	zero(&s.State)
	zero(&s.LastTerminationState)
	zero(&s.Image)
	zero(&s.ImageID)
	zero(&s.ContainerID)
	zero(&s.User)
	if s.VolumeMounts != nil {
		s.VolumeMounts = nil
	}
	if s.AllocatedResourcesStatus != nil {
		s.AllocatedResourcesStatus = nil
	}
}
