package decide

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
)

// The expected messages and reasons below are written by hand from the
// plugins' sources of k8s.io/kubernetes v1.36.3 (the Err* reason constants
// of each plugin under pkg/scheduler/framework/plugins, FitError.Error in
// framework/types.go, Evaluator.Preempt in framework/preemption) and the
// reason histogram rules (one count per reason, entries sorted as strings).

type want struct {
	result  Result
	node    string
	message string
	// filters maps node name to NodeResult.Filter().
	filters map[string]string
	// victims of a successful preemption, with the nominated node.
	nominated   string
	victims     []string
	terminating []string
}

type evalCase struct {
	name    string
	cluster cluster
	pod     *v1.Pod
	want    want
}

func runCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := evaluate(t, tc.cluster.evaluator(t), tc.pod)
			got := want{result: v.Result, node: v.Node, message: v.Message, filters: map[string]string{}}
			for _, n := range v.Nodes {
				got.filters[n.Name] = n.Filter()
			}
			if tc.want.filters == nil {
				got.filters = nil
			}
			if p := v.Preemption; p != nil {
				got.nominated = p.NominatedNode
				for _, victim := range p.Victims {
					got.victims = append(got.victims, victim.Name)
				}
				for _, victim := range p.TerminatingVictims {
					got.terminating = append(got.terminating, victim.Name)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}

const (
	unschedulableNode = "NodeUnschedulable: node(s) were unschedulable"
	untolerated       = "TaintToleration: node(s) had untolerated taint(s)"
	affinityMismatch  = "NodeAffinity: node(s) didn't match Pod's node affinity/selector"
	noPreemption      = "no new claims to deallocate, preemption: "
)

// Cordons, taints and tolerations, nodeSelector: the first failing Filter
// plugin decides each node (NodeUnschedulable, then TaintToleration, then
// NodeAffinity).
func TestNodeLevelFilters(t *testing.T) {
	ns := func(withFit bool) []*v1.Node {
		ws := []*st.NodeWrapper{
			node("cordoned").Unschedulable(true).Label("disktype", "ssd"),
			node("tainted").Taints(taint("dedicated", v1.TaintEffectNoSchedule)).Label("disktype", "ssd"),
			node("gpu-hdd").Taints(taint("gpu", v1.TaintEffectNoExecute)),
		}
		if withFit {
			ws = append(ws, node("gpu-ssd").Taints(taint("gpu", v1.TaintEffectNoExecute)).Label("disktype", "ssd"))
		}
		return nodes(append(ws, node("hdd").Label("disktype", "hdd"))...)
	}
	p := pod("p").NodeSelector(map[string]string{"disktype": "ssd"}).Toleration("gpu").Obj()
	runCases(t, []evalCase{{
		name: "one node passes", cluster: cluster{nodes: ns(true)}, pod: p,
		want: want{result: Scheduled, node: "gpu-ssd", filters: map[string]string{
			"cordoned": unschedulableNode, "tainted": untolerated, "gpu-hdd": affinityMismatch,
			"gpu-ssd": "Success", "hdd": affinityMismatch,
		}},
	}, {
		name: "none passes", cluster: cluster{nodes: ns(false)}, pod: p,
		want: want{result: Unschedulable, message: "0/4 nodes are available: 1 node(s) had untolerated taint(s), " +
			"1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. " +
			noPreemption + "0/4 nodes are available: 4 Preemption is not helpful for scheduling."},
	}})
}

// Required node affinity with In, NotIn, DoesNotExist and Gt.
func TestNodeAffinityOperators(t *testing.T) {
	c := cluster{nodes: nodes(
		node("zone-b").Label("zone", "b").Label("size", "8"),
		node("small").Label("zone", "a").Label("size", "2"),
		node("has-gpu").Label("zone", "a").Label("size", "8").Label("gpu", "yes"),
		node("batch").Label("zone", "a").Label("size", "8").Label("tier", "batch"),
		node("fits").Label("zone", "a").Label("size", "8"),
	)}
	p := pod("p").Obj()
	p.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
		NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{
			{Key: "zone", Operator: v1.NodeSelectorOpIn, Values: []string{"a"}},
			{Key: "size", Operator: v1.NodeSelectorOpGt, Values: []string{"4"}},
			{Key: "gpu", Operator: v1.NodeSelectorOpDoesNotExist},
			{Key: "tier", Operator: v1.NodeSelectorOpNotIn, Values: []string{"batch"}},
		}}},
	}}}
	runCases(t, []evalCase{{name: "operators", cluster: c, pod: p, want: want{result: Scheduled, node: "fits", filters: map[string]string{
		"zone-b": affinityMismatch, "small": affinityMismatch, "has-gpu": affinityMismatch, "batch": affinityMismatch, "fits": "Success",
	}}}})
}

