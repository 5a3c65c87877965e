package printers

import (
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// DrainTable is one row per pod of a DrainReport: POD, FROM (the drained
// node), RESULT, NODE (where the replacement is placed; for an
// unschedulable one, the node preemption would nominate, marked
// "(nominated)"), MESSAGE; with -o wide BUDGET (the PodDisruptionBudget
// involved) and REPLACEMENT (the replacement's name).
func DrainTable(r *v1alpha1.DrainReport) *Table {
	t := &Table{Columns: []Column{{Name: "POD"}, {Name: "FROM"}, {Name: "RESULT"},
		{Name: "NODE"}, {Name: "MESSAGE", Text: true},
		{Name: "BUDGET", Wide: true}, {Name: "REPLACEMENT", Wide: true}}}
	for i := range r.Pods {
		p := &r.Pods[i]
		node := text(orNone(p.Node))
		if p.Node == "" && p.Preemption != nil {
			node = text(p.Preemption.NominatedNode + " (nominated)")
			node.Text = yellow(node.Text)
		}
		t.Rows = append(t.Rows, []Cell{text(p.Pod), text(orNone(p.From)), drainResultCell(p.Result), node, text(orNone(p.Message)),
			text(orNone(p.Budget)), text(orNone(p.Replacement))})
		t.Items = append(t.Items, p)
	}
	t.Reorder = func(perm []int) { r.Pods = Permute(r.Pods, perm) }
	return t
}

func drainResultCell(result string) Cell {
	c := text(result)
	switch result {
	case "scheduled":
		c.Text = green(c.Text)
	case "unschedulable", "blocked", "not-recreated":
		c.Text = red(c.Text)
	}
	return c
}
