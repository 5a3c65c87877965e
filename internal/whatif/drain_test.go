package whatif

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// The drain fixture, worked out by hand (kubectl drain v1.36.3 rules,
// kube-scheduler v1.36.3 filters):
//
//	n1: 8 CPU, drained. Pods (kubectl's list order):
//	  kube-system/ds-x  DaemonSet "agent" (not in the input)
//	  shop/cache        ReplicaSet, 500m, emptyDir, nodeSelector disk=ssd
//	  shop/solo         no controller, 100m
//	  shop/web-a        ReplicaSet, 1 CPU, app=web, Ready
//	  shop/web-b        ReplicaSet, 1 CPU, app=web, Ready
//	  shop/web-d        ReplicaSet, 1 CPU, app=web, Ready
//	n2: 2 CPU, runs shop/web-c (1 CPU, app=web): 1 CPU free.
//	n3: 600m, label disk=ssd: 600m free.
//	PDB shop/web-pdb (app=web): currentHealthy 4, desiredHealthy 3,
//	disruptionsAllowed 1.
//
// With --force --ignore-daemonsets --delete-emptydir-data: ds-x stays;
// cache is evicted and its replacement fits n3 only (nodeSelector); solo
// is evicted and not recreated; web-a uses the budget's one disruption
// (1 -> 0) and its replacement fits n2 only (n3 has 600m < 1 CPU), which
// gives the disruption back (0 -> 1, healthy 3 -> 4); web-b is evicted
// then (1 -> 0, healthy 3) and its replacement fits nowhere (n2 full,
// n3 has 100m left): it stays Pending, so web-d is refused for good: the
// budget needs 3 healthy pods and has 3. Preemption cannot help web-b:
// n1 is cordoned and n3's 600m is less than its request (both
// unresolvable), and n2's pods have web-b's priority (no victims).

func quantity(s string) resource.Quantity { return resource.MustParse(s) }

func testNode(name, cpu string, labels map[string]string) *v1.Node {
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: quantity(cpu), v1.ResourceMemory: quantity("8Gi"), v1.ResourcePods: quantity("110")}}}
}

func testPod(ns, name, node, cpu, owner string) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name)},
		Spec: v1.PodSpec{NodeName: node, SchedulerName: v1.DefaultSchedulerName, Containers: []v1.Container{{Name: "c",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: quantity(cpu)}}}}},
		Status: v1.PodStatus{Phase: v1.PodRunning, Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue}}},
	}
	if kind, n, ok := strings.Cut(owner, "/"); ok {
		api := "apps/v1"
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: api, Kind: kind, Name: n, Controller: ptr.To(true)}}
	}
	return p
}

func webPod(name, node string) *v1.Pod {
	p := testPod("shop", name, node, "1", "ReplicaSet/web")
	p.Labels = map[string]string{"app": "web"}
	return p
}

func webPDB(allowed, healthy, desired int32) *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-pdb", Generation: 1},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Status:     policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired},
	}
}

