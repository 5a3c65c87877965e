package printers

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintSchedulingSummary renders a SchedulingReport table (see
// SchedulingTable), arranged by opts.
func PrintSchedulingSummary(w io.Writer, r *v1alpha1.SchedulingReport, opts TableOptions) error {
	t := SchedulingTable(r)
	if err := t.Arrange(opts); err != nil {
		return err
	}
	return t.Render(w, opts)
}

// SchedulingTable is one row per pod: POD, RESULT, NODE (the chosen node,
// or the node preemption would nominate, marked "(nominated)"), MESSAGE;
// with -o wide (when the table is asked for) PROFILE, FEASIBLE (feasible of
// evaluated nodes) and VICTIMS (the pods preemption would evict).
func SchedulingTable(r *v1alpha1.SchedulingReport) *Table {
	t := &Table{Columns: []Column{{Name: "POD"}, {Name: "RESULT"}, {Name: "NODE"}, {Name: "MESSAGE", Text: true},
		{Name: "PROFILE", Wide: true}, {Name: "FEASIBLE", Wide: true, Numeric: true, CSV: []string{"FEASIBLE", "EVALUATED"}},
		{Name: "VICTIMS", Wide: true, Text: true}}}
	for i := range r.Pods {
		p := &r.Pods[i]
		node := text(decisionNode(p))
		if p.Node == "" && p.Preemption != nil {
			node.Text = yellow(node.Text)
		}
		feasible := Cell{Text: fmt.Sprintf("%d/%d", p.FeasibleNodes, p.EvaluatedNodes), Sort: float64(p.FeasibleNodes),
			CSV: []string{fmt.Sprintf("%d", p.FeasibleNodes), fmt.Sprintf("%d", p.EvaluatedNodes)}}
		victims := "<none>"
		if p.Preemption != nil {
			victims = victimsText(p.Preemption)
		}
		t.Rows = append(t.Rows, []Cell{text(p.Pod), resultCell(p.Result), node, text(orNone(p.Message)),
			text(orNone(p.Profile)), feasible, text(victims)})
		t.Items = append(t.Items, p)
	}
	t.Reorder = func(perm []int) { r.Pods = Permute(r.Pods, perm) }
	return t
}

// PrintSchedulingDetails renders each pod as a block: the decision, then
// every evaluated node with its score per Score plugin or the Filter plugin
// that rejected it, feasible nodes first by total score.
func PrintSchedulingDetails(w io.Writer, r *v1alpha1.SchedulingReport, opts TableOptions) error {
	for i := range r.Pods {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if err := printPodDecision(w, &r.Pods[i], opts); err != nil {
			return err
		}
	}
	return nil
}

func printPodDecision(w io.Writer, p *v1alpha1.PodDecision, opts TableOptions) error {
	fields := [][2]string{
		{"Pod:", p.Pod},
		{"Profile:", orNone(p.Profile)},
		{"Result:", p.Result},
		{"Node:", decisionNode(p)},
		{"Message:", orNone(p.Message)},
		{"Preemption:", preemptionCell(p.Preemption)},
	}
	if p.NominatedNodeName != "" {
		fields = append(fields, [2]string{"Nominated:", p.NominatedNodeName + " (status.nominatedNodeName, tried first)"})
	}
	fields = append(fields, recordedFields(p.ClusterScheduler)...)
	for _, f := range fields {
		if _, err := fmt.Fprintf(w, "%-12s%s\n", f[0], termtext.Text(f[1])); err != nil {
			return err
		}
	}
	if err := printNearMisses(w, p.NearMisses); err != nil {
		return err
	}
	if len(p.Nodes) == 0 {
		return nil
	}
	title := fmt.Sprintf("Nodes (%d evaluated of %d, %d feasible):", p.EvaluatedNodes, p.NumAllNodes, p.FeasibleNodes)
	return section(w, title, nodeDecisionTable(p), opts)
}

// nodeDecisionTable: NODE, SCORE, one column per Score plugin, FILTER.
func nodeDecisionTable(p *v1alpha1.PodDecision) *Table {
	header := []string{"NODE", "SCORE"}
	for _, pl := range p.ScorePlugins {
		header = append(header, scoreColumn(pl))
	}
	t := newTable(append(header, "FILTER")...)
	for _, n := range sortedNodeDecisions(p.Nodes) {
		row := []string{n.Name, "-"}
		if n.Score != nil {
			row[1] = strconv.FormatInt(*n.Score, 10)
		}
		for _, pl := range p.ScorePlugins {
			cell := "-"
			if v, ok := n.Scores[pl]; ok {
				cell = strconv.FormatInt(v, 10)
			}
			row = append(row, cell)
		}
		cells := make([]Cell, 0, len(row)+1)
		for _, c := range row {
			cells = append(cells, text(c))
		}
		filter := text(n.Filter)
		if n.Filter != "Success" {
			filter.Text = red(filter.Text)
		}
		t.Rows = append(t.Rows, append(cells, filter))
	}
	return t
}

// sortedNodeDecisions: feasible nodes by score, highest first, then the
// rejected ones; each group keeps the cycle's evaluation order for ties.
func sortedNodeDecisions(nodes []v1alpha1.NodeDecision) []v1alpha1.NodeDecision {
	out := append([]v1alpha1.NodeDecision(nil), nodes...)
	rank := func(n *v1alpha1.NodeDecision) (bool, int64) {
		if n.Filter != "Success" {
			return false, 0
		}
		if n.Score == nil {
			return true, 0
		}
		return true, *n.Score
	}
	sort.SliceStable(out, func(i, j int) bool {
		fi, si := rank(&out[i])
		fj, sj := rank(&out[j])
		if fi != fj {
			return fi
		}
		return si > sj
	})
	return out
}

// scoreColumns abbreviates the in-tree Score plugins for column headers.
var scoreColumns = map[string]string{
	"TaintToleration":                 "TAINT",
	"NodeAffinity":                    "NODE-AFFINITY",
	"NodeResourcesFit":                "FIT",
	"VolumeBinding":                   "VOLUME",
	"PodTopologySpread":               "SPREAD",
	"InterPodAffinity":                "POD-AFFINITY",
	"DynamicResources":                "DRA",
	"NodeResourcesBalancedAllocation": "BALANCED",
	"ImageLocality":                   "IMAGE",
}

func scoreColumn(plugin string) string {
	if c, ok := scoreColumns[plugin]; ok {
		return c
	}
	return strings.ToUpper(plugin)
}

func decisionNode(p *v1alpha1.PodDecision) string {
	switch {
	case p.Node != "":
		return p.Node
	case p.Preemption != nil:
		return p.Preemption.NominatedNode + " (nominated)"
	}
	return "<none>"
}

func preemptionCell(p *v1alpha1.PreemptionDecision) string {
	if p == nil {
		return "<none>"
	}
	return fmt.Sprintf("nominate %s, evict %s", p.NominatedNode, victimsText(p))
}

// victimsText lists the victims the scheduler deletes, then those already
// terminating (which it counts but does not delete again).
func victimsText(p *v1alpha1.PreemptionDecision) string {
	s := listOrNone(p.Victims)
	if len(p.TerminatingVictims) > 0 {
		s += " (already terminating: " + listOrNone(p.TerminatingVictims) + ")"
	}
	return s
}

// resultCell colours a pod's result by the scheme.
func resultCell(result string) Cell {
	c := text(result)
	switch result {
	case "scheduled":
		c.Text = green(c.Text)
	case "unschedulable", "gated":
		c.Text = red(c.Text)
	}
	return c
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