// Host ports, cpu, pod count and an extended resource; preemption finds no
// lower-priority victims on the nodes where it could help and calls it
// hopeless on the node that lacks the extended resource altogether.
func TestPortsAndResources(t *testing.T) {
	c := cluster{
		nodes: nodes(
			node("port-taken", "example.com/foo", "1"),
			node("busy", "example.com/foo", "1"),
			node("full", "example.com/foo", "1", "pods", "1"),
			node("no-foo"),
		),
		bound: pods(
			bound("web", "port-taken").HostPort(8080),
			bound("hog", "busy").Req(cpu("1500m")),
			bound("only", "full"),
		),
	}
	p := pod("p").Req(map[v1.ResourceName]string{v1.ResourceCPU: "1", "example.com/foo": "1"}).HostPort(8080).Obj()
	runCases(t, []evalCase{{name: "unschedulable", cluster: c, pod: p, want: want{
		result: Unschedulable,
		message: "0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient example.com/foo, 1 Too many pods, " +
			"1 node(s) didn't have free ports for the requested pod ports. " + noPreemption +
			"0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
		filters: map[string]string{
			"port-taken": "NodePorts: node(s) didn't have free ports for the requested pod ports",
			"busy":       "NodeResourcesFit: Insufficient cpu",
			"full":       "NodeResourcesFit: Too many pods",
			"no-foo":     "NodeResourcesFit: Insufficient example.com/foo",
		},
	}}})
}

// A higher-priority pod that does not fit: DefaultPreemption nominates the
// node and picks the lower-priority pod as victim; the event then carries no
// PostFilter message.
func TestPreemption(t *testing.T) {
	c := cluster{
		nodes: nodes(node("n1")),
		bound: pods(bound("low", "n1").Priority(0).Req(cpu("1500m")), bound("high", "n1").Priority(1000).Req(cpu("100m"))),
	}
	p := pod("p").Priority(100).Req(cpu("1")).Obj()
	runCases(t, []evalCase{{name: "victim", cluster: c, pod: p, want: want{
		result: Unschedulable, message: "0/1 nodes are available: 1 Insufficient cpu.",
		nominated: "n1", victims: []string{"low"},
	}}})
}

// Victims already being deleted: DefaultPreemption counts them in its
// choice, but the executor (framework/preemption/executor.go, v1.36.3)
// sends no delete for a pod with a deletionTimestamp. The verdict lists
// what the scheduler deletes and, apart, the victims already terminating,
// whether some or all of them are.
func TestPreemptionTerminatingVictims(t *testing.T) {
	p := pod("p").Priority(100).Req(cpu("1500m")).Obj()
	msg := "0/1 nodes are available: 1 Insufficient cpu."
	runCases(t, []evalCase{{
		name: "mixed",
		cluster: cluster{nodes: nodes(node("n1")), bound: pods(
			bound("a", "n1").Priority(0).Req(cpu("900m")),
			bound("b", "n1").Priority(1).Req(cpu("900m")).Terminating())},
		pod:  p,
		want: want{result: Unschedulable, message: msg, nominated: "n1", victims: []string{"a"}, terminating: []string{"b"}},
	}, {
		name: "all terminating",
		cluster: cluster{nodes: nodes(node("n1")), bound: pods(
			bound("a", "n1").Priority(0).Req(cpu("900m")).Terminating(),
			bound("b", "n1").Priority(1).Req(cpu("900m")).Terminating())},
		pod:  p,
		want: want{result: Unschedulable, message: msg, nominated: "n1", terminating: []string{"b", "a"}},
	}})
}

