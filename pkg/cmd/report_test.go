package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReport writes the example cluster's page to stdout (not a terminal)
// and to -o FILE: one grid cell per NodeInfo (12 nodes and a placeholder),
// one row per pending pod (4), the note the loader prints in the header
// as on stderr; exit 0 although every pending pod is unschedulable (a
// view, not a question).
func TestReport(t *testing.T) {
	example := filepath.Join("..", "..", "examples", "cluster.yaml")
	r := run(t, "", "report", "-f", example)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	note := "note: skipped 3 terminal pods (Succeeded/Failed), as the scheduler does"
	if r.stderr != note+"\n" {
		t.Errorf("stderr %q, want the loader's note alone", r.stderr)
	}
	checkPage(t, r.stdout)
	if !strings.Contains(r.stdout, "<li>"+note+"</li>") {
		t.Errorf("the header does not repeat the note")
	}

	out := filepath.Join(t.TempDir(), "report.html")
	r = run(t, "", "report", "-f", example, "-o", out)
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("-o: exit %d, stdout %d bytes, stderr:\n%s", r.code, len(r.stdout), r.stderr)
	}
	if !strings.Contains(r.stderr, "wrote "+out+" (") || !strings.HasSuffix(r.stderr, "): 13 nodes, 4 pending pods\n") {
		t.Errorf("-o: stderr %q, want where the page went", r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, string(b))
}

func checkPage(t *testing.T, page string) {
	t.Helper()
	if !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Fatalf("not an HTML page: %.60q", page)
	}
	if n := strings.Count(page, `<div class="c `); n != 13 {
		t.Errorf("%d grid cells, want 13", n)
	}
	if n := strings.Count(page, `<td class="unschedulable">`); n != 4 {
		t.Errorf("%d unschedulable pending rows, want 4", n)
	}
}

// TestReportUsage: no arguments, no -n (the page is cluster-wide).
func TestReportUsage(t *testing.T) {
	for _, args := range [][]string{{"report", "x"}, {"report", "-n", "default"}} {
		if r := run(t, "", args...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, r.code, ExitUsage, r.stderr)
		}
	}
}
