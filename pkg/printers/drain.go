package printers

import (
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// DrainTable is one row per pod of a DrainReport, in the report's order:
// POD, FROM (the drained node), RESULT, NODE (where the replacement is
// placed; for an unschedulable one, the node preemption would nominate,
// marked "(nominated)"), MESSAGE; with -o wide BUDGET (the
// PodDisruptionBudget involved) and REPLACEMENT (the replacement's name).
// The pods a node keeps only because of other pods (notEvicted) fold, in a
// table for reading, into one line per node and reason after the rows,
// "node n1: 22 more pods not evicted: other pods block the drain" (on a
// blocked node of 110 pods, the 2 that block lead the table, not 108
// repeats); CSV, custom columns, --no-headers and JSON/YAML keep every pod.
func DrainTable(r *v1alpha1.DrainReport) *Table {
	t := &Table{Columns: []Column{{Name: "POD"}, {Name: "FROM"}, {Name: "RESULT"},
		{Name: "NODE"}, {Name: "MESSAGE", Text: true},
		{Name: "BUDGET", Wide: true}, {Name: "REPLACEMENT", Wide: true}},
		FoldLine: func(key string, n int) string {
			node, why, _ := strings.Cut(key, "\n")
			return fmt.Sprintf("node %s: %s %s%s", termtext.Line(node), termtext.Count(n, "more pod"), notEvicted, termtext.Line(why))
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
		t.Folds = append(t.Folds, foldKey(p))
	}
	t.Reorder = func(perm []int) { r.Pods = Permute(r.Pods, perm) }
	return t
}

// notEvicted starts the message of a pod a node keeps, without blocking
// anything itself, because of other pods: whatif.Drain's "not evicted:
// other pods block the drain of node n1" (kubectl evicts nothing from a
// node with a blocking pod) or "not evicted: kubectl drain waits for ever
// on node n1, …" (on the nodes after one a budget holds).
const notEvicted = "not evicted: "

// foldKey is the line a pod kept only because of others folds into, its
// node and the reason, "" for a pod with something of its own to say.
func foldKey(p *v1alpha1.DrainPod) string {
	why, ok := strings.CutPrefix(p.Message, notEvicted)
	if p.Result != "skipped" || p.From == "" || !ok {
		return ""
	}
	return p.From + "\n" + strings.TrimSuffix(why, " of node "+p.From)
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
