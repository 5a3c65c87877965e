//go:build e2e

package e2e

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// The decisions fixture: small groups of nodes (label whyGroup), each with
// the pending pods that exercise one default Filter plugin. Every pending
// pod selects its group's nodes, so the binding of one pod never changes
// the verdict of another: nodes of other groups fail it at a node-level
// filter (cordon, taints) or at NodeAffinity, before any filter that looks
// at pods. Fewer than 100 nodes, so the scheduler filters every node.

const (
	whyNS    = "why"
	whyGroup = "schedcache.e2e/group"
	zoneKey  = "topology.kubernetes.io/zone"
)

type whyFixture struct {
	nodes   []*corev1.Node
	bound   []*corev1.Pod
	pending []*corev1.Pod
	claims  []claimPair
}

type claimPair struct {
	pv  *corev1.PersistentVolume
	pvc *corev1.PersistentVolumeClaim
}

func groupNode(group, name string, labels ...string) *corev1.Node {
	n := framework.NewNode(name, framework.Resources("cpu", "2", "memory", "4Gi", "pods", "110"))
	n.Labels[whyGroup] = group
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	return n
}

func whyPod(group, name, node string, requests ...string) *corev1.Pod {
	p := framework.NewPod(whyNS, name, node, framework.Resources(requests...))
	if node == "" && group != "" {
		p.Spec.NodeSelector = map[string]string{whyGroup: group}
	}
	return p
}

func labelled(p *corev1.Pod, kv ...string) *corev1.Pod {
	for i := 0; i+1 < len(kv); i += 2 {
		p.Labels[kv[i]] = kv[i+1]
	}
	return p
}

func term(topologyKey string, kv ...string) corev1.PodAffinityTerm {
	return corev1.PodAffinityTerm{TopologyKey: topologyKey, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{kv[0]: kv[1]}}}
}

func newWhyFixture() *whyFixture {
	f := &whyFixture{}
	f.taints()
	f.nodeAffinity()
	f.cordon()
	f.portsAndResources()
	f.spread()
	f.interPod()
	f.volumes()
	f.gatesAndPreemption()
	return f
}

// taints: NoSchedule and NoExecute, one tolerated.
func (f *whyFixture) taints() {
	t1 := groupNode("taints", "t-1")
	t1.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "infra", Effect: corev1.TaintEffectNoSchedule}}
	t2 := groupNode("taints", "t-2")
	t2.Spec.Taints = []corev1.Taint{{Key: "gpu", Value: "yes", Effect: corev1.TaintEffectNoExecute}}
	tolerates := whyPod("taints", "tolerates-gpu", "", "cpu", "100m")
	tolerates.Spec.Tolerations = []corev1.Toleration{{Key: "gpu", Operator: corev1.TolerationOpExists}}
	f.nodes = append(f.nodes, t1, t2)
	f.pending = append(f.pending, tolerates, whyPod("taints", "untolerated", "", "cpu", "100m"))
}

// nodeAffinity: In, Gt, DoesNotExist, NotIn; and a selector nothing matches.
func (f *whyFixture) nodeAffinity() {
	f.nodes = append(f.nodes,
		groupNode("affinity", "a-1", "size", "8", "zone-x", "yes"),
		groupNode("affinity", "a-2", "size", "2", "zone-x", "yes"),
		groupNode("affinity", "a-3", "size", "8", "zone-x", "yes", "gpu", "yes"),
		groupNode("affinity", "a-4", "size", "8", "tier", "batch"),
	)
	p := whyPod("affinity", "affinity-ops", "", "cpu", "100m")
	p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
			{Key: "zone-x", Operator: corev1.NodeSelectorOpExists},
			{Key: "size", Operator: corev1.NodeSelectorOpGt, Values: []string{"4"}},
			{Key: "gpu", Operator: corev1.NodeSelectorOpDoesNotExist},
			{Key: "tier", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"batch"}},
		}}},
	}}}
	none := whyPod("affinity", "affinity-none", "", "cpu", "100m")
	none.Spec.NodeSelector["size"] = "16"
	f.pending = append(f.pending, p, none)
}

