package cmd

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// exampleNode is one row of the hand-computed reference table in
// examples/README.md: pods, Requested (milliCPU, bytes), scalar requests and
// NonZeroRequested, worked out by hand from the v1.36 algorithm and
// cross-checked by an independent script, never by this program.
type exampleNode struct {
	Pods         int
	CPU, Mem     int64
	Eph          int64
	Scalars      map[string]int64
	NZCPU, NZMem int64
}

var exampleReference = map[string]exampleNode{
	"gpu-b-1":       {6, 45100, 180441055232, 0, map[string]int64{"nvidia.com/gpu": 3}, 45300, 181017772032},
	"hugepages-c-1": {4, 2600, 1663041536, 0, map[string]int64{"hugepages-2Mi": 805306368}, 2700, 2030043136},
	"infra-a-1":     {7, 4960, 21252538368, 0, nil, 5060, 21619539968},
	"legacy-c-1":    {3, 400, 857735168, 0, nil, 500, 1224736768},
	"small-b-1":     {8, 425, 652214272, 0, nil, 525, 1019215872},
	"worker-a-1":    {7, 3300, 8233418752, 0, nil, 3400, 8600420352},
	"worker-a-2":    {7, 3400, 4689231872, 0, nil, 3500, 5475663872},
	"worker-a-3":    {4, 2950, 6620708864, 0, nil, 3050, 7197425664},
	"worker-b-1":    {7, 4100, 4911529984, 21474836480, nil, 4200, 5278531584},
	"worker-b-2":    {4, 1400, 4884267008, 0, nil, 1500, 5251268608},
	"worker-c-1":    {7, 2250, 3212836864, 0, nil, 2350, 3579838464},
	"worker-c-2":    {6, 1250, 2401239040, 0, nil, 1450, 2977955840},
	"node-gone-1":   {1, 200, 268435456, 0, nil, 200, 268435456},
}

// TestExampleMatchesHandComputation checks every node of the shipped example
// against the hand-computed reference.
func TestExampleMatchesHandComputation(t *testing.T) {
	r := run(t, "", "dump", "-f", example, "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var d v1alpha1.CacheDump
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	got := map[string]exampleNode{}
	for _, n := range d.Nodes {
		scalars := map[string]int64{}
		for k, v := range n.Requested.ScalarResources {
			if v != 0 {
				scalars[k] = v
			}
		}
		if len(scalars) == 0 {
			scalars = nil
		}
		got[n.Name] = exampleNode{len(n.Pods), n.Requested.MilliCPU, n.Requested.Memory, n.Requested.EphemeralStorage,
			scalars, n.NonZeroRequested.MilliCPU, n.NonZeroRequested.Memory}
	}
	if diff := cmp.Diff(exampleReference, got); diff != "" {
		t.Errorf("example cluster vs hand computation (-want,+got):\n%s", diff)
	}
	if d.Summary.Pods != 71 || d.Summary.PendingPods != 4 || d.Summary.Placeholders != 1 {
		t.Errorf("summary %+v, want 71 pods, 4 pending, 1 placeholder", d.Summary)
	}
}

// pendingReference is the hand analysis of the example's pending pods in
// examples/README.md ("Pending pods: what kube-scheduler decides"): the
// FailedScheduling message and the Filter plugin that rejects each node.
var pendingReference = map[string]struct {
	message string
	plugins map[string]string // node → plugin; nodes not listed: NodeResourcesFit
}{
	"reports/pdf-renderer-7b6c5d9f8-zm3qp": {
		"0/12 nodes are available: 1 node(s) were unschedulable, 2 node(s) had untolerated taint(s), 9 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.",
		map[string]string{"worker-b-2": "NodeUnschedulable", "gpu-b-1": "TaintToleration", "infra-a-1": "TaintToleration",
			"hugepages-c-1": "NodeAffinity", "legacy-c-1": "NodeAffinity", "small-b-1": "NodeAffinity", "worker-a-1": "NodeAffinity", "worker-a-2": "NodeAffinity",
			"worker-a-3": "NodeAffinity", "worker-b-1": "NodeAffinity", "worker-c-1": "NodeAffinity", "worker-c-2": "NodeAffinity"},
	},
	"ml/llama-finetune-worker-0": {
		"0/12 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 10 Insufficient nvidia.com/gpu, 4 Insufficient memory, 8 Insufficient cpu. no new claims to deallocate, preemption: 0/12 nodes are available: 1 No preemption victims found for incoming pod, 11 Preemption is not helpful for scheduling.",
		map[string]string{"worker-b-2": "NodeUnschedulable", "infra-a-1": "TaintToleration"},
	},
	"analytics/trino-coordinator-6d9c7b8f5-kq4wz": {
		"0/12 nodes are available: 1 Too many pods, 1 node(s) were unschedulable, 2 node(s) had untolerated taint(s), 8 Insufficient cpu, 9 Insufficient memory. no new claims to deallocate, preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.",
		map[string]string{"worker-b-2": "NodeUnschedulable", "gpu-b-1": "TaintToleration", "infra-a-1": "TaintToleration"},
	},
	"shop/fraud-scorer-6c7d8b9f5-p5lzn": {
		"0/12 nodes are available: 1 Insufficient memory, 1 Too many pods, 1 node(s) were unschedulable, 2 node(s) had untolerated taint(s), 9 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to a terminating pod on the nominated node.",
		map[string]string{"worker-b-2": "NodeUnschedulable", "gpu-b-1": "TaintToleration", "infra-a-1": "TaintToleration"},
	},
}

// TestExampleWhy checks "why -A" on the example against the hand analysis.
func TestExampleWhy(t *testing.T) {
	r := run(t, "", "why", "-A", "-f", example, "-o", "json", "--show-nodes")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (pods stay pending): %s", r.code, r.stderr)
	}
	var rep v1alpha1.SchedulingReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Pods) != len(pendingReference) {
		t.Fatalf("%d pods, want %d", len(rep.Pods), len(pendingReference))
	}
	for _, p := range rep.Pods {
		want, ok := pendingReference[p.Pod]
		if !ok || p.Result != "unschedulable" || p.Message != want.message {
			t.Errorf("%s: %s %q\nwant unschedulable %q", p.Pod, p.Result, p.Message, want.message)
		}
		checkPlugins(t, p.Pod, p.Nodes, want.plugins)
	}
}

