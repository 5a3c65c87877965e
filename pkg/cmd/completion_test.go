package cmd

import (
	"strings"
	"testing"
)

// TestCompletion drives cobra's hidden __complete command, which the
// kubectl_complete-schedcache shim calls.
func TestCompletion(t *testing.T) {
	edge := "testdata/clusters/edge.yaml"
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", ""}, []string{"dump", "next-nodes", "requested", "snapshot", "version"}},
		{[]string{"__complete", "dump", "-f", edge, "--node", ""}, []string{"legacy", "plain"}},
		{[]string{"__complete", "dump", "-f", edge, "--node", "p"}, []string{"plain"}},
		{[]string{"__complete", "requested", "-f", edge, "--pod", "apps/"}, []string{"apps/gpu", "apps/sidecar", "apps/waiting"}},
	}
	for _, tc := range tests {
		r := run(t, "", tc.args...)
		for _, w := range tc.want {
			if !strings.Contains(r.stdout, w+"\n") && !strings.Contains(r.stdout, w+"\t") {
				t.Errorf("%v: completion lacks %q:\n%s", tc.args, w, r.stdout)
			}
		}
	}
	r := run(t, "", "__complete", "dump", "-f", edge, "--node", "p")
	if strings.Contains(r.stdout, "legacy") {
		t.Errorf("prefix not applied:\n%s", r.stdout)
	}
}
