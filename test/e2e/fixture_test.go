//go:build e2e

package e2e

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// The "rich" cluster: 8 nodes over 3 GA-labelled zones, one node with only
// the legacy failure-domain.beta labels and one unlabelled node, and pods
// exercising every accounting rule of kube-scheduler v1.36.3
// (PodInfo.CalculateResource) plus what enters the cache (the pod
// informer's field selector). cli_test.go holds the hand-computed expectations;
// livefile_test.go and readonly_test.go reuse the same objects.
//
// Node list order (etcd key order, so the plugin's NodeTree insertion order)
// is by name; zones are first seen in that order:
//
//	node-01 eu-west/eu-west-a    node-05 eu-west/eu-west-c
//	node-02 eu-west/eu-west-a    node-06 legacy-region/legacy-zone (beta labels only)
//	node-03 eu-west/eu-west-b    node-07 no zone labels
//	node-04 eu-west/eu-west-a    node-08 eu-west/eu-west-b
const (
	nsA = "team-a"
	nsB = "team-b"
	// runtimeClassKata carries the pod overhead: the RuntimeClass admission
	// plugin rejects a pod that sets spec.overhead itself ("pod rejected: Pod
	// Overhead set without corresponding RuntimeClass defined Overhead"), and
	// fills spec.overhead in from overhead.podFixed.
	runtimeClassKata = "kata"
	// missingNode is the spec.nodeName of a pod whose node does not exist.
	missingNode = "node-gone"
	// terminatingFinalizer keeps team-b/terminating around after its delete.
	terminatingFinalizer = "e2e.schedcache.kubectl.io/hold"
	// PriorityClasses (values 100 and 50) of the pending pods.
	priorityHigh = "rich-high"
	priorityMid  = "rich-mid"
)

const (
	imageApp       = "registry.example/app:v1"
	imageAppDigest = "registry.example/app@sha256:1111111111111111111111111111111111111111111111111111111111111111"
	imagePause     = "registry.k8s.io/pause:3.10"
	imageDB        = "registry.example/db:15"
)

func zoneNode(name, zone string, alloc corev1.ResourceList) *corev1.Node {
	n := framework.NewNode(name, alloc)
	if zone != "" {
		n.Labels["topology.kubernetes.io/region"] = "eu-west"
		n.Labels["topology.kubernetes.io/zone"] = zone
	}
	return n
}

func richNodes() []*corev1.Node {
	std := func(extra ...string) corev1.ResourceList {
		return framework.Resources(append([]string{"cpu", "4", "memory", "8Gi", "ephemeral-storage", "50Gi", "pods", "110"}, extra...)...)
	}
	n1 := zoneNode("node-01", "eu-west-a", std("example.com/gpu", "4", "hugepages-2Mi", "256Mi"))
	n1.Status.Images = []corev1.ContainerImage{
		{Names: []string{imageApp, imageAppDigest}, SizeBytes: 100_000_000},
		{Names: []string{imagePause}, SizeBytes: 750_000},
	}
	n2 := zoneNode("node-02", "eu-west-a", std("hugepages-2Mi", "0"))
	// Reports app:v1 with another size: the cache keeps the first
	// reporter's (node-01's) size.
	n2.Status.Images = []corev1.ContainerImage{
		{Names: []string{imageApp}, SizeBytes: 200_000_000},
		{Names: []string{imageDB}, SizeBytes: 300_000_000},
	}
	n3 := zoneNode("node-03", "eu-west-b", std())
	n3.Status.Images = []corev1.ContainerImage{{Names: []string{imagePause}, SizeBytes: 750_000}}
	n4 := zoneNode("node-04", "eu-west-a", std())
	n5 := zoneNode("node-05", "eu-west-c", framework.Resources("cpu", "2", "memory", "4Gi", "pods", "20"))
	n6 := framework.NewNode("node-06", framework.Resources("cpu", "8", "memory", "16Gi", "ephemeral-storage", "100Gi", "pods", "110"))
	n6.Labels["failure-domain.beta.kubernetes.io/region"] = "legacy-region"
	n6.Labels["failure-domain.beta.kubernetes.io/zone"] = "legacy-zone"
	n7 := framework.NewNode("node-07", framework.Resources("cpu", "1", "memory", "1Gi", "pods", "10"))
	n8 := zoneNode("node-08", "eu-west-b", std("example.com/gpu", "1"))
	n8.Status.Images = []corev1.ContainerImage{{Names: []string{imagePause}, SizeBytes: 750_000}}
	return []*corev1.Node{n1, n2, n3, n4, n5, n6, n7, n8}
}