func checkPlugins(t *testing.T, pod string, nodes []v1alpha1.NodeDecision, want map[string]string) {
	t.Helper()
	if len(nodes) != 12 {
		t.Errorf("%s: %d nodes evaluated, want 12", pod, len(nodes))
	}
	for _, n := range nodes {
		plugin := want[n.Name]
		if plugin == "" {
			plugin = "NodeResourcesFit"
		}
		if n.Plugin != plugin {
			t.Errorf("%s on %s: rejected by %q (%s), want %s", pod, n.Name, n.Plugin, n.Filter, plugin)
		}
	}
}

// TestExamplePendingFit: "requested --pod" agrees with the same analysis:
// each pending pod passes the filters on no node (exit 1), rejected on each
// node by the same plugin.
func TestExamplePendingFit(t *testing.T) {
	for pod, want := range pendingReference {
		t.Run(pod, func(t *testing.T) {
			r := run(t, "", "requested", "-f", example, "--pod", pod, "-o", "json")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1: %s", r.code, r.stderr)
			}
			var rep v1alpha1.RequestedReport
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			var nodes []v1alpha1.NodeDecision
			for _, n := range rep.Nodes {
				if n.Placeholder {
					continue
				}
				if n.Fit == nil || n.Fit.Fits {
					t.Errorf("%s: fits %s", pod, n.Name)
					continue
				}
				nodes = append(nodes, v1alpha1.NodeDecision{Name: n.Name, Plugin: n.Fit.Plugin})
			}
			checkPlugins(t, pod, nodes, want.plugins)
		})
	}
}

