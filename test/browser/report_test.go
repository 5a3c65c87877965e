//go:build browser

package browser

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
)

// page is what the tests read back from the DOM.
type page struct {
	Cells, PendingRows, TableRows, Zones int
	Bars                                 []string // "Plugin: N nodes", the bars' titles
	PendingCount                         int      // the header's count of pending pods
}

const pageJS = `({
	cells: document.querySelectorAll("#grid .c").length,
	pendingRows: document.querySelectorAll("#pending-table tbody tr").length,
	tableRows: document.querySelectorAll("#requested-table tbody tr").length,
	zones: document.querySelectorAll("#grid .zone").length,
	bars: Array.from(document.querySelectorAll("#rejections .bar title"), t => t.textContent),
	pendingCount: parseInt(Array.from(document.querySelectorAll("#counts li")).find(li => li.textContent.match(/pending pods?$/)).querySelector("b").textContent),
})`

func readPage(tb testing.TB, b *browser) page {
	tb.Helper()
	var p page
	b.eval(tb, pageJS, &p)
	return p
}

// cellColour is the computed background colour of the grid cell whose
// first line of title is node.
func cellColour(tb testing.TB, b *browser, node string) string {
	var c string
	b.eval(tb, `getComputedStyle(Array.from(document.querySelectorAll("#grid .c")).find(e => e.title.split("\n")[0] === `+jsString(node)+`)).backgroundColor`, &c)
	return c
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestReportExample opens the report of examples/cluster.yaml: 12 nodes in
// three zones and a placeholder, four unschedulable pending pods. The
// chart's numbers are the nodes each plugin rejected, read off the four
// FailedScheduling messages of `why -A` (the first failing filter per node:
// NodeUnschedulable, then TaintToleration, NodeAffinity, NodeResourcesFit):
// trino 1+2+9, llama 1+1+10, pdf-renderer 1+2+9 (NodeAffinity), fraud-scorer
// 1+2+9.
func TestReportExample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "example.html")
	writeReport(t, out, "-f", filepath.Join("examples", "cluster.yaml"))
	b := newBrowser(t)
	b.open(t, out)
	got := readPage(t, b)
	want := page{Cells: 13, PendingRows: 4, TableRows: 13, Zones: 4, PendingCount: 4,
		Bars: []string{"NodeResourcesFit: 28 nodes", "NodeAffinity: 9 nodes", "TaintToleration: 7 nodes", "NodeUnschedulable: 4 nodes"}}
	if !equalPages(got, want) {
		t.Errorf("page = %+v, want %+v", got, want)
	}

	// The selector recolours the grid: worker-b-1 requests 104% of its cpu
	// (overcommitted: purple) and 31% of its memory (the fourth green).
	if c := cellColour(t, b, "worker-b-1"); c != "rgb(106, 27, 154)" {
		t.Errorf("worker-b-1 by cpu: background %s, want rgb(106, 27, 154)", c)
	}
	b.click(t, `label[for="res1"]`)
	if c := cellColour(t, b, "worker-b-1"); c != "rgb(161, 217, 155)" {
		t.Errorf("worker-b-1 by memory: background %s, want rgb(161, 217, 155)", c)
	}
	b.click(t, `label[for="res0"]`)

	// Sorting by cpu: the lowest ratio first, then the highest (the
	// placeholder's 200m against nothing allocatable).
	first := func() string {
		var s string
		b.eval(t, `document.querySelector("#requested-table tbody tr td").textContent`, &s)
		return s
	}
	b.click(t, `#requested-table th:nth-child(3)`)
	if f := first(); f != "legacy-c-1" {
		t.Errorf("sorted by cpu, ascending: first row %q, want legacy-c-1 (400m/1930m)", f)
	}
	b.click(t, `#requested-table th:nth-child(3)`)
	if f := first(); f != "node-gone-1" {
		t.Errorf("sorted by cpu, descending: first row %q, want node-gone-1", f)
	}
	b.click(t, `#requested-table th:nth-child(1)`)

	b.clean(t)
	b.screenshot(t, filepath.Join(shotsDir(t), "example.png"), true)
	if readme := os.Getenv("SCHEDCACHE_README_SHOT"); readme != "" {
		b.resize(t, 1100, 1000)
		var top int
		b.eval(t, `window.scrollTo(0, 0), 0`, &top)
		b.screenshot(t, readme, false)
	}
}

func equalPages(a, b page) bool {
	return a.Cells == b.Cells && a.PendingRows == b.PendingRows && a.TableRows == b.TableRows && a.Zones == b.Zones &&
		a.PendingCount == b.PendingCount && slices.Equal(a.Bars, b.Bars)
}

// TestReport5kNodes opens the report of a generated 5,000-node cluster
// (gencluster, seed 1, 3 zones; 15,000 pods keep the test short, the
// node count is what the page's size depends on): a cell and a table row
// per node, a row per pending pod, bars in the chart.
func TestReport5kNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "cluster.json")
	cfg := gencluster.Default()
	cfg.Nodes, cfg.Pods = 5000, 15000
	if err := gencluster.WriteFile(in, cfg); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report.html")
	took := writeReport(t, out, "-f", in)
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	painted := b.open(t, out)
	shown := b.showAll(t)
	t.Logf("5,000 nodes / 15,000 pods: report written in %v (%d kB); Chromium painted its top %v after navigating, every part %v",
		took.Round(time.Millisecond), fi.Size()/1000, painted.Round(time.Millisecond), shown.Round(time.Millisecond))
	got := readPage(t, b)
	if got.Cells != 5000 || got.TableRows != 5000 || got.Zones != 3 {
		t.Errorf("cells %d, table rows %d, zones %d; want 5000, 5000, 3", got.Cells, got.TableRows, got.Zones)
	}
	if got.PendingCount == 0 || got.PendingRows != got.PendingCount {
		t.Errorf("pending rows %d, header count %d: want one row per pending pod, some pending", got.PendingRows, got.PendingCount)
	}
	if len(got.Bars) == 0 {
		t.Errorf("no bar in the rejections chart")
	}
	b.clean(t)
	b.screenshot(t, filepath.Join(shotsDir(t), "5000-nodes.png"), false)
}

var reportFile = flag.String("report", "", "BenchmarkRender: the report to open")

// BenchmarkRender times Chromium loading, laying out and painting the
// report given with -report (make bench-report: 5,000 nodes / 150,000
// pods), in the same tab each time, from the start of the navigation as
// the page measures it: painted-ms to the first paint of the top of the
// page, all-shown-ms until every section and both tables (laid out only
// when scrolled near, CSS content-visibility) were scrolled through and
// painted.
func BenchmarkRender(b *testing.B) {
	if *reportFile == "" {
		b.Skip("no -report FILE")
	}
	br := newBrowser(b)
	var painted, shown time.Duration
	for b.Loop() {
		painted += br.open(b, *reportFile)
		shown += br.showAll(b)
	}
	br.clean(b)
	b.ReportMetric(float64(painted.Milliseconds())/float64(b.N), "painted-ms/op")
	b.ReportMetric(float64(shown.Milliseconds())/float64(b.N), "all-shown-ms/op")
}
