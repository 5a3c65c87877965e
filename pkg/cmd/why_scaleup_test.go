package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The choice of scaleup.yaml (its header works the figures out by hand):
// pool-a, 2 nodes, 43.75% cpu and 81.25% memory wasted, against pool-b's
// 43.75% and 90.625%.
func TestScaleUpChoice(t *testing.T) {
	r := run(t, "", "why", "-A", "--scale-up", "-f", fixture("scaleup"))
	want := "least-waste would grow pool-a (2 nodes: 43.8% cpu and 81.2% memory wasted), the least of 2 groups that fit\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want 0 and %q", r.code, r.stderr, want)
	}
}

// A pod of 16 cpu fits no new node of any group (the largest has 8):
// every group ruled out by NodeResourcesFit, exit 1. A replica of a
// workload from --pod-file goes through the same search.
func TestScaleUpNoGroup(t *testing.T) {
	file := filepath.Join(t.TempDir(), "big.yaml")
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: shop}\nspec:\n  containers: [{name: a, image: a, resources: {requests: {cpu: \"16\"}}}]\n"
	if err := os.WriteFile(file, []byte(pod), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "why", "--scale-up", "-f", fixture("scaleup"), "--pod-file", file)
	if r.code != 1 || !strings.Contains(r.stderr, "no node group can take the pods (6 groups)\n") {
		t.Errorf("exit %d, stderr %q; want 1 and no group", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, "ruled out: NodeResourcesFit: Insufficient cpu"); n != 5 {
		t.Errorf("%d groups ruled out for cpu, want 5 (pool-t by its taint first):\n%s", n, r.stdout)
	}
}

func TestScaleUpUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"why", "--scale-up", "-f", fixture("scaleup"), "-n", "shop", "api-1"}, "cannot be used with POD arguments"},
		{[]string{"why", "--scale-up", "-f", fixture("scaleup"), "--until-fits", "--add-node", "a-1"}, "--scale-up and --until-fits cannot be used together"},
		{[]string{"why", "--scale-up", "-f", fixture("scaleup"), "--pod-file", "testdata/pods/daemonset.yaml"}, "a DaemonSet runs one pod on every node"},
	} {
		r := run(t, "", tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, ExitUsage, tc.want)
		}
	}
}
