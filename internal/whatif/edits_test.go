package whatif

import (
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// testCluster: nodes a (zone z1, with a CSINode) and b; on a a ReplicaSet
// pod web-1, a DaemonSet pod proxy-a and a bare pod solo; on b web-2;
// pending pod queued.
func testCluster() *load.Cluster {
	node := func(name, zone string) *v1.Node {
		return &v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("u-" + name), Annotations: map[string]string{"x": "y"},
				Labels: map[string]string{v1.LabelHostname: name, v1.LabelTopologyZone: zone, "pool": "general"}},
			Spec: v1.NodeSpec{Taints: []v1.Taint{{Key: "dedicated", Value: "web", Effect: v1.TaintEffectNoSchedule}, {Key: v1.TaintNodeNotReady, Effect: v1.TaintEffectNoExecute}}},
			Status: v1.NodeStatus{
				Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourcePods: resource.MustParse("110")},
				Capacity:    v1.ResourceList{v1.ResourceCPU: resource.MustParse("4")},
				Images:      []v1.ContainerImage{{Names: []string{"nginx"}, SizeBytes: 100}},
			},
		}
	}
	pod := func(name, node, kind string) *v1.Pod {
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", UID: types.UID("u-" + name)}, Spec: v1.PodSpec{NodeName: node}}
		if kind != "" {
			p.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: "o", Controller: ptr.To(true)}}
		}
		return p
	}
	return &load.Cluster{
		Nodes: []*v1.Node{node("a", "z1"), node("b", "z2")},
		Pods: []*v1.Pod{pod("web-1", "a", "ReplicaSet"), pod("proxy-a", "a", "DaemonSet"), pod("solo", "a", ""),
			pod("web-2", "b", "ReplicaSet"), pod("queued", "", "ReplicaSet")},
		Objects: []runtime.Object{&storagev1.CSINode{ObjectMeta: metav1.ObjectMeta{Name: "a"},
			Spec: storagev1.CSINodeSpec{Drivers: []storagev1.CSINodeDriver{{Name: "ebs", Allocatable: &storagev1.VolumeNodeResources{Count: ptr.To[int32](25)}}}}}},
	}
}

func names[T interface{ GetName() string }](objs []T) string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetName())
	}
	return strings.Join(out, ",")
}