func fixture(pdb *policyv1.PodDisruptionBudget) (*model.Model, []runtime.Object) {
	cachePod := testPod("shop", "cache", "n1", "500m", "ReplicaSet/cache")
	cachePod.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	cachePod.Spec.Volumes = []v1.Volume{{Name: "scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
	c := &load.Cluster{
		Nodes: []*v1.Node{testNode("n1", "8", nil), testNode("n2", "2", nil), testNode("n3", "600m", map[string]string{"disk": "ssd"})},
		Pods: []*v1.Pod{
			webPod("web-d", "n1"), webPod("web-b", "n1"), webPod("web-a", "n1"), webPod("web-c", "n2"),
			testPod("shop", "solo", "n1", "100m", ""), cachePod, testPod("kube-system", "ds-x", "n1", "100m", "DaemonSet/agent"),
		},
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		panic(err)
	}
	if pdb == nil {
		return m, nil
	}
	return m, []runtime.Object{pdb}
}

// rows renders the outcome as "pod from result node budget | message".
func rows(o *DrainOutcome) []string {
	var out []string
	for _, p := range o.Pods {
		out = append(out, fmt.Sprintf("%s/%s %s %s %s %s | %s", p.Pod.Namespace, p.Pod.Name, p.From, p.Result, p.Node, p.Budget, p.Message))
	}
	return out
}

func runDrain(t *testing.T, m *model.Model, objects []runtime.Object, rules DrainRules) *DrainOutcome {
	t.Helper()
	o, err := Drain(context.Background(), DrainInput{Model: m, Objects: objects, Nodes: []string{"n1"}, Rules: rules, Now: time.Unix(1000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func check(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDrainKubectlRulesBlockTheNode(t *testing.T) {
	m, objects := fixture(webPDB(1, 4, 3))
	o := runDrain(t, m, objects, DrainRules{})
	check(t, rows(o), []string{
		"kube-system/ds-x n1 blocked   | cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)",
		"shop/cache n1 blocked   | cannot delete Pods with local storage (use --delete-emptydir-data to override)",
		"shop/solo n1 blocked   | cannot delete Pods that declare no controller (use --force to override)",
		"shop/web-a n1 skipped   | not evicted: other pods block the drain of node n1",
		"shop/web-b n1 skipped   | not evicted: other pods block the drain of node n1",
		"shop/web-d n1 skipped   | not evicted: other pods block the drain of node n1",
	})
	if o.Safe() {
		t.Error("a blocked drain is not safe")
	}
	if strings.Join(o.AssumedDaemonSets, ",") != "kube-system/agent" {
		t.Errorf("assumed DaemonSets: %v", o.AssumedDaemonSets)
	}
	// The node is cordoned all the same, as kubectl drain cordons first.
	if ni, _ := m.Cache.GetNodeInfo("n1"); !ni.Node().Spec.Unschedulable {
		t.Error("n1 is not cordoned")
	}
}

func TestDrainBudgetAccounting(t *testing.T) {
	m, objects := fixture(webPDB(1, 4, 3))
	o := runDrain(t, m, objects, DrainRules{Force: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true})
	check(t, rows(o), []string{
		"shop/cache n1 scheduled n3  | ",
		"shop/web-a n1 scheduled n2 shop/web-pdb | ",
		"shop/web-b n1 unschedulable  shop/web-pdb | 0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
		"kube-system/ds-x n1 skipped   | ignoring DaemonSet-managed Pods",
		"shop/solo n1 not-recreated   | evicted: it has no controller, nothing recreates it",
		"shop/web-d n1 blocked  shop/web-pdb | Cannot evict pod as it would violate the pod's disruption budget. (The disruption budget web-pdb needs 3 healthy pods and has 3 currently)",
	})
	if o.Safe() {
		t.Error("not safe: a replacement stays Pending")
	}
	// Evicted pods stay in the cache, terminating; web-d was never evicted.
	for name, want := range map[string]bool{"web-a": true, "web-b": true, "cache": true, "solo": true, "web-d": false} {
		p, err := m.Cache.GetPod(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, UID: types.UID("uid-" + name)}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := p.DeletionTimestamp != nil; got != want {
			t.Errorf("%s terminating: %v, want %v", name, got, want)
		}
	}
}

func TestDrainBudgetAtZeroBlocks(t *testing.T) {
	m, objects := fixture(webPDB(0, 3, 3))
	o := runDrain(t, m, objects, DrainRules{Force: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true})
	blocked := 0
	for _, p := range o.Pods {
		if strings.HasPrefix(p.Pod.Name, "web-") {
			blocked++
			if p.Result != DrainBlocked || p.Budget != "shop/web-pdb" || !strings.HasPrefix(p.Message, BudgetViolation) {
				t.Errorf("%s: %s %s %q", p.Pod.Name, p.Result, p.Budget, p.Message)
			}
		}
	}
	if blocked != 3 {
		t.Errorf("%d web pods reported, want 3", blocked)
	}
}

func TestDrainDaemonSetsComplete(t *testing.T) {
	// Listed live, the DaemonSet is known to be gone: kubectl calls its pod
	// an orphan, deleted only with --force.
	m, objects := fixture(nil)
	o := runDrain(t, m, objects, DrainRules{DaemonSetsComplete: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true})
	if got := rows(o)[0]; got != `kube-system/ds-x n1 blocked   | cannot delete daemonsets.apps "agent" not found` {
		t.Errorf("got %s", got)
	}
	m, objects = fixture(nil)
	objects = append(objects, &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "agent"}})
	o = runDrain(t, m, objects, DrainRules{DaemonSetsComplete: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true, Force: true})
	if len(o.AssumedDaemonSets) != 0 {
		t.Errorf("assumed %v", o.AssumedDaemonSets)
	}
	for _, p := range o.Pods {
		if p.Pod.Name == "ds-x" && (p.Result != DrainSkipped || p.Message != "ignoring DaemonSet-managed Pods") {
			t.Errorf("ds-x: %s %q", p.Result, p.Message)
		}
	}
}

// TestPlanDrainMirrorAndSelector: kubectl leaves a mirror pod without a
// word, and lists only the pods --pod-selector selects.
func TestPlanDrainMirrorAndSelector(t *testing.T) {
	mirror := testPod("kube-system", "etcd-n1", "n1", "100m", "")
	mirror.Annotations = map[string]string{v1.MirrorPodAnnotationKey: "x"}
	pods := map[string][]*v1.Pod{"n1": {webPod("web-a", "n1"), mirror}}
	plan, err := PlanDrain(context.Background(), []string{"n1"}, pods, nil, DrainRules{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range plan.Nodes[0].Pods {
		got = append(got, fmt.Sprintf("%s %s %q", r.Pod.Name, r.Disposition, r.Message))
	}
	check(t, got, []string{`etcd-n1 leave ""`, `web-a evict ""`})
	plan, err = PlanDrain(context.Background(), []string{"n1"}, pods, nil, DrainRules{PodSelector: "app=web"})
	if err != nil || len(plan.Nodes[0].Pods) != 1 || plan.Nodes[0].Pods[0].Pod.Name != "web-a" {
		t.Errorf("--pod-selector app=web: %+v %v", plan, err)
	}
	if _, err := PlanDrain(context.Background(), nil, nil, nil, DrainRules{PodSelector: "a=("}); err == nil {
		t.Error("a bad --pod-selector must fail")
	}
}

// TestDrainBlockedNodeKeepsLeaveMessages: on a node whose drain is blocked,
// a DaemonSet pod still says kubectl's reason for leaving it.
func TestDrainBlockedNodeKeepsLeaveMessages(t *testing.T) {
	m, objects := fixture(webPDB(1, 4, 3))
	o := runDrain(t, m, objects, DrainRules{IgnoreDaemonSets: true})
	check(t, rows(o)[:3], []string{
		"kube-system/ds-x n1 skipped   | ignoring DaemonSet-managed Pods",
		"shop/cache n1 blocked   | cannot delete Pods with local storage (use --delete-emptydir-data to override)",
		"shop/solo n1 blocked   | cannot delete Pods that declare no controller (use --force to override)",
	})
}

// TestDrainTerminatingPodKeepsItsAntiAffinity: the evicted pod is still in
// the cache, terminating, while its replacement is placed, and
// InterPodAffinity (v1.36) still counts terminating pods. web-a (n1, zone
// a) requires no other app=web pod in its zone; so does its replacement.
// n2 (zone a, 8 CPU free) would outscore n3 (zone b, 2 CPU) by
// LeastAllocated, but the terminating web-a still fills zone a: the
// replacement goes to n3.
func TestDrainTerminatingPodKeepsItsAntiAffinity(t *testing.T) {
	zone := func(n *v1.Node, z string) *v1.Node { n.Labels = map[string]string{v1.LabelTopologyZone: z}; return n }
	web := webPod("web-a", "n1")
	web.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: v1.LabelTopologyZone}}}}
	c := &load.Cluster{Nodes: []*v1.Node{zone(testNode("n1", "8", nil), "a"), zone(testNode("n2", "8", nil), "a"), zone(testNode("n3", "2", nil), "b")},
		Pods: []*v1.Pod{web}}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := runDrain(t, m, nil, DrainRules{})
	check(t, rows(o), []string{"shop/web-a n1 scheduled n3  | "})
}

// TestDrainStaleBudgetDoesNotLoop: a budget whose status is behind its
// spec refuses every Ready pod (429) even once a replacement gives an
// allowance back. web-d is not Ready and the budget is healthy enough
// (4 >= 3), so it goes without the check and its replacement restores an
// allowance; web-a and web-b are refused again, and stay blocked.
func TestDrainStaleBudgetDoesNotLoop(t *testing.T) {
	pdb := stale(webPDB(1, 4, 3))
	m, objects := fixture(pdb)
	for _, p := range m.Pods {
		if p.Name == "web-d" {
			p.Status.Conditions = nil
		}
	}
	o := runDrain(t, m, objects, DrainRules{Force: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true})
	var got []string
	for _, p := range o.Pods {
		if strings.HasPrefix(p.Pod.Name, "web-") {
			got = append(got, fmt.Sprintf("%s %s %s", p.Pod.Name, p.Result, p.Message))
		}
	}
	stale := "Cannot evict pod as it would violate the pod's disruption budget. (The disruption budget web-pdb is still being processed by the server.)"
	check(t, got, []string{"web-d scheduled ", "web-a blocked " + stale, "web-b blocked " + stale})
}
