package report

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// bigGridMax is the largest node count whose grid cells are big enough to
// carry the node's name and percentage; beyond it cells are small squares
// (the numbers are in their title), so 5,000 nodes fit on one screen.
const bigGridMax = 200

// resource is one choice of the grid's selector.
type resource struct {
	Index int
	Name  string
}

// zoneGroup is one zone of the grid, nodes in NodeTree order.
type zoneGroup struct {
	Name  string
	Nodes []cell
}

// cell is one node of the grid.
type cell struct {
	Name string
	// Label is what a big cell shows: the part of Name that differs from
	// the page's other nodes (labeller).
	Label string
	// Classes are the colour classes, one per resource ("r0b8 r1b3 …"),
	// and the marks (cordoned, tainted, placeholder): built from indices
	// and fixed words only, never from input strings.
	Classes string
	// Percents are the labels of a big cell, one per resource.
	Percents []string
	// Title is the hover text: the node's numbers.
	Title string
}

// nodeFacts are what the grid marks from a Node object.
type nodeFacts struct {
	cordoned bool
	taints   []v1.Taint
	// removal is the node's place in scale-down's removal order (1 is
	// first), 0 when it is not removable or scale-down was not asked.
	removal int
}

func factsOf(nodes []*v1.Node, scaleDown *v1alpha1.ScaleDownReport) map[string]nodeFacts {
	out := make(map[string]nodeFacts, len(nodes))
	for _, n := range nodes {
		out[n.Name] = nodeFacts{cordoned: n.Spec.Unschedulable, taints: n.Spec.Taints}
	}
	if scaleDown != nil {
		for i, name := range scaleDown.Removable {
			f := out[name]
			f.removal = i + 1
			out[name] = f
		}
	}
	return out
}

// zonesOf groups the rows of r by zone: the zones in the order the
// NodeTree's round-robin first visits them, each zone's nodes in its own
// order (Order's one round), then the NodeInfos the tree does not hold
// (placeholders, ghosts) under a group of their own.
func zonesOf(r *v1alpha1.RequestedReport, order *v1alpha1.NodeOrder, facts map[string]nodeFacts, res []resource, big bool) []zoneGroup {
	rows := make(map[string]*v1alpha1.NodeRequested, len(r.Nodes))
	for i := range r.Nodes {
		rows[r.Nodes[i].Name] = &r.Nodes[i]
	}
	names := make([]string, len(r.Nodes))
	for i := range r.Nodes {
		names[i] = r.Nodes[i].Name
	}
	labels := newLabeller(names)
	var out []zoneGroup
	at := map[string]int{}
	seen := make(map[string]bool, len(r.Nodes))
	for _, s := range order.Order {
		row := rows[s.Node]
		if row == nil || seen[s.Node] {
			continue
		}
		seen[s.Node] = true
		i, ok := at[s.Zone]
		if !ok {
			i = len(out)
			at[s.Zone] = i
			name := s.Zone
			if name == "" {
				name = "<no zone>"
			}
			out = append(out, zoneGroup{Name: name})
		}
		out[i].Nodes = append(out[i].Nodes, cellOf(row, facts[s.Node], res, big, labels))
	}
	var rest zoneGroup
	for i := range r.Nodes {
		if row := &r.Nodes[i]; !seen[row.Name] {
			rest.Nodes = append(rest.Nodes, cellOf(row, facts[row.Name], res, big, labels))
		}
	}
	if len(rest.Nodes) > 0 {
		rest.Name = "not in the NodeTree (placeholders for pods bound to missing nodes, removed nodes still holding pods)"
		out = append(out, rest)
	}
	return out
}

func cellOf(row *v1alpha1.NodeRequested, f nodeFacts, res []resource, big bool, labels labeller) cell {
	c := cell{Name: row.Name}
	if big {
		c.Label = labels.label(row.Name)
	}
	var classes, title strings.Builder
	classes.WriteString("c")
	title.WriteString(row.Name)
	for _, r := range res {
		req, alloc := amounts(row, r.Name)
		fmt.Fprintf(&classes, " r%db%d", r.Index, bucket(req, alloc))
		fmt.Fprintf(&title, "\n%s %s", r.Name, amountText(r.Name, req, alloc))
		if big {
			c.Percents = append(c.Percents, percentText(req, alloc))
		}
	}
	switch {
	case row.Placeholder:
		classes.WriteString(" ph")
		title.WriteString("\nplaceholder: pods bound to a node that does not exist")
	case row.Ghost:
		classes.WriteString(" ph")
		title.WriteString("\nremoved node still holding pods")
	}
	if f.cordoned {
		classes.WriteString(" cord")
		title.WriteString("\ncordoned (spec.unschedulable)")
	}
	if f.removal > 0 {
		classes.WriteString(" rm")
		fmt.Fprintf(&title, "\nscale-down: removable (%d in the removal order)", f.removal)
	}
	if len(f.taints) > 0 {
		classes.WriteString(" taint")
		title.WriteString("\ntaints: ")
		for i, t := range f.taints {
			if i > 0 {
				title.WriteString(", ")
			}
			title.WriteString(taintText(t))
		}
	}
	if len(row.Overflow) > 0 {
		fmt.Fprintf(&title, "\nbeyond int64 (wrapped as the scheduler wraps it): %s", strings.Join(row.Overflow, ", "))
	}
	c.Classes, c.Title = classes.String(), title.String()
	return c
}

// taintText is "key=value:Effect", as kubectl describe node shows taints.
func taintText(t v1.Taint) string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}