func TestApplyRemoveNode(t *testing.T) {
	c := testCluster()
	out, a, err := Apply(c, Edits{RemoveNodes: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out.Nodes); got != "b" {
		t.Errorf("nodes: %s", got)
	}
	// web-1 is recreated pending (last in the queue), proxy-a and solo are gone.
	if got := names(out.Pods); got != "web-2,queued,web-1-replacement" {
		t.Errorf("pods: %s", got)
	}
	if len(c.Nodes) != 2 || len(c.Pods) != 5 {
		t.Errorf("the input cluster was modified")
	}
	want := "removed node a (3 pods: 1 recreated pending, 1 DaemonSet pod gone with it, 1 gone for good (no controller): shop/solo)"
	if got := a.Summary(); got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
}

func TestApplyCordon(t *testing.T) {
	c := testCluster()
	out, a, err := Apply(c, Edits{Cordon: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	n := out.Nodes[0]
	if !n.Spec.Unschedulable || len(n.Spec.Taints) != 3 || n.Spec.Taints[2].Key != UnschedulableTaintKey {
		t.Errorf("cordoned: %v %v", n.Spec.Unschedulable, n.Spec.Taints)
	}
	if c.Nodes[0].Spec.Unschedulable || len(c.Nodes[0].Spec.Taints) != 2 {
		t.Errorf("the loader's node was modified")
	}
	if out.Nodes[1] != c.Nodes[1] {
		t.Errorf("an unchanged node should be shared, not copied")
	}
	back := Cordoned(n, false)
	if back.Spec.Unschedulable || len(back.Spec.Taints) != 2 {
		t.Errorf("uncordoned: %v", back.Spec.Taints)
	}
	if a.Summary() != "cordoned a" {
		t.Errorf("summary %q", a.Summary())
	}
}

func TestApplyAddNode(t *testing.T) {
	c := testCluster()
	out, a, err := Apply(c, Edits{AddNodes: []NodeCopies{{Template: "a", Count: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out.Nodes); got != "a,b,a-whatif-1,a-whatif-2" {
		t.Fatalf("nodes: %s", got)
	}
	n := out.Nodes[3]
	if n.Labels[v1.LabelHostname] != "a-whatif-2" || n.Labels[v1.LabelTopologyZone] != "z1" || n.Labels["pool"] != "general" {
		t.Errorf("labels: %v", n.Labels)
	}
	// The dedicated taint is kept, the not-ready one is not (the copy is Ready).
	if len(n.Spec.Taints) != 1 || n.Spec.Taints[0].Key != "dedicated" {
		t.Errorf("taints: %v", n.Spec.Taints)
	}
	if q := n.Status.Allocatable[v1.ResourceCPU]; q.String() != "4" || len(n.Status.Images) != 0 || len(n.Annotations) != 0 {
		t.Errorf("status: %v", n.Status)
	}
	if len(n.Status.Conditions) != 1 || n.Status.Conditions[0].Type != v1.NodeReady || n.Status.Conditions[0].Status != v1.ConditionTrue {
		t.Errorf("conditions: %v", n.Status.Conditions)
	}
	// The DaemonSet pod comes with each copy; the others do not.
	if got := names(out.Pods[5:]); got != "proxy-a-a-whatif-1,proxy-a-a-whatif-2" || out.Pods[6].Spec.NodeName != "a-whatif-2" {
		t.Errorf("node-bound pods: %s", got)
	}
	var csi []string
	for _, o := range out.Objects {
		csi = append(csi, o.(*storagev1.CSINode).Name)
	}
	if strings.Join(csi, ",") != "a,a-whatif-1,a-whatif-2" || len(c.Objects) != 1 {
		t.Errorf("CSINodes: %v", csi)
	}
	if got := a.Summary(); got != "added 2 nodes like a (a-whatif-1..2)" {
		t.Errorf("summary %q", got)
	}
	// Stable: the same names again.
	out2, _, _ := Apply(c, Edits{AddNodes: []NodeCopies{{Template: "a", Count: 2}}})
	if names(out2.Nodes) != names(out.Nodes) {
		t.Errorf("names differ between runs")
	}
}

func TestApplyEvict(t *testing.T) {
	c := testCluster()
	ev := func(n string) types.NamespacedName { return types.NamespacedName{Namespace: "shop", Name: n} }
	out, a, err := Apply(c, Edits{Evict: []types.NamespacedName{ev("web-2"), ev("proxy-a"), ev("solo")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out.Pods); got != "web-1,proxy-a,queued,web-2-replacement" {
		t.Errorf("pods: %s", got)
	}
	want := "evicted shop/web-2 recreated pending as shop/web-2-replacement, shop/proxy-a recreated in place by its DaemonSet, shop/solo gone (no controller recreates it)"
	if got := a.Summary(); got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
}

func TestApplyErrors(t *testing.T) {
	ev := []types.NamespacedName{{Namespace: "shop", Name: "web-1"}}
	for _, tc := range []struct {
		e    Edits
		want string
	}{
		{Edits{Cordon: []string{"nope"}}, "--cordon nope: no such node in the input"},
		{Edits{Cordon: []string{"a"}, Uncordon: []string{"a"}}, "node a is given to both --cordon and --uncordon"},
		{Edits{RemoveNodes: []string{"a"}, Cordon: []string{"a"}}, "node a is given to both --cordon and --remove-node"},
		{Edits{AddNodes: []NodeCopies{{Template: "x", Count: 1}}}, "--add-node x: no such node in the input"},
		{Edits{AddNodes: []NodeCopies{{Template: "a", Count: 1}, {Template: "a", Count: 1}}}, "--add-node a: a node named a-whatif-1 is already in the input or added"},
		{Edits{Evict: []types.NamespacedName{{Namespace: "shop", Name: "x"}}}, "--evict shop/x: no such pod in the input"},
		{Edits{Evict: append(ev, ev...)}, "--evict shop/web-1 given twice"},
		{Edits{Evict: ev, RemoveNodes: []string{"a"}}, "--evict shop/web-1: the pod is on node a, which --remove-node removes"},
	} {
		if _, _, err := Apply(testCluster(), tc.e); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: got %v, want %s", tc.e, err, tc.want)
		}
	}
}

func TestParseCopies(t *testing.T) {
	for in, want := range map[string]string{"w": "w 1 false <nil>", "w=3": "w 3 true <nil>", "w=0": ` 0 false "w=0": COUNT must be a positive integer, got "0"`, "=2": ` 0 false "=2": want NAME[=COUNT]`} {
		n, c, g, err := ParseCopies(in)
		if got := fmt.Sprintf("%s %d %v %v", n, c, g, err); got != want {
			t.Errorf("%s: got %s want %s", in, got, want)
		}
	}
}
