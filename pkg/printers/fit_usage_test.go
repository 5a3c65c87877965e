package printers

import (
	"strings"
	"testing"
)

// usageTable is a dump-like table: NAME, ZONE and two usage columns.
func usageTable() *Table {
	tb := &Table{Columns: []Column{{Name: "NAME"}, {Name: "ZONE"}, usageColumn("cpu"), usageColumn("memory")}}
	tb.Rows = [][]Cell{
		{text("a"), text("us-east-1/us-east-1b"), usageCell("cpu", 45100, 47810), usageCell("memory", 168<<30, 181<<30)},
		{text("b"), text("us-east-1/us-east-1c"), usageCell("cpu", 400, 1930), usageCell("memory", 818<<20, 7<<30)},
	}
	tb.After = []string{"2 nodes"}
	return tb
}

// TestFitUsageColumns: a usage cell breaks before its percentage, the
// whole column at once, the column that saves most first: the table is
// 4+20+19+17 columns and 3 gaps of 3, 69; CPU to 13 ("45100m/47810m")
// saves 6 (63 fits 66), MEMORY to 11 ("168Gi/181Gi") 6 more (57 fits
// 60); at 55 nothing else wraps and each row is a block; piped and with
// -o wide, rows stay whole.
func TestFitUsageColumns(t *testing.T) {
	oneLine := "NAME   ZONE                   CPU                   MEMORY\n" +
		"a      us-east-1/us-east-1b   45100m/47810m (94%)   168Gi/181Gi (92%)\n" +
		"b      us-east-1/us-east-1c   400m/1930m (20%)      818Mi/7Gi (11%)\n" +
		"2 nodes\n"
	if got := render(t, usageTable(), TableOptions{}); got != oneLine {
		t.Fatalf("piped: got\n%s\nwant\n%s", got, oneLine)
	}
	want66 := "NAME   ZONE                   CPU             MEMORY\n" +
		"a      us-east-1/us-east-1b   45100m/47810m   168Gi/181Gi (92%)\n" +
		"                              (94%)\n" +
		"b      us-east-1/us-east-1c   400m/1930m      818Mi/7Gi (11%)\n" +
		"                              (20%)\n" +
		"2 nodes\n"
	if got := render(t, usageTable(), TableOptions{MaxWidth: 66}); got != want66 {
		t.Errorf("width 66: got\n%s\nwant\n%s", got, want66)
	}
	want60 := "NAME   ZONE                   CPU             MEMORY\n" +
		"a      us-east-1/us-east-1b   45100m/47810m   168Gi/181Gi\n" +
		"                              (94%)           (92%)\n" +
		"b      us-east-1/us-east-1c   400m/1930m      818Mi/7Gi\n" +
		"                              (20%)           (11%)\n" +
		"2 nodes\n"
	if got := render(t, usageTable(), TableOptions{MaxWidth: 60}); got != want60 {
		t.Errorf("width 60: got\n%s\nwant\n%s", got, want60)
	}
	got := render(t, usageTable(), TableOptions{MaxWidth: 55})
	if !strings.HasPrefix(got, "NAME:    a\nZONE:    us-east-1/us-east-1b\nCPU:     45100m/47810m (94%)\nMEMORY:  168Gi/181Gi (92%)\n\n") {
		t.Errorf("width 55: want blocks, got\n%s", got)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 55 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	if got := render(t, usageTable(), TableOptions{MaxWidth: 55, Wide: true}); strings.Count(got, "\n") != 4 {
		t.Errorf("-o wide is never fitted:\n%s", got)
	}
}
