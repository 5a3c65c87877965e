package whatif

import (
	"context"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// drainNodes drains nodes of c in the order given.
func drainNodes(t *testing.T, c *load.Cluster, objects []runtime.Object, timeout time.Duration, nodes ...string) *DrainOutcome {
	t.Helper()
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := Drain(context.Background(), DrainInput{Model: m, Objects: objects, Nodes: nodes, Now: time.Unix(1000, 0), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// twoPriorities is the fixture of a two-node drain (kube-scheduler v1.36.3
// default profile; kubectl v0.36.3 RunDrain), worked out by hand. n1 runs
// lo (priority 0), n2 runs hi (priority 1000): ReplicaSet pods of 2 CPU
// and no memory request (scored as 200Mi). n3 has 4 CPU, n4 3 CPU, both
// 8Gi, empty. The first replacement placed goes to n3: LeastAllocated
// (2/4 CPU left: 50, memory 97.6; avg 73.8) and BalancedAllocation (76.2)
// beat n4's (33.3 and 97.6: 65.5; 67.9). The second then goes to n4: n3
// would be full (LeastAllocated 47.6, BalancedAllocation 52.4, 100 in all
// against n4's 133.4). kubectl drains n1 first and waits until lo is gone,
// so lo's replacement is placed first, whatever hi's priority.
func twoPriorities() *load.Cluster {
	lo := testPod("shop", "lo", "n1", "2", "ReplicaSet/lo")
	hi := testPod("shop", "hi", "n2", "2", "ReplicaSet/hi")
	hi.Spec.Priority = ptr.To[int32](1000)
	return &load.Cluster{
		Nodes: []*v1.Node{testNode("n1", "8", nil), testNode("n2", "8", nil), testNode("n3", "4", nil), testNode("n4", "3", nil)},
		Pods:  []*v1.Pod{lo, hi},
	}
}

func TestDrainNodesInKubectlOrder(t *testing.T) {
	check(t, rows(drainNodes(t, twoPriorities(), nil, 0, "n1", "n2")), []string{
		"shop/lo n1 scheduled n3  | ",
		"shop/hi n2 scheduled n4  | ",
	})
	// The order given decides, not the priorities.
	check(t, rows(drainNodes(t, twoPriorities(), nil, 0, "n2", "n1")), []string{
		"shop/hi n2 scheduled n3  | ",
		"shop/lo n1 scheduled n4  | ",
	})
}

// TestDrainPreviousNodesPodsAreGone: kubectl goes on to the next node once
// the node's pods are deleted, so the next node's replacements no longer
// see them. web-a (n1, zone a) and web-b (n2, zone b) each require no
// other app=web pod in their zone (InterPodAffinity, which counts
// terminating pods). Free: n3 (zone a), n4 (zone c). web-a's replacement:
// zone a holds the terminating web-a, zone b web-b: n4. Then web-a is
// gone; web-b's replacement: zone b holds the terminating web-b, zone c
// web-a's replacement, zone a nothing: n3. (Were web-a still terminating,
// it would be unschedulable.)
func TestDrainPreviousNodesPodsAreGone(t *testing.T) {
	zone := func(n *v1.Node, z string) *v1.Node { n.Labels = map[string]string{v1.LabelTopologyZone: z}; return n }
	web := func(name, node string) *v1.Pod {
		p := webPod(name, node)
		p.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: v1.LabelTopologyZone}}}}
		return p
	}
	c := &load.Cluster{
		Nodes: []*v1.Node{zone(testNode("n1", "8", nil), "a"), zone(testNode("n2", "8", nil), "b"),
			zone(testNode("n3", "2", nil), "a"), zone(testNode("n4", "2", nil), "c")},
		Pods: []*v1.Pod{web("web-a", "n1"), web("web-b", "n2")},
	}
	check(t, rows(drainNodes(t, c, nil, 0, "n1", "n2")), []string{
		"shop/web-a n1 scheduled n4  | ",
		"shop/web-b n2 scheduled n3  | ",
	})
}

// TestDrainTimeoutGoesOn: web-a on n1 is held back by its budget (0
// disruptions allowed). Without --timeout kubectl retries it for ever and
// never drains n2; with one it gives up on n1 and drains n2, whose x
// goes to n3 (the only node neither cordoned nor full).
func TestDrainTimeoutGoesOn(t *testing.T) {
	cluster := func() *load.Cluster {
		return &load.Cluster{
			Nodes: []*v1.Node{testNode("n1", "8", nil), testNode("n2", "8", nil), testNode("n3", "2", nil)},
			Pods:  []*v1.Pod{webPod("web-a", "n1"), testPod("shop", "x", "n2", "1", "ReplicaSet/x")},
		}
	}
	objects := []runtime.Object{webPDB(0, 1, 1)}
	refusal := "Cannot evict pod as it would violate the pod's disruption budget. (The disruption budget web-pdb needs 1 healthy pods and has 1 currently)"
	check(t, rows(drainNodes(t, cluster(), objects, 0, "n1", "n2")), []string{
		"shop/web-a n1 blocked  shop/web-pdb | " + refusal,
		"shop/x n2 skipped   | not evicted: kubectl drain waits for ever on node n1, whose pods a disruption budget holds back (--timeout gives up on a node)",
	})
	check(t, rows(drainNodes(t, cluster(), objects, 30*time.Second, "n1", "n2")), []string{
		"shop/x n2 scheduled n3  | ",
		"shop/web-a n1 blocked  shop/web-pdb | " + refusal + "; kubectl drain gives up after --timeout 30s and goes on with the next node",
	})
}

// TestDrainStatefulSetWaitsForItsPod: a StatefulSet recreates its pod only
// once the old one is gone (kube-controller-manager v1.36.3,
// stateful_set_control.go: the name is the pod's identity), so its
// replacement is placed after the node's other replacements, whatever its
// priority, and no longer sees its terminating pod. twoPriorities with
// hi moved to n1 and owned by a StatefulSet, n2 drained empty: lo's
// replacement comes first and takes n3; hi's then takes n4 (queued
// together, hi's priority would put it first, on n3).
func TestDrainStatefulSetWaitsForItsPod(t *testing.T) {
	c := twoPriorities()
	hi := c.Pods[1]
	hi.Spec.NodeName = "n1"
	hi.OwnerReferences[0].Kind = "StatefulSet"
	check(t, rows(drainNodes(t, c, nil, 0, "n1", "n2")), []string{
		"shop/lo n1 scheduled n3  | ",
		"shop/hi n1 scheduled n4  | ",
	})
}
