package printers

import (
	"fmt"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// DrainTable is one row per pod of a DrainReport, in the report's order:
// POD, FROM (the drained node), RESULT, NODE (where the replacement is
// placed; for an unschedulable one, the node preemption would nominate,
// marked "(nominated)"), MESSAGE; with -o wide BUDGET (the
// PodDisruptionBudget involved) and REPLACEMENT (the replacement's name).
// The pods a blocked node keeps only because other pods block its drain
// fold, in a table for reading, into one line per node after the rows,
// "node n1: 22 more pods not evicted: other pods block the drain" (on a
// blocked node of 110 pods, the 2 that block lead the table, not 108
// repeats); CSV, custom columns, --no-headers and JSON/YAML keep every pod.
func DrainTable(r *v1alpha1.DrainReport) *Table {
	t := &Table{Columns: []Column{{Name: "POD"}, {Name: "FROM"}, {Name: "RESULT"},
		{Name: "NODE"}, {Name: "MESSAGE", Text: true},
		{Name: "BUDGET", Wide: true}, {Name: "REPLACEMENT", Wide: true}},
		FoldLine: func(node string, n int) string {
			return fmt.Sprintf("node %s: %s not evicted: other pods block the drain", termtext.Line(node), termtext.Count(n, "more pod"))
		}}
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
		fold := ""
		if blockedByOthers(p) {
			fold = p.From
		}
		t.Folds = append(t.Folds, fold)
	}
	t.Reorder = func(perm []int) { r.Pods = Permute(r.Pods, perm) }
	return t
}

// blockedByOthers reports whether p is only kept on its node because
// other pods block the node's drain: whatif.Drain's message for it.
func blockedByOthers(p *v1alpha1.DrainPod) bool {
	return p.Result == "skipped" && p.From != "" && p.Message == "not evicted: other pods block the drain of node "+p.From
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
