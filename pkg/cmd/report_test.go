package cmd

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReport writes the example cluster's page to stdout (not a terminal)
// and to -o FILE: one grid cell per NodeInfo (12 nodes and a placeholder),
// one row per pending pod (4), the notes and warnings of stderr in the
// header; exit 0 although every pending pod is unschedulable (a view, not
// a question).
func TestReport(t *testing.T) {
	example := filepath.Join("..", "..", "examples", "cluster.yaml")
	r := run(t, "", "report", "-f", example)
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	checkPage(t, r.stdout)
	note := "note: skipped 3 terminal pods (Succeeded/Failed), as the scheduler does"
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

// TestReportSaysWhatWhySays: the report of the example says, on stderr
// and in its header, every note, warning and hint "why -A" says of the
// same input, in the same order: the loader's note, the version chosen
// from the kubelets, and the warning that ml/llama-finetune-worker-0's
// recorded verdict (its PodScheduled condition) differs, with the hint
// that the input may be partial (issue 37, 4b: the page showed the pod
// unschedulable with no warning).
func TestReportSaysWhatWhySays(t *testing.T) {
	example := filepath.Join("..", "..", "examples", "cluster.yaml")
	why := run(t, "", "why", "-A", "-f", example)
	rep := run(t, "", "report", "-f", example)
	if rep.code != 0 {
		t.Fatalf("report: exit %d, stderr:\n%s", rep.code, rep.stderr)
	}
	var said []string
	for _, line := range strings.Split(why.stderr, "\n") {
		if strings.HasPrefix(line, "note: ") || strings.HasPrefix(line, "warning: ") || strings.HasPrefix(line, "hint: ") {
			said = append(said, line)
		}
	}
	if len(said) != 4 || !strings.Contains(said[2], "warning: pod ml/llama-finetune-worker-0: decided unschedulable with another message; the cluster's scheduler said") {
		t.Fatalf("why -A said %d lines, want the 4 of the fixture:\n%s", len(said), why.stderr)
	}
	if want := strings.Join(said, "\n") + "\n"; rep.stderr != want {
		t.Errorf("report's stderr:\n%s\nwant why -A's notes:\n%s", rep.stderr, want)
	}
	for _, line := range said {
		if !strings.Contains(rep.stdout, "<li>"+html.EscapeString(line)+"</li>") {
			t.Errorf("the page's header lacks %q", line)
		}
	}
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

// TestReportUsage: no arguments (-n is accepted and filters nothing: the
// page is cluster-wide).
func TestReportUsage(t *testing.T) {
	for _, args := range [][]string{{"report", "x"}} {
		if r := run(t, "", args...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, r.code, ExitUsage, r.stderr)
		}
	}
}

// TestReportWhatIf: with --add-node worker-c-2 the page shows the edited
// cluster (14 cells: the copy too) after a section naming the edit and the
// one pending pod it changes: shop/fraud-scorer (3 cpu) fits only the
// empty copy (worker-c-2 itself has 2670m free), as why --add-node says.
// Without edits the section is absent (TestReport's page has none).
func TestReportWhatIf(t *testing.T) {
	example := filepath.Join("..", "..", "examples", "cluster.yaml")
	r := run(t, "", "report", "-f", example, "--add-node", "worker-c-2")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		`<h2>What if: added 1 node like worker-c-2 (worker-c-2-whatif-1)</h2>`,
		`<tr><td>shop/fraud-scorer-6c7d8b9f5-p5lzn</td><td>unschedulable</td><td>scheduled on worker-c-2-whatif-1</td></tr>`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(r.stdout, `<div class="c `); n != 14 {
		t.Errorf("%d grid cells, want 14 (the copy included)", n)
	}
	if !strings.Contains(r.stderr, "note: what-if: shop/fraud-scorer-6c7d8b9f5-p5lzn was unschedulable, now scheduled on worker-c-2-whatif-1\n") {
		t.Errorf("stderr lacks the change:\n%s", r.stderr)
	}
	if r = run(t, "", "report", "-f", example); strings.Contains(r.stdout, `id="whatif"`) {
		t.Errorf("a what-if section without edits")
	}
}
