package cmd

import (
	"strings"
	"testing"
)

// Input errors a user can act on (#30 item 10).

// TestStdinOnce: stdin given to two flags is refused before anything is
// read, naming both; one reader of stdin is fine.
func TestStdinOnce(t *testing.T) {
	noKubeconfig(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"why", "-f", "-", "--pod-file", "-"}, "stdin (-) is given to -f and --pod-file: it can be read only once"},
		{[]string{"requested", "-f", "-", "--pod-file", "-"}, "stdin (-) is given to -f and --pod-file"},
		{[]string{"simulate", "-f", "-", "--pod-file", "-"}, "stdin (-) is given to -f and --pod-file"},
		{[]string{"simulate", "-f", replicasFixture, "--pod-file", "-", "--script", "-"}, "stdin (-) is given to --pod-file and --script"},
		{[]string{"drain", "n1", "-f", "-", "--add-node-file", "-=2"}, "stdin (-) is given to -f and --add-node-file"},
	} {
		r := run(t, "", tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: shop}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: api, image: api}]}\n"
	if r := run(t, deploy, "why", "-f", replicasFixture, "--pod-file", "-"); r.code != 0 {
		t.Errorf("--pod-file - alone: exit %d, %s", r.code, r.stderr)
	}
}

// TestDumpNodeArgument: dump NODE suggests --node NODE (exit 2).
func TestDumpNodeArgument(t *testing.T) {
	r := run(t, "", "dump", "legacy", "plain", "-f", edgeCluster)
	want := `error: unexpected argument "legacy" for "kubectl schedcache dump"; did you mean --node legacy --node plain? see 'kubectl schedcache dump --help'` + "\n"
	if r.code != ExitUsage || r.stderr != want {
		t.Errorf("exit %d, %q\nwant exit 2, %q", r.code, r.stderr, want)
	}
}

// TestCompareNoNodeInCommon: a log from another cluster (node-a, node-b,
// gone) against the example (12 other nodes) says so in one line instead
// of listing every node as a difference; exit 3 as for any difference.
func TestCompareNoNodeInCommon(t *testing.T) {
	noKubeconfig(t)
	log := "../../internal/schedlog/testdata/captured-v1.36.3.log"
	r := run(t, "", "compare", "--log", log, "-f", example)
	want := "the kube-scheduler log (" + log + ") and the cluster have no node in common: the log's 3 nodes (gone, node-a, node-b), the cluster's 12 nodes (gpu-b-1, hugepages-c-1, infra-a-1, …)"
	if r.code != ExitDiffer || r.stdout != "" || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 3, no stdout, %q", r.code, r.stdout, r.stderr, want)
	}
	// The structured output still has every difference.
	if r := run(t, "", "compare", "--log", log, "-f", example, "-o", "json"); r.code != ExitDiffer || !strings.Contains(r.stdout, `"kind": "CacheComparison"`) {
		t.Errorf("-o json: exit %d\n%s", r.code, r.stderr)
	}
}

// TestInputNotObjects: -f given this tool's own output, a kubectl get
// table or an HTML page says what it is (exit 2, bad input, in every command).
func TestInputNotObjects(t *testing.T) {
	noKubeconfig(t)
	dump := run(t, "", "dump", "-f", edgeCluster, "-o", "yaml").stdout
	for _, tc := range []struct{ name, stdin, want string }{
		{"own dump", dump, "error: stdin: this tool's own CacheDump output (schedcache.kubectl.io/v1alpha1), not cluster objects: compare saved dumps or snapshots with 'kubectl schedcache diff'"},
		{"table", "NAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   0          5d\n", "error: stdin: looks like a table printed by kubectl get, not YAML or JSON: use kubectl get -o yaml"},
		{"html", "<!DOCTYPE html>\n<html><body>Not Found</body></html>\n", "error: stdin: an HTML page, not YAML or JSON"},
	} {
		r := run(t, tc.stdin, "why", "-A", "-f", "-")
		if r.code != ExitUsage || !strings.HasPrefix(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, %q; want one line starting %q", tc.name, r.code, r.stderr, tc.want)
		}
		if r := run(t, tc.stdin, "dump", "-f", "-"); r.code != ExitUsage || !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("dump, %s: exit %d, %q", tc.name, r.code, r.stderr)
		}
	}
}
