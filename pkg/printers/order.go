package printers

import (
	"fmt"
	"io"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintNodeOrder renders the Next() order, then, if cycles were requested,
// one row per cycle with its start index and the nodes it examines.
func PrintNodeOrder(w io.Writer, o *v1alpha1.NodeOrder, opts TableOptions) error {
	if len(o.Cycles) > 0 {
		return printCycles(w, o, opts)
	}
	t := newTable("#", "NODE", "ZONE", "ROUND")
	for _, s := range o.Order {
		t.add(fmt.Sprintf("%d", s.Index), s.Node, zoneCell(s.Zone, false, false), fmt.Sprintf("%d", s.Round))
	}
	return t.render(w, opts.NoHeaders)
}

func printCycles(w io.Writer, o *v1alpha1.NodeOrder, opts TableOptions) error {
	t := newTable("CYCLE", "START", "EXAMINED", "FIRST", "LAST", "NODES")
	for _, c := range o.Cycles {
		nodes := ""
		if opts.Wide {
			nodes = listOrNone(c.Nodes)
		} else {
			nodes = abbreviate(c.Nodes, 6)
		}
		t.add(fmt.Sprintf("%d", c.Cycle), fmt.Sprintf("%d", c.StartIndex), fmt.Sprintf("%d/%d", c.NumToFind, o.NumNodes),
			c.Nodes[0], c.Nodes[len(c.Nodes)-1], nodes)
	}
	return t.render(w, opts.NoHeaders)
}

// abbreviate lists up to max names, then "… (+N)".
func abbreviate(names []string, max int) string {
	if len(names) <= max {
		return listOrNone(names)
	}
	return fmt.Sprintf("%s,… (+%d)", listOrNone(names[:max]), len(names)-max)
}