// Pod affinity, the pod's own anti-affinity and existing pods'
// anti-affinity, each a different InterPodAffinity reason.
func TestInterPodAffinity(t *testing.T) {
	zoneKey := v1.LabelTopologyZone
	ns := func(cordonFit bool) []*v1.Node {
		return nodes(
			node("fits").Label(zoneKey, "a").Unschedulable(cordonFit),
			node("guarded").Label(zoneKey, "a"),
			node("other-zone").Label(zoneKey, "b"),
			node("other-zone-2").Label(zoneKey, "b"),
			node("has-cache").Label(zoneKey, "a"),
		)
	}
	guard := bound("guard", "guarded")
	guard.PodAntiAffinity(v1.LabelHostname, selector("app", "cache"), st.PodAntiAffinityWithRequiredReq)
	boundPods := pods(bound("db", "fits").Label("app", "db"), guard, bound("cache-0", "has-cache").Label("app", "cache"))
	p := pod("cache-1").Label("app", "cache")
	p.PodAffinity(zoneKey, selector("app", "db"), st.PodAffinityWithRequiredReq)
	p.PodAntiAffinity(v1.LabelHostname, selector("app", "cache"), st.PodAntiAffinityWithRequiredReq)
	filters := map[string]string{
		"fits":         "Success",
		"guarded":      "InterPodAffinity: node(s) didn't satisfy existing pods anti-affinity rules",
		"other-zone":   "InterPodAffinity: node(s) didn't match pod affinity rules",
		"other-zone-2": "InterPodAffinity: node(s) didn't match pod affinity rules",
		"has-cache":    "InterPodAffinity: node(s) didn't match pod anti-affinity rules",
	}
	runCases(t, []evalCase{{
		name: "one node passes", cluster: cluster{nodes: ns(false), bound: boundPods}, pod: p.Obj(),
		want: want{result: Scheduled, node: "fits", filters: filters},
	}, {
		name: "none passes", cluster: cluster{nodes: ns(true), bound: boundPods}, pod: p.Obj(),
		want: want{result: Unschedulable, message: "0/5 nodes are available: 1 node(s) didn't match pod anti-affinity rules, " +
			"1 node(s) didn't satisfy existing pods anti-affinity rules, 1 node(s) were unschedulable, " +
			"2 node(s) didn't match pod affinity rules. " + noPreemption +
			"0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling."},
	}})
}

// A DoNotSchedule topology spread constraint: the zone that already has
// the pods would exceed maxSkew; a node without the zone label cannot host
// the pod at all.
func TestTopologySpread(t *testing.T) {
	zoneKey := v1.LabelTopologyZone
	c := cluster{
		nodes: nodes(node("a1").Label(zoneKey, "a"), node("b1").Label(zoneKey, "b"), node("nolabel")),
		bound: pods(bound("web-0", "a1").Label("app", "web"), bound("web-1", "a1").Label("app", "web")),
	}
	p := pod("web-2").Label("app", "web").SpreadConstraint(1, zoneKey, v1.DoNotSchedule, selector("app", "web"), nil, nil, nil, nil).Obj()
	runCases(t, []evalCase{{name: "spread", cluster: c, pod: p, want: want{result: Scheduled, node: "b1", filters: map[string]string{
		"a1":      "PodTopologySpread: node(s) didn't match pod topology spread constraints",
		"b1":      "Success",
		"nolabel": "PodTopologySpread: node(s) didn't match pod topology spread constraints (missing required label)",
	}}}})
}

