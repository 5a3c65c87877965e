package decide

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// nearMissEvaluator is cluster.evaluator with Input.NearMisses set.
func nearMissEvaluator(t *testing.T, c cluster, n int) *Evaluator {
	t.Helper()
	ch := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, nd := range c.nodes {
		ch.AddNode(nd)
	}
	for _, p := range c.bound {
		if err := ch.AddPod(p); err != nil {
			t.Fatal(err)
		}
	}
	snap := cache.NewEmptySnapshot()
	if err := ch.UpdateSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), Input{Snapshot: snap, Pending: c.pending, NearMisses: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// TestNearMisses: three nodes each rejecting a 1500m pod with a
// nodeSelector disktype=ssd for different reasons. The scheduler records
// only the first rejecting plugin of each node (profile order,
// kube-scheduler v1.36.3's default Filter plugins: NodeUnschedulable,
// NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit…);
// the near misses list every one, fewest first:
//
//   - n1: cordoned, otherwise fits: NodeUnschedulable only;
//   - n2: tainted, and 1300m of its 2000m requested: TaintToleration and
//     NodeResourcesFit (needs 1500m, 700m free);
//   - n3: no disktype label, 1300m requested: NodeAffinity and
//     NodeResourcesFit.
func TestNearMisses(t *testing.T) {
	c := cluster{
		nodes: nodes(
			node("n1").Label("disktype", "ssd").Unschedulable(true),
			node("n2").Label("disktype", "ssd").Taints(taint("dedicated", v1.TaintEffectNoSchedule)),
			node("n3"),
		),
		bound: pods(
			bound("b2", "n2").Req(cpu("1300m")),
			bound("b3", "n3").Req(cpu("1300m")),
		),
	}
	p := pod("p").Req(cpu("1500m")).NodeSelector(map[string]string{"disktype": "ssd"}).Obj()
	plain := evaluate(t, c.evaluator(t), p)
	v := evaluate(t, nearMissEvaluator(t, c, -1), p)
	if v.Result != Unschedulable || v.Message != plain.Message {
		t.Fatalf("the analysis changed the verdict: %s %q, want %s %q", v.Result, v.Message, plain.Result, plain.Message)
	}
	wantRejected := map[string]int{"NodeUnschedulable": 1, "TaintToleration": 1, "NodeAffinity": 1}
	if diff := cmp.Diff(wantRejected, v.RejectedBy); diff != "" {
		t.Errorf("RejectedBy (-want +got):\n%s", diff)
	}
	fit := Rejection{Plugin: "NodeResourcesFit", Code: "Unschedulable", Reasons: []string{"Insufficient cpu"},
		Shortfalls: []Shortfall{{Resource: "cpu", Requested: 1500, Free: 700}}}
	want := []NearMiss{
		{Node: "n1", Rejections: []Rejection{{Plugin: "NodeUnschedulable", Code: "UnschedulableAndUnresolvable", Reasons: []string{"node(s) were unschedulable"}}}},
		{Node: "n2", Rejections: []Rejection{
			{Plugin: "TaintToleration", Code: "UnschedulableAndUnresolvable", Reasons: []string{"node(s) had untolerated taint(s)"}, Taint: "dedicated=x:NoSchedule"},
			fit}},
		{Node: "n3", Rejections: []Rejection{
			{Plugin: "NodeAffinity", Code: "UnschedulableAndUnresolvable", Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}},
			fit}},
	}
	if diff := cmp.Diff(want, v.NearMisses); diff != "" {
		t.Errorf("NearMisses (-want +got):\n%s", diff)
	}
	if plain.NearMisses != nil {
		t.Errorf("without Input.NearMisses the analysis ran: %v", plain.NearMisses)
	}
	if top := evaluate(t, nearMissEvaluator(t, c, 1), p).NearMisses; len(top) != 1 || top[0].Node != "n1" {
		t.Errorf("NearMisses 1 kept %v, want n1 alone", top)
	}
}

