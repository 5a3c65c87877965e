package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountsAgreeAtOne: where a count is 1 the noun (and verb) are
// singular (termtext.Count, termtext.Agree). testdata/fixtures/whatif.yaml
// has 2 nodes and 1 pending pod, default/big: drain's note on the pods
// pending before it, report's "wrote" line and its chart's caption.
func TestCountsAgreeAtOne(t *testing.T) {
	noKubeconfig(t)
	r := run(t, "", "drain", "-f", fixture("whatif"), "-l", "x notin (y)")
	if !strings.Contains(r.stderr, "note: 1 pod was Pending before the drain:") {
		t.Errorf("drain: no singular note on the pending pod:\n%s", r.stderr)
	}
	out := filepath.Join(t.TempDir(), "r.html")
	r = run(t, "", "report", "-f", fixture("whatif"), "-o", out)
	if !strings.Contains(r.stderr, "): 2 nodes, 1 pending pod\n") {
		t.Errorf("report: %s", r.stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "summed over the 1 unschedulable pod</h3>") {
		t.Errorf("report: the chart's caption does not say \"1 unschedulable pod\"")
	}
}
