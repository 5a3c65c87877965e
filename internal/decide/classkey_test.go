package decide

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

// replicaOf is a pending replica of a ReplicaSet's template: what the
// controller writes, plus the scheduler's PodScheduled condition.
func replicaOf(name string) *v1.Pod {
	p := pod(name).Label("app", "web").Label("pod-template-hash", "abc").
		Priority(10).Req(cpu("500m")).Obj()
	p.GenerateName = "web-abc-"
	p.ResourceVersion = "100" + name
	p.CreationTimestamp = metav1.Unix(int64(len(name))*1000, 0)
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-abc", UID: "rs-uid", Controller: ptr.To(true)}}
	p.Annotations = map[string]string{"team": "shop"}
	p.Status.Phase = v1.PodPending
	p.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: "Unschedulable",
		Message: "0/3 nodes are available for " + name, LastTransitionTime: metav1.Unix(int64(len(name)), 0)}}
	return p
}

// Pods that differ only in what names the object (name, generateName,
// UID, resourceVersion, creationTimestamp, managedFields) or in the
// scheduler's own PodScheduled condition share a class.
func TestClassKeySharesReplicas(t *testing.T) {
	e := cluster{nodes: nodes(node("a"))}.evaluator(t)
	a, b := replicaOf("web-abc-x1"), replicaOf("web-abc-y22")
	b.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager"}}
	b.Status.Conditions[0].LastProbeTime = metav1.Unix(5, 0)
	ka, kb := e.classKey(DefaultSchedulerName, a), e.classKey(DefaultSchedulerName, b)
	if ka == "" || ka != kb {
		t.Fatalf("replicas do not share a class:\n%s\n%s", ka, kb)
	}
	if e.classKey("other-profile", a) == ka {
		t.Error("the same pod under another profile shares the class")
	}
}

// Any other difference, in a field some plugin reads or not, makes another
// class.
func TestClassKeySeparatesSchedulingFields(t *testing.T) {
	e := cluster{nodes: nodes(node("a"))}.evaluator(t)
	base := e.classKey(DefaultSchedulerName, replicaOf("web-abc-x1"))
	edits := map[string]func(p *v1.Pod){
		"namespace":      func(p *v1.Pod) { p.Namespace = "other" },
		"label value":    func(p *v1.Pod) { p.Labels["app"] = "api" },
		"extra label":    func(p *v1.Pod) { p.Labels["tier"] = "front" },
		"owner":          func(p *v1.Pod) { p.OwnerReferences[0].Name = "web-def" },
		"owner uid":      func(p *v1.Pod) { p.OwnerReferences[0].UID = "other-rs" },
		"annotation":     func(p *v1.Pod) { p.Annotations["team"] = "ads" },
		"cpu request":    func(p *v1.Pod) { p.Spec.Containers[0].Resources.Requests[v1.ResourceCPU] = resource.MustParse("501m") },
		"host port":      func(p *v1.Pod) { p.Spec.Containers[0].Ports = []v1.ContainerPort{{HostPort: 80, ContainerPort: 80}} },
		"image":          func(p *v1.Pod) { p.Spec.Containers[0].Image = "web:2" },
		"priority":       func(p *v1.Pod) { p.Spec.Priority = ptr.To[int32](11) },
		"scheduler name": func(p *v1.Pod) { p.Spec.SchedulerName = "other" },
		"node selector":  func(p *v1.Pod) { p.Spec.NodeSelector = map[string]string{"zone": "a"} },
		"toleration":     func(p *v1.Pod) { p.Spec.Tolerations = []v1.Toleration{{Key: "t", Operator: v1.TolerationOpExists}} },
		"overhead":       func(p *v1.Pod) { p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: resource.MustParse("10m")} },
		"preemption policy": func(p *v1.Pod) {
			p.Spec.PreemptionPolicy = ptr.To(v1.PreemptNever)
		},
		"pvc": func(p *v1.Pod) {
			p.Spec.Volumes = []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data-0"}}}}
		},
		"anti-affinity": func(p *v1.Pod) {
			p.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{
				{LabelSelector: selector("app", "web"), TopologyKey: v1.LabelHostname}}}}
		},
		"topology spread": func(p *v1.Pod) {
			p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: v1.LabelHostname,
				WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: selector("app", "web"), MatchLabelKeys: []string{"pod-template-hash"}}}
		},
		"container status resources": func(p *v1.Pod) {
			p.Status.ContainerStatuses = []v1.ContainerStatus{{Name: p.Spec.Containers[0].Name,
				Resources: &v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}}}}
		},
		"resize condition": func(p *v1.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: v1.PodReasonInfeasible})
		},
		"deletion grace": func(p *v1.Pod) { p.DeletionGracePeriodSeconds = ptr.To[int64](30) },
	}
	for name, edit := range edits {
		p := replicaOf("web-abc-x1")
		edit(p)
		if k := e.classKey(DefaultSchedulerName, p); k == base || k == "" {
			t.Errorf("%s: key %q, want a class of its own", name, k)
		}
	}
}

