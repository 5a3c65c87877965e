package report

import (
	"strconv"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// tableRow is one node of the requested table: what `requested` prints,
// with a sort key per cell.
type tableRow struct {
	Name, Zone string
	Cells      []tableCell
}

// tableCell is one resource of a row: the text and the ratio the page
// sorts it by.
type tableCell struct {
	Text string
	Sort string
}

// tableRows are the nodes of r in name order (as `requested` lists them),
// zones from the order.
func tableRows(r *v1alpha1.RequestedReport, order *v1alpha1.NodeOrder, res []resource) []tableRow {
	zone := make(map[string]string, len(order.Order))
	for _, s := range order.Order {
		zone[s.Node] = s.Zone
	}
	out := make([]tableRow, 0, len(r.Nodes))
	for i := range r.Nodes {
		row := &r.Nodes[i]
		t := tableRow{Name: row.Name, Zone: zone[row.Name], Cells: make([]tableCell, 0, len(res))}
		if row.Placeholder {
			t.Zone = "<placeholder>"
		}
		for _, rs := range res {
			req, alloc := amounts(row, rs.Name)
			text := amountText(rs.Name, req, alloc)
			if req == 0 && alloc == 0 && rs.Name != "pods" {
				text = "-" // as requested prints a resource the node has none of
			}
			t.Cells = append(t.Cells, tableCell{Text: text, Sort: strconv.FormatFloat(ratio(req, alloc), 'g', 6, 64)})
		}
		out = append(out, t)
	}
	return out
}
