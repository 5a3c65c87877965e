package printers

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintRequested renders a RequestedReport: per resource a
// "requested/allocatable (pct%)" column and a free column, NON-ZERO columns
// with Wide, a FITS column when a pod was checked, and a TOTAL row.
func PrintRequested(w io.Writer, r *v1alpha1.RequestedReport, opts TableOptions) error {
	header, _, rows := RequestedTable(r, opts)
	t := newTable(header...)
	for _, row := range rows {
		t.add(row...)
	}
	return t.render(w, opts.NoHeaders)
}

// RequestedTable returns PrintRequested's header and rows, with the node
// name of each row ("" for the TOTAL row, which NoHeaders leaves out).
func RequestedTable(r *v1alpha1.RequestedReport, opts TableOptions) (header, names []string, rows [][]string) {
	header = []string{"NAME"}
	for _, res := range r.Resources {
		up := strings.ToUpper(res)
		header = append(header, up, up+"-FREE")
	}
	if opts.Wide {
		header = append(header, "NON-ZERO-CPU", "NON-ZERO-MEMORY")
	}
	if r.Pod != nil {
		header = append(header, "FITS")
	}
	for i := range r.Nodes {
		names = append(names, r.Nodes[i].Name)
		rows = append(rows, requestedRow(&r.Nodes[i], r, opts))
	}
	if !opts.NoHeaders {
		names = append(names, "")
		rows = append(rows, requestedRow(&r.Total, r, opts))
	}
	return header, names, rows
}

func requestedRow(n *v1alpha1.NodeRequested, r *v1alpha1.RequestedReport, opts TableOptions) []string {
	name := n.Name
	switch {
	case n.Placeholder:
		name += " <placeholder>"
	case n.Ghost:
		name += " <ghost>"
	}
	row := []string{name}
	for _, res := range r.Resources {
		req, alloc := n.Amounts(res)
		row = append(row, usageOrDash(res, req, alloc, opts.Color), freeCell(res, req, alloc, n.Placeholder))
	}
	if opts.Wide {
		row = append(row, MilliCPU(n.NonZeroRequested.MilliCPU), Bytes(n.NonZeroRequested.Memory))
	}
	if r.Pod != nil {
		row = append(row, fitCell(n.Fit, opts.Color))
	}
	return row
}

// usageOrDash shows "-" for a resource the node neither has nor uses.
func usageOrDash(res string, req, alloc int64, color bool) string {
	if req == 0 && alloc == 0 && res != "pods" {
		return "-"
	}
	return usage(res, req, alloc, color)
}

// freeCell is allocatable minus requested; "-" for placeholders, which have
// no allocatable at all. It can be negative on over-committed nodes.
func freeCell(res string, req, alloc int64, placeholder bool) string {
	if placeholder || req == 0 && alloc == 0 && res != "pods" {
		return "-"
	}
	return Quantity(res, alloc-req)
}

func fitCell(f *v1alpha1.Fit, color bool) string {
	switch {
	case f == nil:
		return ""
	case f.Fits && color:
		return green("yes")
	case f.Fits:
		return "yes"
	}
	s := "no: " + strings.Join(f.Reasons, ", ")
	if f.Plugin != "" {
		s = "no: " + f.Plugin + ": " + strings.Join(f.Reasons, ", ")
	}
	if color {
		return red(s)
	}
	return s
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
	return fmt.Sprintf("pod %s/%s (requests cpu %s, memory %s) passes kube-scheduler's filters on %d of %d nodes",
		r.Pod.Namespace, r.Pod.Name, MilliCPU(r.Pod.Requested.MilliCPU), Bytes(r.Pod.Requested.Memory), r.Pod.FitsNodes, nodes)
}