// Pods whose cycle reads their own name or UID are classes of their own.
func TestClassKeyLeavesOutPodsThatAreTheirOwn(t *testing.T) {
	owned := replicaOf("owns-a-claim")
	claim := &resourcev1.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: "owns-a-claim-extended-resources-x",
		Annotations:     map[string]string{resourcev1.ExtendedResourceClaimAnnotation: "true"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: owned.Name, UID: owned.UID, Controller: ptr.To(true)}}}}
	preempted := replicaOf("preempted-before")
	c := cluster{nodes: nodes(node("a")), objects: []k8sruntime.Object{claim}}
	e := c.evaluator(t)
	e.preempted[preempted.UID] = "a"
	e.SetPending([]*v1.Pod{preempted})

	nominated := replicaOf("nominated")
	nominated.Status.NominatedNodeName = "a"
	withClaim := replicaOf("with-claim")
	withClaim.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: ptr.To("gpu")}}
	ephemeral := replicaOf("ephemeral")
	ephemeral.Spec.Volumes = []v1.Volume{{Name: "scratch", VolumeSource: v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{}}}}
	for _, p := range []*v1.Pod{nominated, preempted, withClaim, ephemeral, owned} {
		if k := e.classKey(DefaultSchedulerName, p); k != "" {
			t.Errorf("%s: key %q, want none", p.Name, k)
		}
	}
	if k := e.classKey(DefaultSchedulerName, replicaOf("plain")); k == "" {
		t.Error("a plain replica has no key")
	}

	// An extended resource, once a DeviceClass exists: DRA may back it
	// with a claim of the pod's own.
	gpu := replicaOf("gpu")
	gpu.Spec.Containers[0].Resources.Requests["example.com/gpu"] = resource.MustParse("1")
	if k := e.classKey(DefaultSchedulerName, gpu); k == "" {
		t.Error("extended resource without DeviceClasses: no key")
	}
	withClass := cluster{nodes: nodes(node("a")), objects: []k8sruntime.Object{&resourcev1.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "gpu"}}}}.evaluator(t)
	if k := withClass.classKey(DefaultSchedulerName, gpu); k != "" {
		t.Errorf("extended resource with a DeviceClass: key %q, want none", k)
	}
	if k := withClass.classKey(DefaultSchedulerName, replicaOf("plain")); k == "" {
		t.Error("a plain replica has no key once a DeviceClass exists")
	}

	each := cluster{nodes: nodes(node("a"))}
	ev := each.evaluator(t)
	ev.evaluateEach = true
	if k := ev.classKey(DefaultSchedulerName, replicaOf("plain")); k != "" {
		t.Errorf("EvaluateEach: key %q, want none", k)
	}
}

// ClassKey is classKey under the profile of the pod's schedulerName, and
// "" for a pod no profile serves.
func TestClassKeyByProfileOfThePod(t *testing.T) {
	e := cluster{nodes: nodes(node("a"))}.evaluator(t)
	a, b := replicaOf("web-abc-x1"), replicaOf("web-abc-y22")
	a.Spec.SchedulerName, b.Spec.SchedulerName = DefaultSchedulerName, DefaultSchedulerName
	if ka := e.ClassKey(a); ka == "" || ka != e.ClassKey(b) || ka != e.classKey(DefaultSchedulerName, a) {
		t.Errorf("replicas: keys differ or are empty")
	}
	b.Spec.SchedulerName = "nobody"
	if k := e.ClassKey(b); k != "" {
		t.Errorf("a pod of no profile has class %q, want none", k)
	}
}
