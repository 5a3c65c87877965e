package scaleup

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

const poolLabel = "cloud.google.com/gke-nodepool"

func groupNode(name, pool string, ready bool, taints ...v1.Taint) *v1.Node {
	status := v1.ConditionTrue
	if !ready {
		status = v1.ConditionFalse
	}
	labels := map[string]string{v1.LabelHostname: name}
	if pool != "" {
		labels[poolLabel] = pool
	}
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Spec: v1.NodeSpec{Taints: taints},
		Status: v1.NodeStatus{Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: status}},
			Capacity: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi")}}}
}

func daemonSet(name string, spec v1.PodSpec) *appsv1.DaemonSet {
	return &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: name, UID: types.UID("ds-" + name)},
		Spec: appsv1.DaemonSetSpec{Template: v1.PodTemplateSpec{Spec: spec}}}
}

// dsPod is ds's pod on node, pinned to it as the DaemonSet controller
// pins it (a matchFields metadata.name term replacing the DaemonSet's own).
func dsPod(ds *appsv1.DaemonSet, node string) *v1.Pod {
	spec := *ds.Spec.Template.Spec.DeepCopy()
	spec.NodeName = node
	spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
		NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{{Key: metav1.ObjectNameField, Operator: v1.NodeSelectorOpIn, Values: []string{node}}}}}}}}
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ds.Namespace, Name: ds.Name + "-x", UID: types.UID("pod-" + ds.Name),
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: ptr.To(true)}}},
		Spec: spec, Status: v1.PodStatus{Phase: v1.PodRunning}}
}

// The template of pool-a is a-2 (a-1 is not Ready: cluster-autoscaler's
// mixed provider takes the first good node); its new node is tainted
// dedicated=a:NoSchedule like it and named a-2-whatif-1.
//   - mirror pod: kept, whatever it is (a static pod comes with the node);
//   - tolerant (DaemonSet in the input, nodeSelector pool-a, tolerates
//     dedicated): kept;
//   - pinned (DaemonSet selects kubernetes.io/hostname=a-2): dropped, the
//     new node's hostname is a-2-whatif-1;
//   - intolerant (DaemonSet tolerates nothing): dropped, dedicated is
//     NoSchedule (it runs on a-2 regardless, e.g. the taint came later);
//   - orphan (DaemonSet not in the input): its pod's own spec decides,
//     without the controller's metadata.name term: kept;
//   - critical (system-node-critical, not running on a-2, tolerates
//     everything): added, as cluster-autoscaler adds a missing DaemonSet
//     of that priority class even without --force-ds;
//   - critical-b (same, nodeSelector pool-b) and plain (not critical):
//     not added (b-1, which runs no pod, gets critical and critical-b);
//   - web (a ReplicaSet's pod on a-2): not on a new node.
//
// Node x has no group label: no group.
func TestTemplates(t *testing.T) {
	dedicated := v1.Taint{Key: "dedicated", Value: "a", Effect: v1.TaintEffectNoSchedule}
	a1, a2 := groupNode("a-1", "pool-a", false, dedicated), groupNode("a-2", "pool-a", true, dedicated)
	b1, x := groupNode("b-1", "pool-b", true), groupNode("x", "", true)
	tolerateAll := []v1.Toleration{{Operator: v1.TolerationOpExists}}
	tolerant := daemonSet("tolerant", v1.PodSpec{NodeSelector: map[string]string{poolLabel: "pool-a"}, Tolerations: tolerateAll})
	pinned := daemonSet("pinned", v1.PodSpec{NodeSelector: map[string]string{v1.LabelHostname: "a-2"}, Tolerations: tolerateAll})
	intolerant := daemonSet("intolerant", v1.PodSpec{})
	orphan := daemonSet("orphan", v1.PodSpec{Tolerations: tolerateAll})
	critical := daemonSet("critical", v1.PodSpec{PriorityClassName: "system-node-critical", Tolerations: tolerateAll})
	criticalB := daemonSet("critical-b", v1.PodSpec{PriorityClassName: "system-node-critical", Tolerations: tolerateAll, NodeSelector: map[string]string{poolLabel: "pool-b"}})
	plain := daemonSet("plain", v1.PodSpec{Tolerations: tolerateAll})
	mirror := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "etcd-a-2", Annotations: map[string]string{v1.MirrorPodAnnotationKey: "x"}},
		Spec: v1.PodSpec{NodeName: "a-2"}}
	web := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "web-1", Controller: ptr.To(true)}}},
		Spec: v1.PodSpec{NodeName: "a-2"}}
	pods := []*v1.Pod{dsPod(tolerant, "a-2"), dsPod(pinned, "a-2"), dsPod(intolerant, "a-2"), dsPod(orphan, "a-2"), mirror, web, dsPod(tolerant, "a-1")}
	objects := []runtime.Object{tolerant, pinned, intolerant, critical, criticalB, plain}

	groups := Templates([]*v1.Node{b1, a1, x, a2}, pods, objects)
	if len(groups) != 2 || groups[0].Name != "pool-a" || groups[1].Name != "pool-b" {
		t.Fatalf("groups %+v, want pool-a and pool-b", groups)
	}
	a := groups[0]
	if a.Template.Name != "a-2" || a.Nodes != 2 {
		t.Errorf("pool-a: template %s, %d nodes; want a-2, 2", a.Template.Name, a.Nodes)
	}
	var kept []string
	for _, p := range a.Pods {
		kept = append(kept, p.Namespace+"/"+p.Name)
	}
	if want := []string{"kube-system/etcd-a-2", "kube-system/orphan-x", "kube-system/tolerant-x", "kube-system/critical"}; !reflect.DeepEqual(kept, want) {
		t.Errorf("pool-a template pods %v, want %v", kept, want)
	}
	if want := []string{"kube-system/intolerant-x", "kube-system/pinned-x"}; !reflect.DeepEqual(a.Dropped, want) {
		t.Errorf("pool-a dropped %v, want %v", a.Dropped, want)
	}
	var b []string
	for _, p := range groups[1].Pods {
		b = append(b, p.Name)
	}
	if want := []string{"critical", "critical-b"}; !reflect.DeepEqual(b, want) {
		t.Errorf("pool-b template pods %v, want %v", b, want)
	}
}

// A group whose nodes are all not Ready still gets a template: the first
// by name (cluster-autoscaler's last resort).
func TestTemplateFallback(t *testing.T) {
	groups := Templates([]*v1.Node{groupNode("c-2", "pool-c", false), groupNode("c-1", "pool-c", false)}, nil, nil)
	if len(groups) != 1 || groups[0].Template.Name != "c-1" {
		t.Fatalf("got %+v, want pool-c from c-1", groups)
	}
}
