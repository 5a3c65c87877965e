package gencluster

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podInput is everything that varies between the pods of one workload.
type podInput struct {
	ns, name, generateName string
	owner                  *metav1.OwnerReference
	labels                 map[string]string
	node                   *nodeState // nil: pending
	phase                  v1.PodPhase
	created                metav1.Time
	claim                  string // per-pod PVC (StatefulSets)
	terminating            bool
	resize                 resizeState
	nominated              string
	finalizers             []string
	affinity               *v1.Affinity // overrides the template's (DaemonSets)
	totalNodes             int
}

// resizeState is the in-place resize situation shown in a pod's status.
type resizeState int

const (
	resizeNone       resizeState = iota
	resizeInProgress             // actuated differs from spec, allocated = spec
	resizeDeferred               // spec raised, allocated/actuated still old
	resizeInfeasible             // spec raised, kubelet refuses
)

// buildPod assembles the pod as the API server returns it: spec after
// defaulting and admission (default tolerations, service-account volume),
// and a status in the shape the v1.36 kubelet writes.
func buildPod(g *rng, pool *imagePool, t *template, in podInput) *v1.Pod {
	tokenVol := "kube-api-access-" + g.suffix(5)
	pod := &v1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name:              in.name,
			GenerateName:      in.generateName,
			Namespace:         in.ns,
			UID:               g.uid(),
			ResourceVersion:   g.resourceVersion(),
			Generation:        1,
			CreationTimestamp: in.created,
			Labels:            in.labels,
			Annotations:       t.annotations,
			Finalizers:        in.finalizers,
		},
		Spec: podSpec(t, in, tokenVol),
	}
	if in.owner != nil {
		pod.OwnerReferences = []metav1.OwnerReference{*in.owner}
	}
	if in.resize != resizeNone {
		pod.Generation = 2
		applyResizeSpec(pod)
	}
	if in.terminating {
		grace := *pod.Spec.TerminationGracePeriodSeconds
		pod.DeletionTimestamp = ptr(after(metav1.NewTime(baseTime), int(grace)-g.intN(int(grace))))
		pod.DeletionGracePeriodSeconds = ptr(grace)
	}
	pod.Status = podStatus(g, pool, t, in, pod, tokenVol)
	return pod
}

func podSpec(t *template, in podInput, tokenVol string) v1.PodSpec {
	mount := v1.VolumeMount{Name: tokenVol, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}
	spec := v1.PodSpec{
		Volumes:                       podVolumes(t, in, tokenVol),
		InitContainers:                withMount(t.inits, mount),
		Containers:                    withMount(t.containers, mount),
		RestartPolicy:                 t.restart,
		TerminationGracePeriodSeconds: ptr(t.grace),
		DNSPolicy:                     v1.DNSClusterFirst,
		NodeSelector:                  t.nodeSelector,
		ServiceAccountName:            t.sa,
		DeprecatedServiceAccount:      t.sa,
		HostNetwork:                   t.hostNetwork,
		SecurityContext:               &v1.PodSecurityContext{},
		Affinity:                      t.affinity,
		SchedulerName:                 v1.DefaultSchedulerName,
		Tolerations:                   t.tolerations,
		PriorityClassName:             t.priorityName,
		Priority:                      ptr(t.priority),
		EnableServiceLinks:            ptr(true),
		PreemptionPolicy:              ptr(v1.PreemptLowerPriority),
		Overhead:                      t.overhead,
		Resources:                     t.podRes,
	}
	if in.node != nil {
		spec.NodeName = in.node.name
	}
	if in.affinity != nil {
		spec.Affinity = in.affinity
	}
	if t.scheduler != "" {
		spec.SchedulerName = t.scheduler
	}
	if t.runtimeClass != "" {
		spec.RuntimeClassName = ptr(t.runtimeClass)
	}
	if !t.daemon {
		// DefaultTolerationSeconds admission adds these to every other pod.
		spec.Tolerations = append(append([]v1.Toleration(nil), t.tolerations...),
			v1.Toleration{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
			v1.Toleration{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))})
	}
	return spec
}

// withMount copies the template's containers, adding the service-account
// token mount (its volume name is random per pod).
func withMount(cs []ctr, m v1.VolumeMount) []v1.Container {
	if len(cs) == 0 {
		return nil
	}
	out := make([]v1.Container, len(cs))
	for i, c := range cs {
		out[i] = c.c
		out[i].VolumeMounts = append(append([]v1.VolumeMount(nil), c.c.VolumeMounts...), m)
	}
	return out
}

