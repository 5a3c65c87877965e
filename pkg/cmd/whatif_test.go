package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// notScheduled is the silent exit-1 error as run() records it.
const notScheduled = "error: some pods would not be scheduled\n"

// TestWhatIfWhy runs why -A with each edit over testdata/fixtures/whatif.yaml,
// whose header works out every outcome by hand.
func TestWhatIfWhy(t *testing.T) {
	f := fixture("whatif")
	podOnly := filepath.Join(t.TempDir(), "pod.yaml")
	if err := os.WriteFile(podOnly, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default, uid: p}\nspec: {containers: [{name: c, image: i}]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{[]string{"--add-node", "n2"},
			"POD             RESULT      NODE          MESSAGE\ndefault/job-a   scheduled   n2-whatif-1   <none>\n",
			"note: what-if: added 1 node like n2 (n2-whatif-1)\nnote: what-if: default/job-a was unschedulable, now scheduled on n2-whatif-1\n1 pod: 1 scheduled\n", 0},
		{[]string{"--evict", "web-1"},
			"POD                         RESULT      NODE   MESSAGE\ndefault/job-a               scheduled   n1     <none>\ndefault/web-1-replacement   scheduled   n1     <none>\n",
			"note: what-if: evicted default/web-1 recreated pending as default/web-1-replacement\n" +
				"note: what-if: default/job-a was unschedulable, now scheduled on n1\n" +
				"note: what-if: default/web-1-replacement was bound to n1, now scheduled on n1\n" +
				"note: each pod is judged alone, as if it were the next; placed one after another in queue order, 1 of the 2 pods scheduled here would stay Pending (default/web-1-replacement): 'simulate --pending' places them together\n" +
				"2 pods: 2 scheduled\n", 0},
		{[]string{"--remove-node", "n1"}, "",
			"note: what-if: removed node n1 (3 pods: 1 recreated pending, 1 DaemonSet pod gone with it, 1 gone for good (no controller): default/solo)\n" +
				"note: what-if: default/web-1-replacement was bound to n1, now unschedulable\n2 pods: 2 unschedulable\n" + notScheduled, 1},
		{[]string{"--cordon", "n1", "--cordon", "n2"}, "",
			"note: what-if: cordoned n1, n2\nnote: what-if: no pod's result changed against the cluster as it is\n1 pod: 1 unschedulable\n" + notScheduled, 1},
		{[]string{"--add-node", "n1", "--until-fits"},
			"POD             RESULT      NODE          MESSAGE\ndefault/job-a   scheduled   n1-whatif-1   <none>\n",
			"note: what-if: 1 node like n1 (n1-whatif-1) schedules every pending pod that fits one (copies tried: 0 (1 pending), 1 (fits))\n", 0},
		{[]string{"--add-node-file", fixture("whatif-node") + "=2"},
			"POD             RESULT      NODE           MESSAGE\ndefault/job-a   scheduled   big-whatif-1   <none>\n",
			"note: what-if: added 2 nodes like big of " + fixture("whatif-node") + " (big-whatif-1..2)\nnote: what-if: default/job-a was unschedulable, now scheduled on big-whatif-1\n1 pod: 1 scheduled\n", 0},
		{[]string{"--add-node-file", fixture("whatif-node"), "--until-fits"},
			"POD             RESULT      NODE           MESSAGE\ndefault/job-a   scheduled   big-whatif-1   <none>\n",
			"note: what-if: 1 node like big (big-whatif-1) schedules every pending pod that fits one (copies tried: 0 (1 pending), 1 (fits))\n", 0},
		{[]string{"--add-node-file", podOnly}, "", "error: --add-node-file " + podOnly + ": no Node in the file\n", 2},
		{[]string{"--cordon", "nope"}, "", "error: --cordon nope: no such node in the input\n", 2},
		{[]string{"--add-node", "n1=0"}, "", "error: --add-node \"n1=0\": COUNT must be a positive integer, got \"0\"\n", 2},
		{[]string{"--add-node", "n1=2", "--until-fits"}, "", "error: --until-fits finds the count itself: give --add-node TEMPLATE (or --add-node-file FILE) without =COUNT\n", 2},
		{[]string{"--until-fits"}, "", "error: --until-fits needs exactly one --add-node TEMPLATE or --add-node-file FILE\n", 2},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := run(t, "", append([]string{"why", "-A", "-f", f}, tc.args...)...)
			if r.code != tc.code || r.stderr != tc.stderr || (tc.stdout != "" && r.stdout != tc.stdout) {
				t.Errorf("exit %d (want %d)\n--- stdout\n%s--- stderr\n%s--- want stderr\n%s", r.code, tc.code, r.stdout, r.stderr, tc.stderr)
			}
		})
	}
}

