package printers

import (
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// ScaleDownTable is one row per node of a ScaleDownReport: NODE, GROUP,
// UTILIZATION (the share that counts and its resource, e.g. "25% cpu"),
// RESULT and DETAIL: for a removable node where each moved pod lands
// ("shop/web-1 → n2"), for a blocked one "POD: RULE (why)", for one
// whose pod finds no place "POD: FailedScheduling message", otherwise
// why it is no candidate or was not examined. With -o wide CPU and MEMORY
// (their requested shares of allocatable).
func ScaleDownTable(r *v1alpha1.ScaleDownReport) *Table {
	t := &Table{Columns: []Column{{Name: "NODE"}, {Name: "GROUP"}, {Name: "UTILIZATION", Numeric: true},
		{Name: "RESULT"}, {Name: "DETAIL", Text: true},
		{Name: "CPU", Wide: true, Numeric: true}, {Name: "MEMORY", Wide: true, Numeric: true}}}
	for i := range r.Nodes {
		n := &r.Nodes[i]
		util := Cell{Text: share(n.Utilization) + " " + n.UtilizationResource, Sort: n.Utilization}
		t.Rows = append(t.Rows, []Cell{text(n.Node), text(orNone(n.Group)), util, scaleDownResultCell(n.Result), text(scaleDownDetail(n)),
			{Text: share(n.CPU), Sort: n.CPU}, {Text: share(n.Memory), Sort: n.Memory}})
		t.Items = append(t.Items, n)
		t.Keys = append(t.Keys, n.Node)
	}
	t.Reorder = func(perm []int) { r.Nodes = Permute(r.Nodes, perm) }
	return t
}

// share renders 0.375 as "37.5%", 0.25 as "25%".
func share(f float64) string {
	s := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.1f", f*100), "0"), ".")
	return s + "%"
}

func scaleDownDetail(n *v1alpha1.ScaleDownNode) string {
	switch n.Result {
	case "removable":
		if len(n.Moves) == 0 {
			return "nothing to move"
		}
		moves := make([]string, len(n.Moves))
		for i, m := range n.Moves {
			moves[i] = m.Pod + " → " + m.Node
		}
		return strings.Join(moves, ", ")
	case "blocked":
		return fmt.Sprintf("%s: %s (%s)", n.Pod, n.Rule, n.Message)
	case "no-place":
		return n.Pod + ": " + n.Message
	}
	return orNone(n.Message)
}

func scaleDownResultCell(result string) Cell {
	c := text(result)
	switch result {
	case "removable":
		c.Text = green(c.Text)
	case "blocked", "no-place":
		c.Text = red(c.Text)
	case "not-examined", "min-size-reached":
		c.Text = yellow(c.Text)
	}
	return c
}
