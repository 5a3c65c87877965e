package report

import (
	"strconv"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// scaleDownSummary is what the page says of scale-down: the verdict, the
// removable nodes in order, and one row per node group.
type scaleDownSummary struct {
	Verdict   string
	Removable []string
	Groups    []scaleDownGroupRow
}

type scaleDownGroupRow struct {
	Group            string
	Nodes, Removable int
	MinSize          string
	CPU, Memory      string
}

func scaleDownSummaryOf(r *v1alpha1.ScaleDownReport) *scaleDownSummary {
	if r == nil {
		return nil
	}
	s := &scaleDownSummary{Verdict: r.Verdict, Removable: r.Removable}
	for _, g := range r.Totals.Groups {
		row := scaleDownGroupRow{Group: g.Group, Nodes: g.Nodes, Removable: g.Removable, MinSize: "<unknown>",
			CPU: printers.Quantity("cpu", g.Freed.MilliCPU), Memory: printers.Quantity("memory", g.Freed.Memory)}
		if row.Group == "" {
			row.Group = "<none>"
		}
		if g.MinSize != nil {
			row.MinSize = strconv.Itoa(*g.MinSize)
		}
		s.Groups = append(s.Groups, row)
	}
	return s
}