// TestNearMissesNominated: a pod of higher priority nominated to n1 holds
// 1500m there; the scheduler's first pass counts it, so n1 rejects a 1000m
// pod for cpu (needs 1000m, 500m free with the nominated pod).
func TestNearMissesNominated(t *testing.T) {
	c := cluster{
		nodes:   nodes(node("n1"), node("n2").Unschedulable(true)),
		pending: pods(pod("big").Req(cpu("1500m")).Priority(10).NominatedNodeName("n1")),
	}
	p := pod("p").Req(cpu("1000m")).Obj()
	v := evaluate(t, nearMissEvaluator(t, c, -1), p)
	if v.Result != Unschedulable {
		t.Fatalf("result %s, want unschedulable: %s", v.Result, v.Message)
	}
	want := NearMiss{Node: "n1", Rejections: []Rejection{{Plugin: "NodeResourcesFit", Code: "Unschedulable", Reasons: []string{"Insufficient cpu"},
		Shortfalls: []Shortfall{{Resource: "cpu", Requested: 1000, Free: 500}}}}}
	// n2 (cordoned, nothing short) ranks first; n1 is the one to read.
	if len(v.NearMisses) != 2 || v.NearMisses[0].Node != "n2" {
		t.Fatalf("near misses %v, want n2 then n1", v.NearMisses)
	}
	if diff := cmp.Diff(want, v.NearMisses[1]); diff != "" {
		t.Errorf("n1 (-want +got):\n%s", diff)
	}
}

// TestTopNodes: the best n (3, 4, 1) by total, equal totals in scan order,
// unscored and rejected nodes left out.
func TestTopNodes(t *testing.T) {
	s := []PluginScore{{Plugin: "P", Score: 1}}
	nodes := []NodeResult{
		{Name: "a", Feasible: true, Scores: s, Total: 5},
		{Name: "r", Plugin: "NodeAffinity"},
		{Name: "b", Feasible: true, Scores: s, Total: 9},
		{Name: "c", Feasible: true, Scores: s, Total: 5},
		{Name: "u", Feasible: true, Total: 99}, // not scored
		{Name: "d", Feasible: true, Scores: s, Total: 9},
		{Name: "e", Feasible: true, Scores: s, Total: 7},
	}
	var got []string
	for _, n := range topNodes(nodes, 3) {
		got = append(got, n.Name)
	}
	if diff := cmp.Diff([]string{"b", "d", "e"}, got); diff != "" {
		t.Errorf("top 3 (-want +got):\n%s", diff)
	}
	if topNodes(nodes[:2], 3)[0].Name != "a" || topNodes(nodes[1:2], 3) != nil {
		t.Error("one scored node, or none")
	}
	got = nil
	for _, n := range topNodes(nodes, 4) {
		got = append(got, n.Name)
	}
	if diff := cmp.Diff([]string{"b", "d", "e", "a"}, got); diff != "" {
		t.Errorf("top 4: a before c, equal totals in scan order (-want +got):\n%s", diff)
	}
	if top := topNodes(nodes, 1); len(top) != 1 || top[0].Name != "b" {
		t.Errorf("top 1 = %v, want b alone", top)
	}
}

// TestNearMissesSmallestShortageFirst: three 4-cpu nodes, each short of
// cpu alone for a 3-cpu pod, rank by how much of the request is missing,
// not by NodeTree order: n2 (1500m requested, 2500m free: 500m short),
// then n1 (2500m requested: 1500m short), then n3 (3500m: 2500m short).
func TestNearMissesSmallestShortageFirst(t *testing.T) {
	c := cluster{
		nodes: nodes(node("n1", "cpu", "4"), node("n2", "cpu", "4"), node("n3", "cpu", "4")),
		bound: pods(
			bound("b1", "n1").Req(cpu("2500m")),
			bound("b2", "n2").Req(cpu("1500m")),
			bound("b3", "n3").Req(cpu("3500m")),
		),
	}
	v := evaluate(t, nearMissEvaluator(t, c, -1), pod("p").Req(cpu("3")).Obj())
	var got []string
	for _, m := range v.NearMisses {
		got = append(got, m.Node)
	}
	if diff := cmp.Diff([]string{"n2", "n1", "n3"}, got); diff != "" {
		t.Errorf("near-miss order (-want +got):\n%s", diff)
	}
}
