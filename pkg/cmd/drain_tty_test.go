//go:build linux

package cmd

import (
	"strings"
	"testing"
)

// TestDrainLeadsWithBlockers: on terminals of 120 and 80 columns, drain
// worker-a-1 of the example (two DaemonSet pods block it, five others are
// kept only because of them) shows the two blockers and one line for the
// five; -o json keeps all seven pods.
func TestDrainLeadsWithBlockers(t *testing.T) {
	noKubeconfig(t)
	args := []string{"drain", "-f", example, "worker-a-1"}
	for _, width := range []int{120, 80} {
		r := runOnTerminal(t, uint16(width), args...)
		if r.code != 1 {
			t.Errorf("at %d: exit %d, want 1 (not safe)", width, r.code)
		}
		if n := strings.Count(r.stdout, "blocked"); n != 2 {
			t.Errorf("at %d: %d blocked pods shown, want 2:\n%s", width, n, r.stdout)
		}
		if n := strings.Count(r.stdout, "other pods block"); n != 1 || !strings.HasSuffix(r.stdout, "\nnode worker-a-1: 5 more pods not evicted: other pods block the drain\n") {
			t.Errorf("at %d: want the five folded into the last line:\n%s", width, r.stdout)
		}
		for _, l := range strings.Split(r.stdout, "\n") {
			if len([]rune(l)) > width {
				t.Errorf("at %d: line of %d columns: %q", width, len([]rune(l)), l)
			}
		}
	}
	if j := run(t, "", append(args, "-o", "json")...); strings.Count(j.stdout, `"pod":`) != 7 || strings.Count(j.stdout, "other pods block the drain of node worker-a-1") != 5 {
		t.Errorf("-o json: want all 7 pods, the 5 kept by the others among them:\n%s", j.stdout)
	}
}