// TestWhatIfJSON: the whatIf field of the reports.
func TestWhatIfJSON(t *testing.T) {
	f := fixture("whatif")
	r := run(t, "", "why", "-A", "-f", f, "--remove-node", "n1", "-o", "json")
	var rep v1alpha1.SchedulingReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err, r.stderr)
	}
	w := rep.WhatIf
	if w == nil || len(w.RemovedNodes) != 1 || len(w.RemovedNodes[0].Pods) != 3 || w.RemovedNodes[0].Pods[0].Replacement != "default/web-1-replacement" {
		t.Fatalf("whatIf %+v", w)
	}
	if len(w.Changed) != 1 || w.Changed[0] != (v1alpha1.ChangedPod{Pod: "default/web-1-replacement", Before: "bound", BeforeNode: "n1", After: "unschedulable"}) {
		t.Errorf("changed %+v", w.Changed)
	}
	r = run(t, "", "why", "-A", "-f", f, "--add-node", "n1", "--until-fits", "-o", "json")
	rep = v1alpha1.SchedulingReport{}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if u := rep.WhatIf.UntilFits; u == nil || u.Count != 1 || u.Template != "n1" || len(u.Trials) != 2 {
		t.Errorf("untilFits %+v", u)
	}
	// --pod-file's replicas are placed on the edited cluster, and say so.
	r = run(t, "", "why", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "--cordon", "n1", "-o", "json")
	rep = v1alpha1.SchedulingReport{}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err, r.stderr)
	}
	if rep.WhatIf == nil || len(rep.WhatIf.Cordoned) != 1 || rep.WhatIf.Cordoned[0] != "n1" || rep.Replicas == nil || rep.Replicas.Nodes["n1"] != 0 {
		t.Errorf("--pod-file with --cordon n1: whatIf %+v, replicas %+v", rep.WhatIf, rep.Replicas)
	}
	// Without edits there is no whatIf field at all.
	r = run(t, "", "why", "-A", "-f", f, "-o", "json")
	if strings.Contains(r.stdout, "whatIf") {
		t.Errorf("whatIf without edits:\n%s", r.stdout)
	}
}

// TestWhatIfOtherCommands: simulate --pending and requested --pod take the
// same edits; requested refuses them without a pod to fit.
func TestWhatIfOtherCommands(t *testing.T) {
	f := fixture("whatif")
	r := run(t, "", "simulate", "--pending", "-f", f, "--add-node", "n2", "-o", "json")
	var sim v1alpha1.Simulation
	if err := json.Unmarshal([]byte(r.stdout), &sim); err != nil {
		t.Fatal(err, r.stderr)
	}
	if len(sim.Pods) != 1 || sim.Pods[0].Node != "n2-whatif-1" || sim.WhatIf == nil || sim.WhatIf.AddedNodes[0].Names[0] != "n2-whatif-1" {
		t.Errorf("simulate: %+v %+v", sim.Pods, sim.WhatIf)
	}
	if !strings.Contains(r.stderr, "note: what-if: added 1 node like n2 (n2-whatif-1)\n") {
		t.Errorf("simulate stderr:\n%s", r.stderr)
	}
	// n1 without web-1 has 1700m free: job-a (1000m) fits it, and n2 not.
	r = run(t, "", "requested", "-f", f, "--pod", "job-a", "--evict", "web-1")
	if r.code != 0 || !strings.Contains(r.stdout, "\nn1 ") || !strings.Contains(r.stderr, "passes kube-scheduler's filters on 1 of 2 nodes") {
		t.Errorf("requested: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, "", "requested", "-f", f, "--cordon", "n1")
	if r.code != 2 || !strings.Contains(r.stderr, "need --pod or --pod-file") {
		t.Errorf("requested without --pod: exit %d %s", r.code, r.stderr)
	}
}

// TestUntilFitsPodFile (issue 37, 4d): --until-fits counts the template
// nodes a --pod-file's replicas need. By hand on fixtures/whatif.yaml, whose
// nodes have 200m free each, with testdata/pods/deployment.yaml (replicas of
// 1 cpu, NodeResourcesFit of v1.36: requested + request <= allocatable):
//   - n2 copies (2000m, no DaemonSet pod) take 2 replicas each: 3 replicas
//     need 2. n1 and n2 hold none (200m each), so fewer than ceil(3/2) = 2
//     copies cannot hold them (the bound): 2 is placed first and fits.
//   - n1 copies run their proxy (200m), 1800m free, 1 replica each: 3
//     copies; the bound is 3 (one replica per copy), placed once: fits.
//
// The same Deployment given with -f is a manifest, not part of the cluster:
// a note names it and points to --pod-file.
func TestUntilFitsPodFile(t *testing.T) {
	f, deploy := fixture("whatif"), "testdata/pods/deployment.yaml"
	for _, tc := range []struct {
		args   []string
		stdout string
		stderr string
		code   int
	}{
		{[]string{"--pod-file", deploy, "--replicas", "3", "--add-node", "n2", "--until-fits"},
			"POD                     RESULT      NODE          MESSAGE\nshop/api-7668c546c6-0   scheduled   n2-whatif-1   <none>\nshop/api-7668c546c6-1   scheduled   n2-whatif-2   <none>\nshop/api-7668c546c6-2   scheduled   n2-whatif-1   <none>\n",
			"note: what-if: 2 nodes like n2 (n2-whatif-1..2) schedule every replica of Deployment shop/api that fits one (copies tried: 0 (3 pending), 2 (fits); fewer than 2 cannot hold the pods' requests)\n", 0},
		{[]string{"--pod-file", deploy, "--replicas", "3", "--add-node", "n1", "--until-fits"}, "",
			"note: what-if: 3 nodes like n1 (n1-whatif-1..3) schedule every replica of Deployment shop/api that fits one (copies tried: 0 (3 pending), 3 (fits); fewer than 3 cannot hold the pods' requests)\n", 0},
		{[]string{"--pod-file", "testdata/pods/daemonset.yaml", "--add-node", "n2", "--until-fits"}, "",
			"error: --until-fits with --pod-file testdata/pods/daemonset.yaml: a DaemonSet runs one pod on every node, so no count of nodes is missing; give a Deployment, StatefulSet, Job or Pod\n", 2},
		{[]string{"-A", "-f", deploy, "--add-node", "n1", "--until-fits"}, "",
			"note: Deployment shop/api (testdata/pods/deployment.yaml document 1) is a manifest (no metadata.uid), not part of the cluster: --pod-file testdata/pods/deployment.yaml places its replicas\n" +
				"note: what-if: 1 node like n1 (n1-whatif-1) schedules every pending pod that fits one (copies tried: 0 (1 pending), 1 (fits))\n", 0},
		{[]string{"default/job-a", "--add-node", "n1", "--until-fits"}, "",
			"error: --until-fits works on the selected pending pods or on --pod-file's replicas: it cannot be used with POD arguments\n", 2},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := run(t, "", append([]string{"why", "-f", f}, tc.args...)...)
			if r.code != tc.code || r.stderr != tc.stderr || (tc.stdout != "" && r.stdout != tc.stdout) {
				t.Errorf("exit %d (want %d)\n--- stdout\n%s--- stderr\n%s--- want stderr\n%s", r.code, tc.code, r.stdout, r.stderr, tc.stderr)
			}
		})
	}
}

