package cmd

import (
	"strings"
	"testing"
)

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