func podVolumes(t *template, in podInput, tokenVol string) []v1.Volume {
	var vols []v1.Volume
	claim := in.claim
	if claim == "" {
		claim = t.sharedClaim
	}
	if claim != "" {
		vols = append(vols, v1.Volume{Name: "data", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: claim}}})
	}
	return append(vols, v1.Volume{Name: tokenVol, VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{
		DefaultMode: ptr(int32(420)),
		Sources: []v1.VolumeProjection{
			{ServiceAccountToken: &v1.ServiceAccountTokenProjection{ExpirationSeconds: ptr(int64(3607)), Path: "token"}},
			{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}})
}

// applyResizeSpec raises the app container's cpu request in the spec: the
// pod's resize was requested (generation 2); the status tells how far the
// kubelet got.
func applyResizeSpec(pod *v1.Pod) {
	c := &pod.Spec.Containers[0]
	req := c.Resources.Requests.DeepCopy()
	req[v1.ResourceCPU] = milli(2 * req.Cpu().MilliValue())
	c.Resources.Requests = req
	if l, ok := c.Resources.Limits[v1.ResourceCPU]; ok && l.MilliValue() < req.Cpu().MilliValue() {
		lim := c.Resources.Limits.DeepCopy()
		lim[v1.ResourceCPU] = req[v1.ResourceCPU]
		c.Resources.Limits = lim
	}
}

func podStatus(g *rng, pool *imagePool, t *template, in podInput, pod *v1.Pod, tokenVol string) v1.PodStatus {
	st := v1.PodStatus{Phase: in.phase, QOSClass: qosClass(pod)}
	if in.node == nil {
		st.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionFalse, LastTransitionTime: after(in.created, 1),
			ObservedGeneration: pod.Generation, Reason: v1.PodReasonUnschedulable, Message: unschedulableMessage(in.totalNodes)}}
		st.NominatedNodeName = in.nominated
		return st
	}
	gen := pod.Generation
	scheduled, started := after(in.created, 1), after(in.created, 3)
	ready := after(in.created, 9+g.intN(30))
	st.ObservedGeneration = gen
	st.StartTime = &scheduled
	st.HostIP = in.node.ip
	st.HostIPs = []v1.HostIP{{IP: in.node.ip}}
	st.PodIP = in.node.ip
	if !t.hostNetwork {
		in.node.nextIP++
		st.PodIP = fmt.Sprintf("%s%d", in.node.cidrBase, 2+in.node.nextIP%250)
	}
	st.PodIPs = []v1.PodIP{{IP: st.PodIP}}

	running := in.phase == v1.PodRunning
	cond := func(tp v1.PodConditionType, ok bool, at metav1.Time, reason string) v1.PodCondition {
		s := v1.ConditionTrue
		if !ok {
			s = v1.ConditionFalse
		}
		return v1.PodCondition{Type: tp, Status: s, LastTransitionTime: at, ObservedGeneration: gen, Reason: reason}
	}
	endReason := map[v1.PodPhase]string{v1.PodSucceeded: "PodCompleted", v1.PodFailed: "PodFailed"}[in.phase]
	st.Conditions = append(st.Conditions,
		cond("PodReadyToStartContainers", running, started, ""),
		cond(v1.PodInitialized, true, after(in.created, 5), ""),
		cond(v1.PodReady, running, ready, endReason),
		cond(v1.ContainersReady, running, ready, endReason),
		cond(v1.PodScheduled, true, scheduled, ""))
	if in.terminating {
		st.Conditions = append([]v1.PodCondition{{Type: v1.DisruptionTarget, Status: v1.ConditionTrue, LastTransitionTime: ago(60),
			ObservedGeneration: gen, Reason: "TerminationByKubelet", Message: "Pod was terminated in response to imminent node shutdown."}}, st.Conditions...)
	}
	if in.phase == v1.PodFailed && pod.Spec.RestartPolicy == v1.RestartPolicyAlways {
		st.Reason, st.Message = "Evicted", "The node was low on resource: memory. Threshold quantity: 100Mi, available: 97124Ki."
	}
	mountStatus := []v1.VolumeMountStatus{{Name: tokenVol, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true, RecursiveReadOnly: ptr(v1.RecursiveReadOnlyDisabled)}}
	for _, c := range pod.Spec.InitContainers {
		st.InitContainerStatuses = append(st.InitContainerStatuses, containerStatus(g, pool, c, in, true, mountStatus))
	}
	for _, c := range pod.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, containerStatus(g, pool, c, in, false, mountStatus))
	}
	if in.resize != resizeNone {
		applyResizeStatus(&st, in.resize, gen)
	}
	if t.podRes != nil {
		st.Resources = t.podRes.DeepCopy()
		st.AllocatedResources = t.podRes.Requests.DeepCopy()
	}
	return st
}

