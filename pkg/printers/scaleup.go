package printers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// ScaleUpTable is one row per node group of a ScaleUpReport: NODE GROUP,
// TEMPLATE (the node the new nodes copy), NODES (how many new nodes),
// CPU/MEMORY WASTE (least-waste's shares, "25%/50%") and RESULT: "fits"
// (with "chosen by least-waste" or "tie" for the expander's pick), or
// why the group cannot take the pods: the filter that rejects them on a
// new node even alone, "needs N, only M allowed", too few nodes, or no
// new node needed. With -o wide SIZE (its nodes now), MAX (its maximum
// size) and PODS (those landing on the new nodes).
func ScaleUpTable(r *v1alpha1.ScaleUpReport) *Table {
	t := &Table{Columns: []Column{{Name: "NODE GROUP"}, {Name: "TEMPLATE"}, {Name: "NODES", Numeric: true},
		{Name: "CPU/MEMORY WASTE"}, {Name: "RESULT", Text: true},
		{Name: "SIZE", Wide: true, Numeric: true}, {Name: "MAX", Wide: true, Numeric: true}, {Name: "PODS", Wide: true, Numeric: true}}}
	for i := range r.Groups {
		g := &r.Groups[i]
		nodes := Cell{Text: "<none>"}
		if g.Result == "fits" || g.Result == "over-max" {
			nodes = count(int64(g.Nodes))
		}
		waste := text("<none>")
		if g.CPUWaste != nil && g.MemoryWaste != nil {
			waste = text(share(*g.CPUWaste) + "/" + share(*g.MemoryWaste))
		}
		maxSize := Cell{Text: "<none>"}
		if g.MaxSize != nil {
			maxSize = count(int64(*g.MaxSize))
		}
		t.Rows = append(t.Rows, []Cell{text(g.Group), text(g.Template), nodes, waste, scaleUpResultCell(r, g),
			count(int64(g.Size)), maxSize, count(int64(g.PodsOnNewNodes))})
		t.Items = append(t.Items, g)
		t.Keys = append(t.Keys, g.Group)
	}
	t.Reorder = func(perm []int) { r.Groups = Permute(r.Groups, perm) }
	return t
}

func scaleUpResultCell(r *v1alpha1.ScaleUpReport, g *v1alpha1.ScaleUpGroup) Cell {
	c := text(scaleUpResult(r, g))
	switch {
	case slices.Contains(r.Chosen, g.Group):
		c.Text = green(c.Text)
	case g.Result == "fits" || g.Result == "not-needed":
	default:
		c.Text = red(c.Text)
	}
	return c
}

// scaleUpResult is the RESULT cell's text.
func scaleUpResult(r *v1alpha1.ScaleUpReport, g *v1alpha1.ScaleUpGroup) string {
	var s string
	switch g.Result {
	case "fits":
		s = "fits"
		switch {
		case len(r.Chosen) == 1 && r.Chosen[0] == g.Group:
			s += ", chosen by least-waste"
		case slices.Contains(r.Chosen, g.Group):
			s += ", least-waste tie"
		}
	case "not-needed":
		return "not needed: the pods are scheduled as the cluster is"
	case "ruled-out":
		return "ruled out: " + neverFitText(g.NeverFit[0])
	case "too-few":
		return fmt.Sprintf("too few: even %s leave %s pending", termtext.Count(lastTried(g), "new node"), termtext.Count(len(g.StillPending), "pod"))
	case "over-max":
		s = fmt.Sprintf("needs %d, only %d allowed (max size %d)", g.Nodes, *g.Allowed, *g.MaxSize)
	default:
		return g.Result
	}
	if n := len(g.NeverFit); n > 0 {
		s += fmt.Sprintf("; %s never %s: %s", termtext.Count(n, "pod"), termtext.Agree(n, "fits", "fit"), neverFitText(g.NeverFit[0]))
	}
	return s
}

// lastTried is the largest count of new nodes placed.
func lastTried(g *v1alpha1.ScaleUpGroup) int {
	most := 0
	for _, t := range g.Trials {
		most = max(most, t.Count)
	}
	return most
}

func neverFitText(n v1alpha1.NeverFit) string {
	return n.Plugin + ": " + strings.Join(n.Reasons, ", ")
}