// TestExampleSimulatePending: "simulate --pending -A" on the example agrees
// with the hand analysis: every pending pod stays unschedulable with the
// same FailedScheduling message, and no node's requests change.
func TestExampleSimulatePending(t *testing.T) {
	noKubeconfig(t)
	r := run(t, "", "simulate", "-f", example, "--pending", "-A", "-o", "json")
	if r.code != ExitError { // pods stay unschedulable: 1, as why exits
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var sim v1alpha1.Simulation
	if err := json.Unmarshal([]byte(r.stdout), &sim); err != nil {
		t.Fatal(err)
	}
	if len(sim.Pods) != len(pendingReference) || len(sim.Nodes) != 0 {
		t.Errorf("%d pods, %d touched nodes; want %d pods, no node", len(sim.Pods), len(sim.Nodes), len(pendingReference))
	}
	for _, p := range sim.Pods {
		want, ok := pendingReference[p.Namespace+"/"+p.Name]
		if !ok || p.State != "Unschedulable" || p.Detail != want.message {
			t.Errorf("%s/%s: %s %q\nwant Unschedulable %q", p.Namespace, p.Name, p.State, p.Detail, want.message)
		}
	}
}

// TestExampleScenario runs examples/scenario.yaml (30s TTL) and checks each
// step against the scenario's comments, with numbers from the hand-computed
// reference: pdf-renderer requests 200m / 256Mi; worker-a-2 holds 3400m,
// worker-c-1 2250m, worker-c-2 1250m, worker-a-3 2950m of which the
// terminating nightly-etl is 2500m; fraud-scorer requests 3 cpu.
func TestExampleScenario(t *testing.T) {
	noKubeconfig(t)
	r := run(t, "", "simulate", "-f", example, "--script", "../../examples/scenario.yaml", "--ttl", "30s", "-o", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var sim v1alpha1.Simulation
	if err := json.Unmarshal([]byte(r.stdout), &sim); err != nil {
		t.Fatal(err)
	}
	type step struct {
		at, event, node, to string
		milliCPU            int64 // the node's requested cpu after the event; 0: not checked
		err                 string
	}
	const inCache, notAssumed = "is in the cache, so can't be assumed", "wasn't assumed so cannot be forgotten"
	want := []step{
		{"0s", "unschedulable", "", "", 0, ""},
		{"0s", "assume", "worker-a-2", "Assumed", 3400 + 200, ""},
		{"0s", "finishBinding", "worker-a-2", "", 3600, ""},
		{"0s", "assume", "worker-c-2", "", 1250, inCache},
		{"10s", "advance", "", "", 0, ""},
		{"10s", "cleanup", "", "", 0, ""},
		{"31s", "advance", "", "", 0, ""},
		{"31s", "expire", "worker-a-2", "Expired", 3400, ""},
		{"31s", "assume", "worker-c-2", "Assumed", 1250 + 200, ""},
		{"31s", "finishBinding", "worker-c-2", "", 1450, ""},
		{"31s", "add", "worker-c-1", "Added", 2250 + 200, ""},
		{"31s", "forget", "worker-c-1", "", 2450, notAssumed},
		{"31s", "unschedulable", "", "", 0, ""},
		{"31s", "remove", "worker-a-3", "Deleted", 2950 - 2500, ""},
		{"31s", "assume", "worker-a-3", "Assumed", 450 + 3000, ""},
		{"31s", "finishBinding", "worker-a-3", "", 3450, ""},
		{"31s", "add", "worker-a-3", "Added", 3450, ""},
	}
	if len(sim.Events) != len(want) {
		t.Fatalf("%d events, want %d", len(sim.Events), len(want))
	}
	for i, w := range want {
		e := sim.Events[i]
		var cpu int64
		if e.Requested != nil {
			cpu = e.Requested.MilliCPU
		}
		if e.At != w.at || e.Event != w.event || e.Node != w.node || e.To != w.to || (w.milliCPU != 0 && cpu != w.milliCPU) ||
			(w.err == "") != (e.Error == "") || !strings.Contains(e.Error, w.err) {
			t.Errorf("event %d: %s %s on %q to %q, cpu %d, error %q\nwant %+v", i+1, e.At, e.Event, e.Node, e.To, cpu, e.Error, w)
		}
	}
	final := map[string]string{}
	for _, p := range sim.Pods {
		final[p.Namespace+"/"+p.Name] = p.State + " " + p.Node
	}
	if diff := cmp.Diff(map[string]string{
		"reports/pdf-renderer-7b6c5d9f8-zm3qp": "Added worker-c-1",
		"shop/fraud-scorer-6c7d8b9f5-p5lzn":    "Added worker-a-3",
		"batch/nightly-etl-29742300-7kq2d":     "Deleted worker-a-3",
	}, final); diff != "" {
		t.Errorf("final pod states (-want,+got):\n%s", diff)
	}
}

// TestExampleTablesFit: the example's default requested, dump and snapshot
// tables fit 120 columns (#18), and -o wide still shows every column.
func TestExampleTablesFit(t *testing.T) {
	for _, args := range [][]string{{"requested"}, {"dump"}, {"snapshot"}} {
		r := run(t, "", append(args, "-f", example)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > 120 {
				t.Errorf("%v: a line of %d columns: %q", args, n, line)
			}
		}
	}
	wide := run(t, "", "requested", "-f", example, "-o", "wide")
	for _, col := range []string{"CPU-FREE", "EPHEMERAL-STORAGE", "HUGEPAGES-2MI", "NVIDIA.COM/GPU-FREE", "NON-ZERO-MEMORY"} {
		if !strings.Contains(strings.SplitN(wide.stdout, "\n", 2)[0], col) {
			t.Errorf("requested -o wide lacks %s", col)
		}
	}
}

// TestExampleWhyDiagnosis: "why -A -o json" without --show-nodes gives
// each pod's diagnosis instead of its nodes: the rejected nodes per plugin
// (the first rejecting plugin of each node, as the hand analysis names it
// for the nodes listed in pendingReference) and a few near misses.
func TestExampleWhyDiagnosis(t *testing.T) {
	r := run(t, "", "why", "-A", "-f", example, "-o", "json")
	var rep v1alpha1.SchedulingReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Pods {
		total := 0
		for _, n := range p.RejectedBy {
			total += n
		}
		if len(p.Nodes) != 0 || total != 12 || len(p.NearMisses) == 0 || len(p.NearMisses) > 5 {
			t.Errorf("%s: %d nodes, %d rejected (want 0 and 12), %d near misses (want 1-5)", p.Pod, len(p.Nodes), total, len(p.NearMisses))
		}
		for node, plugin := range pendingReference[p.Pod].plugins {
			if p.RejectedBy[plugin] == 0 {
				t.Errorf("%s: %s rejects %s, but rejectedBy has no %s: %v", p.Pod, plugin, node, plugin, p.RejectedBy)
			}
		}
	}
}