// containerStatus reports a container the way the kubelet does: resources
// and allocatedResources mirror the (allocated) spec.
func containerStatus(g *rng, pool *imagePool, c v1.Container, in podInput, init bool, mounts []v1.VolumeMountStatus) v1.ContainerStatus {
	cs := v1.ContainerStatus{
		Name:         c.Name,
		Image:        c.Image,
		ImageID:      pool.digestOf[c.Image],
		ContainerID:  "containerd://" + g.hex(32),
		VolumeMounts: mounts,
		Resources:    c.Resources.DeepCopy(),
	}
	if len(c.Resources.Requests) > 0 {
		cs.AllocatedResources = c.Resources.Requests.DeepCopy()
	}
	sidecar := c.RestartPolicy != nil
	switch {
	case init && !sidecar:
		cs.State.Terminated = &v1.ContainerStateTerminated{Reason: "Completed", StartedAt: after(in.created, 3), FinishedAt: after(in.created, 5), ContainerID: cs.ContainerID}
		cs.Ready, cs.Started = true, ptr(false)
	case in.phase == v1.PodRunning:
		cs.State.Running = &v1.ContainerStateRunning{StartedAt: after(in.created, 6)}
		cs.Ready, cs.Started = true, ptr(true)
		cs.RestartCount = int32(g.weighted([]int{90, 6, 3, 1}))
	default:
		code, reason := int32(0), "Completed"
		if in.phase == v1.PodFailed {
			code, reason = 137, "OOMKilled"
		}
		cs.State.Terminated = &v1.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: after(in.created, 6), FinishedAt: after(in.created, 600+g.intN(3000)), ContainerID: cs.ContainerID}
		cs.Started = ptr(false)
	}
	return cs
}

// applyResizeStatus rewrites the app container's status for an in-place
// resize. The spec already carries the doubled cpu request (see
// applyResizeSpec); the original request is half of it.
func applyResizeStatus(st *v1.PodStatus, r resizeState, gen int64) {
	cs := &st.ContainerStatuses[0]
	spec := cs.Resources.Requests.Cpu().MilliValue() // still a copy of the new spec
	old := spec / 2
	actuated := cs.Resources.Requests.DeepCopy()
	allocated := cs.AllocatedResources.DeepCopy()
	now := ago(120)
	var c v1.PodCondition
	switch r {
	case resizeInProgress:
		actuated[v1.ResourceCPU] = milli(old)
		c = v1.PodCondition{Type: v1.PodResizeInProgress, Status: v1.ConditionTrue, LastTransitionTime: now, ObservedGeneration: gen}
	case resizeDeferred:
		actuated[v1.ResourceCPU], allocated[v1.ResourceCPU] = milli(old), milli(old)
		c = v1.PodCondition{Type: v1.PodResizePending, Status: v1.ConditionTrue, LastTransitionTime: now, ObservedGeneration: gen,
			Reason: v1.PodReasonDeferred, Message: fmt.Sprintf("Node didn't have enough resource: cpu, requested: %d", spec)}
	case resizeInfeasible:
		actuated[v1.ResourceCPU], allocated[v1.ResourceCPU] = milli(old), milli(old)
		c = v1.PodCondition{Type: v1.PodResizePending, Status: v1.ConditionTrue, LastTransitionTime: now, ObservedGeneration: gen,
			Reason: v1.PodReasonInfeasible, Message: `Resize is infeasible for Guaranteed Pods alongside CPU Manager policy "static"`}
	}
	cs.Resources.Requests = actuated
	cs.AllocatedResources = allocated
	st.Conditions = append([]v1.PodCondition{c}, st.Conditions...)
}

func unschedulableMessage(nodes int) string {
	return fmt.Sprintf("0/%d nodes are available: %d Insufficient cpu, %d Insufficient memory. preemption: 0/%d nodes are available: %d No preemption victims found for incoming pod.",
		nodes, nodes, nodes, nodes, nodes)
}

// qosClass follows the v1 rules closely enough for realistic output:
// BestEffort without any request or limit, Guaranteed when every container
// has cpu and memory limits equal to its requests.
func qosClass(pod *v1.Pod) v1.PodQOSClass {
	all := append(append([]v1.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...)
	best, guaranteed := pod.Spec.Resources == nil, pod.Spec.Resources == nil
	for _, c := range all {
		if len(c.Resources.Requests)+len(c.Resources.Limits) > 0 {
			best = false
		}
		for _, r := range []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory} {
			l, okl := c.Resources.Limits[r]
			q, okq := c.Resources.Requests[r]
			if !okl || !okq || l.Cmp(q) != 0 {
				guaranteed = false
			}
		}
	}
	switch {
	case best:
		return v1.PodQOSBestEffort
	case guaranteed:
		return v1.PodQOSGuaranteed
	}
	return v1.PodQOSBurstable
}