func container(name string, requests ...string) corev1.Container {
	return corev1.Container{
		Name: name, Image: imagePause,
		Resources: corev1.ResourceRequirements{Requests: framework.Resources(requests...)},
	}
}

func sidecar(name string, requests ...string) corev1.Container {
	c := container(name, requests...)
	always := corev1.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
	return c
}

func pvcVolume(volume, claim string) corev1.Volume {
	return corev1.Volume{Name: volume, VolumeSource: corev1.VolumeSource{
		PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim},
	}}
}

// richPods returns the pods of the rich cluster; terminating is created like
// the others and deleted afterwards by startRichCluster.
func richPods() []*corev1.Pod {
	var pods []*corev1.Pod
	add := func(p *corev1.Pod) *corev1.Pod { pods = append(pods, p); return p }
	r := framework.Resources

	// node-01
	p := add(framework.NewPod(nsA, "sidecar", "node-01", r("cpu", "200m", "memory", "100Mi")))
	p.Spec.InitContainers = []corev1.Container{
		sidecar("log", "cpu", "100m", "memory", "100Mi"),
		container("setup", "cpu", "300m", "memory", "100Mi"),
	}
	p = add(framework.NewPod(nsA, "big-init", "node-01", r("cpu", "250m", "memory", "256Mi")))
	p.Spec.InitContainers = []corev1.Container{container("migrate", "cpu", "1500m", "memory", "1Gi")}
	p = add(framework.NewPod(nsA, "gpu", "node-01", r("cpu", "500m", "memory", "512Mi")))
	// Extended resources and hugepages: limits only, the apiserver defaults
	// the requests to them.
	p.Spec.Containers[0].Resources.Limits = r("example.com/gpu", "2", "hugepages-2Mi", "64Mi", "memory", "512Mi")

	// node-02
	p = add(framework.NewPod(nsA, "overhead", "node-02", r("cpu", "100m")))
	kata := runtimeClassKata
	p.Spec.RuntimeClassName = &kata
	p = add(framework.NewPod(nsA, "pod-level", "node-02", r("cpu", "100m")))
	p.Spec.Containers = append(p.Spec.Containers, container("second", "cpu", "200m"))
	p.Spec.Resources = &corev1.ResourceRequirements{Requests: r("cpu", "1")}
	p = add(framework.NewPod(nsA, "ports", "node-02", r("cpu", "50m", "memory", "64Mi")))
	p.Spec.Containers[0].Ports = []corev1.ContainerPort{
		{ContainerPort: 80, HostPort: 8080},
		{ContainerPort: 53, HostPort: 5353, Protocol: corev1.ProtocolUDP, HostIP: "10.0.0.1"},
		{ContainerPort: 9090}, // no host port
	}
	p.Spec.InitContainers = []corev1.Container{
		sidecar("proxy", "cpu", "50m", "memory", "64Mi"),
		container("prep", "cpu", "10m", "memory", "16Mi"),
	}
	p.Spec.InitContainers[0].Ports = []corev1.ContainerPort{{ContainerPort: 81, HostPort: 8081}}
	p.Spec.InitContainers[1].Ports = []corev1.ContainerPort{{ContainerPort: 82, HostPort: 8082}} // plain init: ignored

	// node-03
	p = add(framework.NewPod(nsB, "pvc", "node-03", r("cpu", "300m", "memory", "1Gi", "ephemeral-storage", "2Gi")))
	p.Spec.Volumes = []corev1.Volume{
		pvcVolume("a", "data-a"),
		pvcVolume("b", "data-b"),
		// A generic ephemeral volume (claim "pvc-scratch"): not counted.
		{Name: "scratch", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
			VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources:   corev1.VolumeResourceRequirements{Requests: r("storage", "1Gi")},
			}},
		}}},
	}
	p = add(framework.NewPod(nsB, "affinity", "node-03", r("cpu", "100m", "memory", "128Mi")))
	p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: 10,
			PodAffinityTerm: corev1.PodAffinityTerm{
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cache"}},
				TopologyKey:   "topology.kubernetes.io/zone",
			},
		}},
	}}
	p = add(framework.NewPod(nsB, "anti", "node-03", r("cpu", "200m", "memory", "256Mi")))
	p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			TopologyKey:   "kubernetes.io/hostname",
		}},
	}}
	p = add(framework.NewPod(nsB, "terminating", "node-03", r("cpu", "700m", "memory", "512Mi")))
	p.Finalizers = []string{terminatingFinalizer}
	p = add(framework.NewPod(nsB, "succeeded", "node-03", r("cpu", "1", "memory", "1Gi")))
	p.Status.Phase = corev1.PodSucceeded
	p = add(framework.NewPod(nsB, "failed", "node-03", r("cpu", "1", "memory", "1Gi")))
	p.Status.Phase = corev1.PodFailed

	// node-04: in-place resize in progress.
	running := func(name string, allocated, actuated corev1.ResourceList) corev1.ContainerStatus {
		return corev1.ContainerStatus{
			Name: name, Ready: true, Image: imagePause, ImageID: "registry.k8s.io/pause@sha256:0",
			State:              corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}},
			AllocatedResources: allocated,
			Resources:          &corev1.ResourceRequirements{Requests: actuated},
		}
	}
	p = add(framework.NewPod(nsA, "resize", "node-04", r("cpu", "100m", "memory", "128Mi")))
	p.Status = corev1.PodStatus{
		Phase:             corev1.PodRunning,
		ContainerStatuses: []corev1.ContainerStatus{running("app", r("cpu", "200m", "memory", "128Mi"), r("cpu", "300m", "memory", "128Mi"))},
	}
	p = add(framework.NewPod(nsA, "resize-infeasible", "node-04", r("cpu", "2", "memory", "256Mi")))
	p.Status = corev1.PodStatus{
		Phase: corev1.PodRunning,
		Conditions: []corev1.PodCondition{{
			Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonInfeasible,
			LastTransitionTime: metav1.Now(),
		}},
		ContainerStatuses: []corev1.ContainerStatus{running("app", r("cpu", "250m", "memory", "256Mi"), r("cpu", "150m", "memory", "256Mi"))},
	}

	// node-05
	add(framework.NewPod(nsB, "besteffort", "node-05", nil))
	add(framework.NewPod(nsB, "zero-cpu", "node-05", r("cpu", "0", "memory", "64Mi")))

	// node-06 (legacy labels)
	add(framework.NewPod(nsB, "legacy", "node-06", r("cpu", "1", "memory", "2Gi")))
	p = add(framework.NewPod(nsB, "other-scheduler", "node-06", r("cpu", "250m", "memory", "1Gi")))
	p.Spec.SchedulerName = "my-scheduler"

	// node-07 has no pods.

	// node-08
	p = add(framework.NewPod(nsB, "reader", "node-08", r("cpu", "100m", "memory", "100Mi")))
	p.Spec.Volumes = []corev1.Volume{pvcVolume("a", "data-a")}

	// A pod on a node that does not exist: a placeholder NodeInfo.
	add(framework.NewPod(nsA, "orphan", missingNode, r("cpu", "100m", "memory", "64Mi")))

	// Pending pods (no nodeName): the queue's, not the cache's. Their
	// priorities fix the scheduling queue's order (nominated, pending-1,
	// pending-huge) whatever their creation times, and make the nominated
	// pod count against pending-1 in the first filter pass.
	p = add(framework.NewPod(nsA, "pending-1", "", r("cpu", "3", "memory", "1Gi")))
	p.Spec.PriorityClassName = priorityMid
	p = add(framework.NewPod(nsA, "nominated", "", r("cpu", "500m", "memory", "512Mi")))
	p.Spec.PriorityClassName = priorityHigh
	p.Status = corev1.PodStatus{Phase: corev1.PodPending, NominatedNodeName: "node-04"}
	add(framework.NewPod(nsA, "pending-huge", "", r("cpu", "64")))
	return pods
}

