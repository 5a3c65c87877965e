package printers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// ConfigComparisonTable is one row per configuration: CONFIG (the file's
// base name), PODS, PLACED, PENDING, ON NODES (the distinct nodes the
// placed pods ended on: their packing), NODES USED (used/schedulable, the
// pods already there included), and per resource (CPU, MEMORY, PODS USED)
// the utilisation over the schedulable nodes as "mean 41.2% sd 12.0% max
// 80.0%"; in CSV each resource is three fields, the ratios (0.4120) of
// mean, standard deviation and maximum. With -o wide: EXIT, the plain
// command's exit code under it, and FILE.
func ConfigComparisonTable(c *v1alpha1.ConfigComparison) *Table {
	t := &Table{Columns: []Column{{Name: "CONFIG"},
		{Name: "PODS", Numeric: true}, {Name: "PLACED", Numeric: true}, {Name: "PENDING", Numeric: true},
		{Name: "ON NODES", Numeric: true, CSV: []string{"ON_NODES"}},
		{Name: "NODES USED", Numeric: true, CSV: []string{"NODES_USED", "SCHEDULABLE_NODES"}}}}
	for _, r := range []string{"CPU", "MEMORY", "PODS USED"} {
		f := strings.ReplaceAll(r, " ", "_")
		t.Columns = append(t.Columns, Column{Name: r, CSV: []string{f + "_MEAN", f + "_SD", f + "_MAX"}})
	}
	t.Columns = append(t.Columns, Column{Name: "EXIT", Wide: true, Numeric: true}, Column{Name: "FILE", Wide: true})
	for i := range c.Configs {
		o := &c.Configs[i]
		row := []Cell{text(o.Config), count(int64(o.Pods)), count(int64(o.Placed)), count(int64(o.Pending)),
			count(int64(o.PlacedNodes)),
			{Text: fmt.Sprintf("%d/%d", o.NodesUsed, o.SchedulableNodes), Sort: float64(o.NodesUsed),
				CSV: []string{strconv.Itoa(o.NodesUsed), strconv.Itoa(o.SchedulableNodes)}}}
		for _, name := range []string{"cpu", "memory", "pods"} {
			row = append(row, utilisationCell(o.Utilisation, name))
		}
		row = append(row, count(int64(o.ExitCode)), text(o.File))
		t.Rows = append(t.Rows, row)
		t.Items = append(t.Items, o)
	}
	return t
}

// utilisationCell shows one resource's statistics, <none> when no node
// has any of it allocatable.
func utilisationCell(us []v1alpha1.ResourceUtilisation, resource string) Cell {
	for _, u := range us {
		if u.Resource != resource || u.Nodes == 0 {
			continue
		}
		return Cell{Text: fmt.Sprintf("mean %.1f%% sd %.1f%% max %.1f%%", 100*u.Mean, 100*u.StdDev, 100*u.Max),
			CSV: []string{ratio(u.Mean), ratio(u.StdDev), ratio(u.Max)}}
	}
	return Cell{Text: "<none>", CSV: []string{"", "", ""}}
}

func ratio(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) }