// Pods the scheduler does not run a cycle for.
func TestGatedAndSkipped(t *testing.T) {
	c := cluster{nodes: nodes(node("n1"))}
	other := pod("other").SchedulerName("my-scheduler").Obj()
	runCases(t, []evalCase{{
		name: "scheduling gate", cluster: c, pod: pod("gated").SchedulingGates([]string{"example.com/wait"}).Obj(),
		want: want{result: Gated, message: "SchedulingGates: waiting for scheduling gates: [example.com/wait]"},
	}, {
		name: "being deleted", cluster: c, pod: pod("leaving").Terminating().Obj(),
		want: want{result: Skipped, message: "skip schedule deleting pod: ns/leaving"},
	}, {
		name: "other scheduler", cluster: c, pod: other,
		want: want{result: Skipped, message: `no profile serves schedulerName "my-scheduler" (profiles: [default-scheduler]); this kube-scheduler never picks the pod up`},
	}})
}

// Nominated pods of equal or higher priority are counted on their node in
// the first filter pass; lower-priority ones are not.
func TestNominatedPods(t *testing.T) {
	nominated := pod("nominated").Priority(100).Req(cpu("1500m")).NominatedNodeName("n1").Obj()
	c := cluster{nodes: nodes(node("n1"), node("n2")), bound: pods(bound("x", "n2").Req(cpu("900m"))), pending: []*v1.Pod{nominated}}
	runCases(t, []evalCase{{
		name: "lower priority yields", cluster: c, pod: pod("p").Priority(0).Req(cpu("1")).Obj(),
		want: want{result: Scheduled, node: "n2", filters: map[string]string{"n1": "NodeResourcesFit: Insufficient cpu", "n2": "Success"}},
	}, {
		name: "higher priority ignores it", cluster: c, pod: pod("p").Priority(200).Req(cpu("1")).NodeSelector(map[string]string{v1.LabelHostname: "n1"}).Obj(),
		want: want{result: Scheduled, node: "n1", filters: map[string]string{"n1": "Success", "n2": affinityMismatch}},
	}})
}

// FilterAll filters every node, also past numFeasibleNodesToFind (100 of
// these 150 identical nodes would end a cycle's scan), and neither scores
// nor preempts.
func TestFilterAll(t *testing.T) {
	var ws []*st.NodeWrapper
	for i := range 150 {
		ws = append(ws, node(fmt.Sprintf("n-%03d", i)))
	}
	e := cluster{nodes: nodes(ws...)}.evaluator(t)
	v, err := e.FilterAll(context.Background(), pod("p").Req(cpu("1")).Obj())
	if err != nil {
		t.Fatal(err)
	}
	if v.Result != Scheduled || v.Node != "" || v.FeasibleNodes != 150 || len(v.Nodes) != 150 || v.Nodes[0].Scores != nil {
		t.Errorf("FilterAll: %s node %q, %d feasible of %d listed", v.Result, v.Node, v.FeasibleNodes, len(v.Nodes))
	}
	cv := evaluate(t, e, pod("q").Req(cpu("1")).Obj())
	if cv.FeasibleNodes != 100 || cv.EvaluatedNodes != 100 {
		t.Errorf("a cycle over 150 nodes: %d feasible of %d evaluated, want 100 of 100", cv.FeasibleNodes, cv.EvaluatedNodes)
	}
	v, err = e.FilterAll(context.Background(), pod("r").Req(cpu("3")).Obj())
	if err != nil {
		t.Fatal(err)
	}
	if v.Result != Unschedulable || v.Message != "0/150 nodes are available: 150 Insufficient cpu." {
		t.Errorf("FilterAll of a pod too big: %s %q", v.Result, v.Message)
	}
}