// startRichCluster starts a cluster and loads the rich objects into it:
// the RuntimeClass, the nodes, the pods (with their status), then deletes
// team-b/terminating with a 30 s grace period so that it stays, bound and
// with a deletionTimestamp, held by its finalizer (no kubelet ever confirms).
func startRichCluster(t *testing.T, opts framework.Options) *framework.Cluster {
	t.Helper()
	c := framework.Start(t, opts)
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	loadRichObjects(ctx, t, c)
	return c
}

func loadRichObjects(ctx context.Context, t *testing.T, c *framework.Cluster) {
	t.Helper()
	cs := c.AdminClient()
	rc := &nodev1.RuntimeClass{
		ObjectMeta: metav1.ObjectMeta{Name: runtimeClassKata},
		Handler:    "kata",
		Overhead:   &nodev1.Overhead{PodFixed: framework.Resources("cpu", "250m", "memory", "120Mi")},
	}
	if _, err := cs.NodeV1().RuntimeClasses().Create(ctx, rc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create RuntimeClass: %v", err)
	}
	for name, value := range map[string]int32{priorityHigh: 100, priorityMid: 50} {
		pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
		if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create PriorityClass: %v", err)
		}
	}
	if err := framework.LoadObjects(ctx, cs, richNodes(), richPods(), 4); err != nil {
		t.Fatal(err)
	}
	grace := int64(30)
	if err := cs.CoreV1().Pods(nsB).Delete(ctx, "terminating", metav1.DeleteOptions{GracePeriodSeconds: &grace}); err != nil {
		t.Fatalf("delete team-b/terminating: %v", err)
	}
	p, err := cs.CoreV1().Pods(nsB).Get(ctx, "terminating", metav1.GetOptions{})
	if err != nil || p.DeletionTimestamp == nil {
		t.Fatalf("team-b/terminating should stay with a deletionTimestamp: %v, %+v", err, p)
	}
	// The admission plugin copied the RuntimeClass overhead into the pod.
	p, err = cs.CoreV1().Pods(nsA).Get(ctx, "overhead", metav1.GetOptions{})
	if err != nil || p.Spec.Overhead.Cpu().MilliValue() != 250 {
		t.Fatalf("team-a/overhead has no overhead from its RuntimeClass: %v, %v", err, p.Spec.Overhead)
	}
}

// checkOverheadNeedsRuntimeClass documents why the fixture uses a
// RuntimeClass: spec.overhead set directly is refused at admission.
func checkOverheadNeedsRuntimeClass(ctx context.Context, t *testing.T, c *framework.Cluster) {
	t.Helper()
	p := framework.NewPod(nsA, "direct-overhead", "node-01", framework.Resources("cpu", "100m"))
	p.Spec.Overhead = framework.Resources("cpu", "250m")
	_, err := c.AdminClient().CoreV1().Pods(nsA).Create(ctx, p, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if !apierrors.IsForbidden(err) {
		t.Errorf("a pod with spec.overhead and no RuntimeClass: got %v, want Forbidden by the RuntimeClass admission plugin", err)
	}
}
