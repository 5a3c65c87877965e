package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

const replicasFixture = "testdata/fixtures/replicas.yaml"

// TestWhyReplicas checks --pod-file against the hand computation in the
// fixture's header.
func TestWhyReplicas(t *testing.T) {
	r := run(t, "", "why", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "-o", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (not every replica fits): %s", r.code, r.stderr)
	}
	var rep v1alpha1.SchedulingReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rep.Pods {
		got = append(got, p.Result+":"+p.Node)
	}
	want := []string{"scheduled:n1", "scheduled:n2", "scheduled:n1", "scheduled:n2", "unschedulable:"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replicas (-want +got):\n%s", diff)
	}
	s := rep.Replicas
	if s == nil || s.Workload != "Deployment shop/api" || s.Requested != 5 || s.Fit != 4 || !cmp.Equal(s.Nodes, map[string]int{"n1": 2, "n2": 2}) ||
		!strings.HasPrefix(s.FirstUnfit, "shop/api-") || !strings.HasSuffix(s.FirstUnfit, "-4") {
		t.Errorf("summary %+v", s)
	}
	msg := "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. no new claims to deallocate, " +
		"preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
	if last := rep.Pods[len(rep.Pods)-1]; last.Message != msg {
		t.Errorf("replica 4: %q\nwant %q", last.Message, msg)
	}
	if !strings.Contains(r.stderr, "Deployment shop/api: 4 of 5 replicas fit (n1: 2, n2: 2)") {
		t.Errorf("stderr lacks the summary:\n%s", r.stderr)
	}

	// --replicas 2: both fit (exit 0).
	r = run(t, "", "why", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "--replicas", "2")
	if r.code != 0 || !strings.Contains(r.stderr, "2 of 2 replicas fit (n1: 1, n2: 1)") {
		t.Errorf("--replicas 2: exit %d\n%s", r.code, r.stderr)
	}

	// A DaemonSet: one pod per node, tolerating the cordon.
	r = run(t, "", "why", "-f", replicasFixture, "--pod-file", "testdata/pods/daemonset.yaml")
	if r.code != 0 || !strings.Contains(r.stderr, "DaemonSet monitoring/agent: runs on 3 of 3 nodes (cordoned: 1, n1: 1, n2: 1)") {
		t.Errorf("daemonset: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// Bad --pod-file and --replicas uses are usage errors.
func TestWhyReplicasErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--replicas", "3"}, "--replicas needs --pod-file"},
		{[]string{"--pod-file", "testdata/pods/deployment.yaml", "-A"}, "--pod-file cannot be used with POD arguments or -A"},
		{[]string{"--pod-file", replicasFixture}, "want exactly one non-terminal Pod or workload"},
	} {
		r := run(t, "", append([]string{"why", "-f", replicasFixture}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// requested --pod-file and simulate --pod-file take workloads too: one
// replica's fit, and the replicas as the pods to simulate.
func TestWorkloadPodFiles(t *testing.T) {
	r := run(t, "", "requested", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "-o", "json")
	if r.code != 0 || !strings.Contains(r.stderr, "passes kube-scheduler's filters on 2 of 3 nodes") {
		t.Errorf("requested --pod-file deployment: exit %d\n%s", r.code, r.stderr)
	}
	r = run(t, "", "simulate", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "--replicas", "3", "-o", "json")
	if r.code != 0 {
		t.Fatalf("simulate: exit %d\n%s", r.code, r.stderr)
	}
	var sim v1alpha1.Simulation
	if err := json.Unmarshal([]byte(r.stdout), &sim); err != nil {
		t.Fatal(err)
	}
	var nodes []string
	for _, p := range sim.Pods {
		nodes = append(nodes, p.State+"@"+p.Node)
	}
	if want := []string{"Added@n1", "Added@n2", "Added@n1"}; !cmp.Equal(want, nodes) {
		t.Errorf("simulated replicas %v, want %v", nodes, want)
	}
}
