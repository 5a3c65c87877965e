package printers

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

func render(t *testing.T, tb *Table, opts TableOptions) string {
	t.Helper()
	var out strings.Builder
	if err := tb.Render(&out, opts); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestTableEscapesAndColours(t *testing.T) {
	tb := newTable("NAME", "VALUE")
	tb.add("evil\x1b[2Jname", red("90%"))
	if got, want := render(t, tb, TableOptions{Color: true}), "NAME            VALUE\nevil^[[2Jname   \x1b[31m90%\x1b[0m\n"; got != want {
		t.Errorf("colour: got %q\nwant %q", got, want)
	}
	if got, want := render(t, tb, TableOptions{}), "NAME            VALUE\nevil^[[2Jname   90%\n"; got != want {
		t.Errorf("no colour: got %q\nwant %q", got, want)
	}
}

// TestColourKeepsAlignment: column widths ignore ANSI sequences.
func TestColourKeepsAlignment(t *testing.T) {
	tb := newTable("A", "B", "C")
	tb.add("a", red("90%"), "x")
	tb.add("b", "100000%", "y")
	plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(render(t, tb, TableOptions{Color: true}), "")
	if want := "A   B         C\na   90%       x\nb   100000%   y\n"; plain != want {
		t.Errorf("without colour codes got %q, want %q", plain, want)
	}
}

// TestColourScheme pins the usage thresholds: yellow from 75%, red from
// 90%, red when requested where nothing is allocatable.
func TestColourScheme(t *testing.T) {
	for _, tc := range []struct {
		req, alloc int64
		want       string
	}{
		{74, 100, "x"}, {75, 100, yellow("x")}, {89, 100, yellow("x")}, {90, 100, red("x")}, {104, 100, red("x")},
		{1, 0, red("x")}, {0, 0, "x"},
	} {
		if got := usageColor("x", tc.req, tc.alloc); got != tc.want {
			t.Errorf("%d/%d: got %q, want %q", tc.req, tc.alloc, got, tc.want)
		}
	}
	if got := quantityCell("cpu", -250).Text; got != red("-250m") {
		t.Errorf("negative free: %q", got)
	}
}

// sample is a table with a default, a wide, a hidden and a numeric
// column, a footer and summary lines, whose rows are in reverse name order.
func sample() (*Table, *[]string) {
	names := []string{"c", "b", "a"}
	t := &Table{
		Columns: []Column{{Name: "NAME"}, {Name: "N", Numeric: true}, {Name: "EXTRA", Wide: true},
			{Name: "SECRET", Hidden: true}, {Name: "POS", Numeric: true, Ascending: true}},
		Before: []string{"before"}, After: []string{"after"},
	}
	for i, n := range names {
		t.Rows = append(t.Rows, []Cell{text(n), count(int64(len(n) * (i % 2))), text("x" + n), text("s" + n), count(int64(i + 1))})
		t.Items = append(t.Items, n)
	}
	t.Footer = [][]Cell{{text("TOTAL"), count(1), text(""), text(""), text("")}}
	t.Reorder = func(perm []int) { names = Permute(names, perm) }
	return t, &names
}

func TestArrange(t *testing.T) {
	tests := []struct {
		name string
		opts TableOptions
		want string
	}{
		{"default", TableOptions{}, "before\nNAME    N   POS\nc       0   1\nb       1   2\na       0   3\nTOTAL   1\nafter\n"},
		{"wide", TableOptions{Wide: true, NoHeaders: true}, "c   0   xc   1\nb   1   xb   2\na   0   xa   3\n"},
		{"columns pick hidden ones, in order, any case", TableOptions{Columns: []string{"secret", "Name"}, NoHeaders: true}, "sc   c\nsb   b\nsa   a\n"},
		{"text sorts A to Z", TableOptions{SortBy: "name", Columns: []string{"name"}, NoHeaders: true}, "a\nb\nc\n"},
		{"numbers largest first, ties keep order", TableOptions{SortBy: "N", Columns: []string{"name"}, NoHeaders: true}, "b\nc\na\n"},
		{"reverse numbers", TableOptions{SortBy: "n", Reverse: true, Columns: []string{"name"}, NoHeaders: true}, "c\na\nb\n"},
		{"positions first to last", TableOptions{SortBy: "pos", Columns: []string{"name"}, NoHeaders: true}, "c\nb\na\n"},
		{"reverse alone reverses the view", TableOptions{Reverse: true, Columns: []string{"name"}, NoHeaders: true}, "a\nb\nc\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb, _ := sample()
			if err := tb.Arrange(tc.opts); err != nil {
				t.Fatal(err)
			}
			if got := render(t, tb, tc.opts); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestArrangeReorders: sorting reorders the items and the printed object's
// list (through Reorder) with the rows.
func TestArrangeReorders(t *testing.T) {
	tb, names := sample()
	if err := tb.Arrange(TableOptions{SortBy: "NAME"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(*names, ","); got != "a,b,c" {
		t.Errorf("Reorder: %s", got)
	}
	if tb.Items[0] != "a" || tb.Items[2] != "c" {
		t.Errorf("items %v", tb.Items)
	}
}

func TestArrangeUnknownColumns(t *testing.T) {
	for _, opts := range []TableOptions{{Columns: []string{"name", "bogus"}}, {SortBy: "bogus"}} {
		tb, _ := sample()
		err := tb.Arrange(opts)
		if err == nil || !strings.Contains(err.Error(), `unknown column "bogus"`) ||
			!strings.HasSuffix(err.Error(), "valid columns are NAME, N, EXTRA, SECRET, POS") {
			t.Errorf("%+v: %v", opts, err)
		}
	}
}

// TestFitWraps: on a terminal narrower than the table, free text wraps
// within its column at spaces, names are never cut, colour stays on each
// line; without a width (pipes), with -o wide or --no-headers nothing
// changes.
func TestFitWraps(t *testing.T) {
	tb := &Table{Columns: []Column{{Name: "NAME"}, {Name: "CPU"}, {Name: "MESSAGE", Text: true}}}
	tb.Rows = [][]Cell{
		{text("a-rather-long-node-name-01"), text("100m/4 (2%)"), {Text: red("0/3 nodes are available: 3 Insufficient cpu.")}},
		{text("short"), text("4/4 (100%)"), text("ok")},
	}
	oneLine := "NAME                         CPU           MESSAGE\n" +
		"a-rather-long-node-name-01   100m/4 (2%)   0/3 nodes are available: 3 Insufficient cpu.\n" +
		"short                        4/4 (100%)    ok\n"
	for _, opts := range []TableOptions{{}, {MaxWidth: 60, Wide: true}, {MaxWidth: 200}} {
		if got := render(t, tb, opts); got != oneLine {
			t.Errorf("%+v: got\n%s\nwant\n%s", opts, got, oneLine)
		}
	}
	got := render(t, tb, TableOptions{MaxWidth: 70})
	want := "NAME                         CPU           MESSAGE\n" +
		"a-rather-long-node-name-01   100m/4 (2%)   0/3 nodes are available: 3\n" +
		"                                           Insufficient cpu.\n" +
		"short                        4/4 (100%)    ok\n"
	if got != want {
		t.Errorf("width 70: got\n%s\nwant\n%s", got, want)
	}
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		if n := len([]rune(l)); n > 70 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	coloured := render(t, tb, TableOptions{MaxWidth: 70, Color: true})
	if !strings.Contains(coloured, "\x1b[31m0/3 nodes are available: 3\x1b[0m") || !strings.Contains(coloured, "\x1b[31mInsufficient cpu.\x1b[0m") {
		t.Errorf("each wrapped line keeps its colour:\n%q", coloured)
	}
}

// TestFitBlocks: when wrapping the free text is not enough, each row is a
// block of "HEADER: value" lines; names stay whole.
func TestFitBlocks(t *testing.T) {
	tb := &Table{Columns: []Column{{Name: "POD"}, {Name: "NODE"}, {Name: "MESSAGE", Text: true}}}
	tb.Rows = [][]Cell{
		{text("team-a/checkout-557ddd9bd7-0"), text("worker-with-a-long-name-1"), text("0/12 nodes are available: 1 Too many pods.")},
		{text("b/x"), text("-"), text("")},
	}
	tb.After = []string{"2 pods"}
	got := render(t, tb, TableOptions{MaxWidth: 40})
	want := "POD:      team-a/checkout-557ddd9bd7-0\n" +
		"NODE:     worker-with-a-long-name-1\n" +
		"MESSAGE:  0/12 nodes are available: 1\n" +
		"          Too many pods.\n" +
		"\n" +
		"POD:      b/x\n" +
		"NODE:     -\n" +
		"\n" +
		"2 pods\n"
	if got != want {
		t.Errorf("width 40: got\n%s\nwant\n%s", got, want)
	}
	// Without free text (a node table of quantities) rows stay whole on
	// their line: blocks would only make them longer.
	tb.Columns[2].Text = false
	if got, piped := render(t, tb, TableOptions{MaxWidth: 40}), render(t, tb, TableOptions{}); got != piped {
		t.Errorf("no free text, width 40: got\n%s\nwant\n%s", got, piped)
	}
}

// TestRenderCSV: exact fields, one CSV column per part, quoting, no colour,
// footer or summary lines.
func TestRenderCSV(t *testing.T) {
	tb := &Table{Columns: []Column{{Name: "NAME"}, usageColumn("cpu"), quantityColumn("MEMORY-FREE", "memory"), {Name: "NOTE"}},
		After: []string{"summary"}, Footer: [][]Cell{{text("TOTAL")}}}
	tb.Rows = [][]Cell{
		{text("n1"), usageCell("cpu", 3700, 4000), quantityCell("memory", 1536<<20), text("a, \"b\"")},
		{text("n2"), usageCell("cpu", 0, 0), dash(), text("<none>")},
	}
	var out strings.Builder
	if err := tb.RenderCSV(&out, TableOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	want := "NAME,CPU-REQUESTED(millicores),CPU-ALLOCATABLE(millicores),CPU%,MEMORY-FREE(bytes),NOTE\n" +
		"n1,3700,4000,92,1610612736,\"a, \"\"b\"\"\"\n" +
		"n2,0,0,,,\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func requestedSample() *v1alpha1.RequestedReport {
	res := func(cpu, mem int64, gpu int64) v1alpha1.Resource {
		r := v1alpha1.Resource{MilliCPU: cpu, Memory: mem, AllowedPodNumber: 110}
		if gpu > 0 {
			r.ScalarResources = map[string]int64{"nvidia.com/gpu": gpu}
		}
		return r
	}
	req := func(cpu, mem int64, gpu int64) v1alpha1.Resource {
		r := res(cpu, mem, gpu)
		r.AllowedPodNumber = 0
		return r
	}
	return &v1alpha1.RequestedReport{
		Resources: []string{"cpu", "memory", "ephemeral-storage", "pods", "hugepages-2Mi", "nvidia.com/gpu"},
		Nodes: []v1alpha1.NodeRequested{
			{Name: "a", Pods: 2, Requested: req(1000, 1<<30, 1), Allocatable: res(4000, 8<<30, 2)},
			{Name: "b", Pods: 1, Requested: req(3900, 1<<30, 0), Allocatable: res(4000, 2<<30, 0)},
			{Name: "gone", Placeholder: true, Pods: 1, Requested: req(100, 0, 0)},
		},
		Total: v1alpha1.NodeRequested{Name: "TOTAL", Pods: 4, Requested: req(5000, 2<<30, 1), Allocatable: res(8000, 10<<30, 2)},
	}
}

// TestRequestedTable: cpu, memory, pods and extended resources by default;
// --resources chooses, an unknown one lists the valid ones; placeholders
// keep a one-word NAME and are named after the table.
func TestRequestedTable(t *testing.T) {
	r := requestedSample()
	tb, err := RequestedTable(r, TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Arrange(TableOptions{SortBy: "cpu%"}); err != nil {
		t.Fatal(err)
	}
	got := render(t, tb, TableOptions{})
	if r.Nodes[0].Name != "b" || r.Nodes[2].Name != "gone" {
		t.Errorf("report not reordered: %s, %s, %s", r.Nodes[0].Name, r.Nodes[1].Name, r.Nodes[2].Name)
	}
	// Checked by hand: b is 97% of cpu, a 25%, gone has nothing
	// allocatable; TOTAL is the footer; ephemeral-storage and hugepages
	// wait for -o wide.
	want := "NAME    CPU             MEMORY           PODS         NVIDIA.COM/GPU\n" +
		"b       3900m/4 (97%)   1Gi/2Gi (50%)    1/110 (0%)   -\n" +
		"a       1/4 (25%)       1Gi/8Gi (12%)    2/110 (1%)   1/2 (50%)\n" +
		"gone    100m/0 (-)      -                1/0 (-)      -\n" +
		"TOTAL   5/8 (62%)       2Gi/10Gi (20%)   4/110 (3%)   1/2 (50%)\n" +
		"placeholder (pods bound to a node that does not exist): gone\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	tb, err = RequestedTable(requestedSample(), TableOptions{Resources: []string{"nvidia.com/gpu", "CPU"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Arrange(TableOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tb.ColumnNames(), " "); got != "NAME NVIDIA.COM/GPU NVIDIA.COM/GPU-FREE CPU CPU-FREE NON-ZERO-CPU NON-ZERO-MEMORY" {
		t.Errorf("--resources nvidia.com/gpu,CPU -o wide: columns %s", got)
	}
	_, err = RequestedTable(requestedSample(), TableOptions{Resources: []string{"gpu"}})
	if err == nil || err.Error() != `unknown resource "gpu" in --resources: valid resources are cpu, memory, ephemeral-storage, pods, hugepages-2Mi, nvidia.com/gpu` {
		t.Errorf("unknown resource: %v", err)
	}
}

// BenchmarkRequestedTable builds, sorts (cpu%) and renders the requested
// table of 5,000 nodes, as "requested --sort-by cpu%" does at scale.
func BenchmarkRequestedTable(b *testing.B) {
	r := &v1alpha1.RequestedReport{Resources: []string{"cpu", "memory", "ephemeral-storage", "pods", "nvidia.com/gpu"}}
	for i := range 5000 {
		r.Nodes = append(r.Nodes, v1alpha1.NodeRequested{
			Name: fmt.Sprintf("node-%05d", i), Pods: i % 110,
			Requested:   v1alpha1.Resource{MilliCPU: int64(i*37) % 16000, Memory: int64(i) << 24},
			Allocatable: v1alpha1.Resource{MilliCPU: 16000, Memory: 64 << 30, AllowedPodNumber: 110, ScalarResources: map[string]int64{"nvidia.com/gpu": 8}},
		})
	}
	opts := TableOptions{SortBy: "cpu%"}
	b.ReportAllocs()
	for b.Loop() {
		rr := *r
		t, err := RequestedTable(&rr, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := t.Arrange(opts); err != nil {
			b.Fatal(err)
		}
		if err := t.Render(io.Discard, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRequestedTableMarksOverflow: a resource whose numbers wrapped on a
// node is marked in its cell, the wrapped numbers kept.
func TestRequestedTableMarksOverflow(t *testing.T) {
	r := requestedSample()
	r.Nodes[0].Overflow = []string{"memory"}
	r.Total.Overflow = []string{"memory"}
	tb, err := RequestedTable(r, TableOptions{Resources: []string{"cpu", "memory"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Arrange(TableOptions{}); err != nil {
		t.Fatal(err)
	}
	got := render(t, tb, TableOptions{})
	want := "NAME    CPU             MEMORY\n" +
		"a       1/4 (25%)       1Gi/8Gi (12%) overflow\n" +
		"b       3900m/4 (97%)   1Gi/2Gi (50%)\n" +
		"gone    100m/0 (-)      -\n" +
		"TOTAL   5/8 (62%)       2Gi/10Gi (20%) overflow\n" +
		"placeholder (pods bound to a node that does not exist): gone\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestWrapWords: lines break at spaces and after list commas; a piece
// wider than the column continues on the next line, nothing dropped.
func TestWrapWords(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  []string
	}{
		{"a b c", 3, []string{"a b", "c"}},
		{"ns/a,ns/b,ns/c", 10, []string{"ns/a,ns/b,", "ns/c"}},
		{"pod 5a000000-0000-0003(x) is", 10, []string{"pod", "5a000000-0", "000-0003(x", ") is"}},
	} {
		if got := wrapWords(tc.s, tc.width); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
