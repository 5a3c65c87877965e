package printers

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintRequested renders a RequestedReport table (see RequestedTable),
// arranged by opts.
func PrintRequested(w io.Writer, r *v1alpha1.RequestedReport, opts TableOptions) error {
	t, err := RequestedTable(r, opts)
	if err != nil {
		return err
	}
	if err := t.Arrange(opts); err != nil {
		return err
	}
	return t.Render(w, opts)
}

// defaultRequested are the resources "requested" shows without -o wide
// or --resources: cpu, memory, pods and extended resources.
func defaultRequested(res string) bool {
	return res == "cpu" || res == "memory" || res == "pods" || isExtended(res)
}

// RequestedTable is the RequestedReport's table: NAME; per resource a
// "requested/allocatable (pct%)" column (cpu, memory, pods and extended
// resources by default; every resource with -o wide; those of
// opts.Resources), a FREE column (wide), a percentage column (on
// request) and, when the report has limits (--limits), a
// "limits/allocatable (pct%)" column RES-LIMITS (not for pods); NON-ZERO-CPU and NON-ZERO-MEMORY (wide); FITS when a pod was
// checked; a TOTAL footer row and a line naming the placeholders.
func RequestedTable(r *v1alpha1.RequestedReport, opts TableOptions) (*Table, error) {
	shown, order, err := resourceColumns(r.Resources, opts.Resources, defaultRequested)
	if err != nil {
		return nil, err
	}
	limits := nodesHaveLimits(r)
	t := &Table{Columns: []Column{{Name: "NAME"}}}
	for _, name := range order {
		wide, hidden := resourceVisibility(shown, name, len(opts.Resources) > 0)
		use, free := usageColumn(name), quantityColumn(strings.ToUpper(name)+"-FREE", name)
		use.Wide, use.Hidden = wide, hidden
		free.Wide, free.Hidden = !hidden, hidden
		t.Columns = append(t.Columns, use, percentColumn(name), free)
		if limits && name != "pods" {
			lim := limitsUsageColumn(name)
			lim.Wide, lim.Hidden = wide, hidden
			t.Columns = append(t.Columns, lim)
		}
	}
	t.Columns = append(t.Columns, Column{Name: "NON-ZERO-CPU", Wide: true, Numeric: true, CSV: []string{"NON-ZERO-CPU" + csvUnit("cpu")}},
		Column{Name: "NON-ZERO-MEMORY", Wide: true, Numeric: true, CSV: []string{"NON-ZERO-MEMORY" + csvUnit("memory")}})
	if r.Pod != nil {
		t.Columns = append(t.Columns, Column{Name: "FITS", Text: true})
	}
	var placeholders, ghosts []string
	for i := range r.Nodes {
		n := &r.Nodes[i]
		t.Rows = append(t.Rows, requestedRow(n, r, order, limits, Quantity))
		t.Items = append(t.Items, n)
		t.Keys = append(t.Keys, n.Name)
		switch {
		case n.Placeholder:
			placeholders = append(placeholders, n.Name)
		case n.Ghost:
			ghosts = append(ghosts, n.Name)
		}
	}
	// Sums over the nodes: cpu in cores (72335m reads better as 72.335).
	t.Footer = [][]Cell{requestedRow(&r.Total, r, order, limits, TotalQuantity)}
	// The NAME cell stays one word (for awk); these lines say which rows
	// have no node object.
	if len(placeholders) > 0 {
		t.After = append(t.After, "placeholder (pods bound to a node that does not exist): "+escape(strings.Join(placeholders, ", ")))
	}
	if len(ghosts) > 0 {
		t.After = append(t.After, "ghost (a removed node that still holds pods): "+escape(strings.Join(ghosts, ", ")))
	}
	t.Reorder = func(perm []int) { r.Nodes = Permute(r.Nodes, perm) }
	return t, nil
}

// requestedRow is one node's row, or the TOTAL row, its quantities
// rendered by q.
func requestedRow(n *v1alpha1.NodeRequested, r *v1alpha1.RequestedReport, resources []string, limits bool, q func(string, int64) string) []Cell {
	name := text(n.Name)
	if n.Placeholder || n.Ghost {
		name.Text = yellow(name.Text)
	}
	row := []Cell{name}
	for _, res := range resources {
		req, alloc := n.Amounts(res)
		free := quantityCellIn(res, alloc-req, q)
		if n.Placeholder || req == 0 && alloc == 0 && res != "pods" {
			free = dash()
		}
		row = append(row, markOverflow(usageCellIn(res, req, alloc, q), res, n.Overflow), percentCell(req, alloc), free)
		if limits && res != "pods" {
			var lim int64
			if n.Limits != nil {
				lim = amount(n.Limits, res)
			}
			row = append(row, limitsUsageCell(res, lim, alloc, q))
		}
	}
	row = append(row, quantityCellIn("cpu", n.NonZeroRequested.MilliCPU, q), quantityCellIn("memory", n.NonZeroRequested.Memory, q))
	if r.Pod != nil {
		row = append(row, fitCell(n.Fit))
	}
	return row
}

func fitCell(f *v1alpha1.Fit) Cell {
	switch {
	case f == nil:
		return text("")
	case f.Fits:
		return Cell{Text: green("yes"), CSV: []string{"yes"}}
	}
	s := "no: " + strings.Join(f.Reasons, ", ")
	if f.Plugin != "" {
		s = "no: " + f.Plugin + ": " + strings.Join(f.Reasons, ", ")
	}
	c := text(s)
	c.Text = red(c.Text)
	return c
}

// FitSummary is the one-line verdict printed after a fit check.
func FitSummary(r *v1alpha1.RequestedReport) string {
	if r.Pod == nil {
		return ""
	}
	nodes := 0
	for _, n := range r.Nodes {
		if !n.Placeholder && !n.Ghost {
			nodes++
		}
	}
	return fmt.Sprintf("pod %s/%s (requests cpu %s, memory %s) passes kube-scheduler's filters on %d of %s",
		r.Pod.Namespace, r.Pod.Name, MilliCPU(r.Pod.Requested.MilliCPU), Bytes(r.Pod.Requested.Memory), r.Pod.FitsNodes, termtext.Count(nodes, "node"))
}