// cordon: a group whose only node is cordoned.
func (f *whyFixture) cordon() {
	n := groupNode("cordon", "c-1")
	n.Spec.Unschedulable = true
	f.nodes = append(f.nodes, n)
	f.pending = append(f.pending, whyPod("cordon", "cordoned", "", "cpu", "100m"))
}

// portsAndResources: a taken host port, an extended resource, cpu.
func (f *whyFixture) portsAndResources() {
	p1 := groupNode("ports", "p-1")
	p1.Status.Allocatable["example.com/foo"] = resource.MustParse("1")
	p1.Status.Capacity["example.com/foo"] = resource.MustParse("1")
	f.nodes = append(f.nodes, p1, groupNode("ports", "p-2"))
	web := whyPod("", "port-owner", "p-2", "cpu", "1500m")
	web.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
	f.bound = append(f.bound, web)
	port := whyPod("ports", "wants-port", "", "cpu", "100m")
	port.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
	foo := whyPod("ports", "wants-foo", "", "cpu", "100m", "example.com/foo", "2")
	foo.Spec.Containers[0].Resources.Limits = framework.Resources("example.com/foo", "2")
	f.pending = append(f.pending, port, foo, whyPod("ports", "wants-cpu", "", "cpu", "1"))
}

// spread: a DoNotSchedule zone constraint.
func (f *whyFixture) spread() {
	f.nodes = append(f.nodes, groupNode("spread", "s-a", zoneKey, "sa"), groupNode("spread", "s-b", zoneKey, "sb"), groupNode("spread", "s-none"))
	for i := range 2 {
		f.bound = append(f.bound, labelled(whyPod("", fmt.Sprintf("spread-%d", i), "s-a", "cpu", "100m"), "role", "spread"))
	}
	p := labelled(whyPod("spread", "spreads", "", "cpu", "100m"), "role", "spread")
	p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: zoneKey,
		WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"role": "spread"}}}}
	f.pending = append(f.pending, p)
}

// interPod: pod affinity, the pod's anti-affinity, existing anti-affinity.
func (f *whyFixture) interPod() {
	f.nodes = append(f.nodes,
		groupNode("interpod", "i-1", zoneKey, "ia"), groupNode("interpod", "i-2", zoneKey, "ia"),
		groupNode("interpod", "i-3", zoneKey, "ib"), groupNode("interpod", "i-4", zoneKey, "ia"))
	guard := labelled(whyPod("", "guard", "i-2", "cpu", "100m"), "role", "guard")
	guard.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term("kubernetes.io/hostname", "role", "cache")}}}
	f.bound = append(f.bound, labelled(whyPod("", "db", "i-1", "cpu", "100m"), "role", "db"), guard,
		labelled(whyPod("", "cache-0", "i-4", "cpu", "100m"), "role", "cache"))
	p := labelled(whyPod("interpod", "cache-1", "", "cpu", "100m"), "role", "cache")
	p.Spec.Affinity = &corev1.Affinity{
		PodAffinity:     &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term(zoneKey, "role", "db")}},
		PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term("kubernetes.io/hostname", "role", "cache")}},
	}
	f.pending = append(f.pending, p)
}