// TestUntilFitsNodesOptIn: with -o json, --until-fits keeps no result per
// node unless --show-nodes asks (why's rule for pods not named as
// arguments: per pod x per node is opt-in; --pod-file refuses
// --show-nodes), and then keeps every evaluated node, the copy added
// included; the placement is the same either way. On
// fixtures/whatif.yaml (2 nodes): the replicas need 2 copies of n2
// (TestUntilFitsPodFile), 4 nodes a cycle; the pending pod job-a one copy
// of n1, 3 nodes.
func TestUntilFitsNodesOptIn(t *testing.T) {
	f := fixture("whatif")
	decode := func(want int, args ...string) v1alpha1.SchedulingReport {
		t.Helper()
		r := run(t, "", append([]string{"why", "-f", f, "--until-fits", "-o", "json"}, args...)...)
		var rep v1alpha1.SchedulingReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 || len(rep.Pods) != want {
			t.Fatalf("%v: exit %d, %d pods, %v\n%s", args, r.code, len(rep.Pods), err, r.stderr)
		}
		return rep
	}
	for _, p := range decode(3, "--pod-file", "testdata/pods/deployment.yaml", "--replicas", "3", "--add-node", "n2").Pods {
		if len(p.Nodes) != 0 || p.EvaluatedNodes != 4 || p.Result != "scheduled" {
			t.Errorf("replica %s: %s, %d nodes kept, %d evaluated; want scheduled, 0 kept, 4 evaluated", p.Pod, p.Result, len(p.Nodes), p.EvaluatedNodes)
		}
	}
	counts, nodes := decode(1, "-A", "--add-node", "n1"), decode(1, "-A", "--add-node", "n1", "--show-nodes")
	p, q := counts.Pods[0], nodes.Pods[0]
	if len(p.Nodes) != 0 || p.EvaluatedNodes != 3 || p.Node == "" || p.Node != q.Node {
		t.Errorf("%s: %d nodes kept, %d evaluated, on %q (with --show-nodes on %q)", p.Pod, len(p.Nodes), p.EvaluatedNodes, p.Node, q.Node)
	}
	if len(q.Nodes) != 3 {
		t.Errorf("%s with --show-nodes: %d nodes kept, want 3", q.Pod, len(q.Nodes))
	}
}
