package printers

import (
	"fmt"
	"io"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintNodeOrder renders a NodeOrder table (see NodeOrderTable), arranged by opts.
func PrintNodeOrder(w io.Writer, o *v1alpha1.NodeOrder, opts TableOptions) error {
	t := NodeOrderTable(o, opts)
	if err := t.Arrange(opts); err != nil {
		return err
	}
	return t.Render(w, opts)
}

// NodeOrderTable is the Next() order (#, NODE, ZONE, ROUND) or, when
// cycles were requested, one row per cycle: its start index, how many
// nodes it examines of all, the first and last and (abbreviated unless -o
// wide) every node it examines.
func NodeOrderTable(o *v1alpha1.NodeOrder, opts TableOptions) *Table {
	if len(o.Cycles) > 0 {
		return cyclesTable(o, opts)
	}
	t := &Table{Columns: []Column{{Name: "#", Numeric: true, Ascending: true}, {Name: "NODE"}, {Name: "ZONE"},
		{Name: "ROUND", Numeric: true, Ascending: true}}}
	for i := range o.Order {
		s := &o.Order[i]
		t.Rows = append(t.Rows, []Cell{count(int64(s.Index)), text(s.Node), text(zoneCell(s.Zone, false, false)), count(int64(s.Round))})
		t.Items = append(t.Items, s)
	}
	t.Reorder = func(perm []int) { o.Order = Permute(o.Order, perm) }
	return t
}

func cyclesTable(o *v1alpha1.NodeOrder, opts TableOptions) *Table {
	t := &Table{Columns: []Column{{Name: "CYCLE", Numeric: true, Ascending: true}, {Name: "START", Numeric: true, Ascending: true},
		{Name: "EXAMINED", Numeric: true, CSV: []string{"EXAMINED", "NODES-IN-TREE"}}, {Name: "FIRST"}, {Name: "LAST"}, {Name: "NODES", Text: true}}}
	for i := range o.Cycles {
		c := &o.Cycles[i]
		nodes := abbreviate(c.Nodes, 6)
		if opts.Wide {
			nodes = listOrNone(c.Nodes)
		}
		examined := Cell{Text: fmt.Sprintf("%d/%d", c.NumToFind, o.NumNodes), Sort: float64(c.NumToFind),
			CSV: []string{fmt.Sprintf("%d", c.NumToFind), fmt.Sprintf("%d", o.NumNodes)}}
		t.Rows = append(t.Rows, []Cell{count(int64(c.Cycle)), count(int64(c.StartIndex)), examined,
			text(c.Nodes[0]), text(c.Nodes[len(c.Nodes)-1]), text(nodes)})
		t.Items = append(t.Items, c)
	}
	t.Reorder = func(perm []int) { o.Cycles = Permute(o.Cycles, perm) }
	return t
}

// abbreviate lists up to max names, then "… (+N)".
func abbreviate(names []string, max int) string {
	if len(names) <= max {
		return listOrNone(names)
	}
	return fmt.Sprintf("%s,… (+%d)", listOrNone(names[:max]), len(names)-max)
}