// volumes: a zonal volume, a ReadWriteOncePod claim in use, a missing claim.
func (f *whyFixture) volumes() {
	f.nodes = append(f.nodes, groupNode("volumes", "v-a", zoneKey, "va"), groupNode("volumes", "v-b", zoneKey, "vb"))
	f.claims = append(f.claims, boundPair("zonal", corev1.ReadWriteOnce, map[string]string{zoneKey: "va"}), boundPair("solo", corev1.ReadWriteOncePod, nil))
	owner := whyPod("", "solo-owner", "v-a", "cpu", "100m")
	owner.Spec.Volumes = []corev1.Volume{pvcVolume("data", "solo")}
	f.bound = append(f.bound, owner)
	zonal := whyPod("volumes", "uses-zonal", "", "cpu", "100m")
	zonal.Spec.Volumes = []corev1.Volume{pvcVolume("data", "zonal")}
	solo := whyPod("volumes", "uses-solo", "", "cpu", "100m")
	solo.Spec.Volumes = []corev1.Volume{pvcVolume("data", "solo")}
	missing := whyPod("volumes", "uses-missing", "", "cpu", "100m")
	missing.Spec.Volumes = []corev1.Volume{pvcVolume("data", "missing")}
	f.pending = append(f.pending, zonal, solo, missing)
}

// gatesAndPreemption: a gated pod; a high-priority pod that preempts.
func (f *whyFixture) gatesAndPreemption() {
	f.nodes = append(f.nodes, groupNode("preempt", "pr-1"))
	low := whyPod("", "low", "pr-1", "cpu", "1500m")
	low.Spec.PriorityClassName = "why-low"
	high := whyPod("preempt", "high", "", "cpu", "1")
	high.Spec.PriorityClassName = "why-high"
	gated := whyPod("preempt", "gated", "", "cpu", "100m")
	gated.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/approval"}}
	f.bound = append(f.bound, low)
	f.pending = append(f.pending, high, gated)
}

// boundPair is a PV and a PVC bound to each other, as the PV controller
// leaves them (this cluster runs none).
func boundPair(name string, mode corev1.PersistentVolumeAccessMode, pvLabels map[string]string) claimPair {
	storage := framework.Resources("storage", "1Gi")
	pvc := &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: whyNS, Name: name, Annotations: map[string]string{"pv.kubernetes.io/bind-completed": "yes"}},
		Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{mode}, VolumeName: "pv-" + name,
			Resources: corev1.VolumeResourceRequirements{Requests: storage}},
	}
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: "pv-" + name, Labels: pvLabels},
		Spec: corev1.PersistentVolumeSpec{AccessModes: []corev1.PersistentVolumeAccessMode{mode}, Capacity: storage,
			ClaimRef:               &corev1.ObjectReference{Namespace: whyNS, Name: name},
			PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/data/" + name}}},
	}
	return claimPair{pv: pv, pvc: pvc}
}

// create makes the fixture's objects, every pending pod included: the
// scheduler is not running yet.
func (f *whyFixture) create(ctx context.Context, cs kubernetes.Interface) error {
	for _, pc := range []struct {
		name  string
		value int32
	}{{"why-low", 10}, {"why-high", 1000}} {
		if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: pc.name}, Value: pc.value}, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: whyNS}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	for _, c := range f.claims {
		if err := createClaimPair(ctx, cs, c); err != nil {
			return err
		}
	}
	return framework.LoadObjects(ctx, cs, f.nodes, append(append([]*corev1.Pod{}, f.bound...), f.pending...), 4)
}

func createClaimPair(ctx context.Context, cs kubernetes.Interface, c claimPair) error {
	pvc, err := cs.CoreV1().PersistentVolumeClaims(whyNS).Create(ctx, c.pvc, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	pvc.Status = corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound, AccessModes: pvc.Spec.AccessModes, Capacity: pvc.Spec.Resources.Requests}
	if _, err := cs.CoreV1().PersistentVolumeClaims(whyNS).UpdateStatus(ctx, pvc, metav1.UpdateOptions{}); err != nil {
		return err
	}
	c.pv.Spec.ClaimRef.UID = pvc.UID
	pv, err := cs.CoreV1().PersistentVolumes().Create(ctx, c.pv, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	pv.Status.Phase = corev1.VolumeBound
	_, err = cs.CoreV1().PersistentVolumes().UpdateStatus(ctx, pv, metav1.UpdateOptions{})
	return err
}
