package printers

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintDump renders a CacheDump table (see DumpTable), arranged by opts.
func PrintDump(w io.Writer, d *v1alpha1.CacheDump, opts TableOptions) error {
	t, err := DumpTable(d, opts)
	if err != nil {
		return err
	}
	if err := t.Arrange(opts); err != nil {
		return err
	}
	return t.Render(w, opts)
}

// defaultDump are the resources "dump" shows without -o wide or --resources.
func defaultDump(res string) bool { return res == "pods" || res == "cpu" || res == "memory" }

// DumpTable is the CacheDump's table, one row per NodeInfo: NAME, ZONE,
// PODS (pods/allowed), CPU and MEMORY ("requested/allocatable (pct%)");
// -o wide adds ephemeral-storage and every scalar resource on some node,
// NON-ZERO-CPU, NON-ZERO-MEMORY, NOMINATED, IMAGES and GENERATION;
// opts.Resources chooses the resource columns instead. A summary line
// follows.
func DumpTable(d *v1alpha1.CacheDump, opts TableOptions) (*Table, error) {
	available := append([]string{"pods", "cpu", "memory", "ephemeral-storage"}, DumpScalars(d, opts.Scalars)...)
	shown, order, err := resourceColumns(available, opts.Resources, defaultDump)
	if err != nil {
		return nil, err
	}
	t := &Table{Columns: []Column{{Name: "NAME"}, {Name: "ZONE"}}}
	for _, name := range order {
		c := usageColumn(name)
		if name == "pods" {
			c = Column{Name: "PODS", Numeric: true, CSV: []string{"PODS", "ALLOWED-PODS"}}
		}
		c.Wide, c.Hidden = resourceVisibility(shown, name, len(opts.Resources) > 0)
		t.Columns = append(t.Columns, c)
	}
	t.Columns = append(t.Columns,
		Column{Name: "NON-ZERO-CPU", Wide: true, Numeric: true, CSV: []string{"NON-ZERO-CPU" + csvUnit("cpu")}},
		Column{Name: "NON-ZERO-MEMORY", Wide: true, Numeric: true, CSV: []string{"NON-ZERO-MEMORY" + csvUnit("memory")}},
		Column{Name: "NOMINATED", Wide: true, Text: true},
		Column{Name: "IMAGES", Wide: true, Numeric: true},
		Column{Name: "GENERATION", Wide: true, Numeric: true})
	for i := range d.Nodes {
		t.Rows = append(t.Rows, dumpRow(&d.Nodes[i], order))
		t.Items = append(t.Items, &d.Nodes[i])
		t.Keys = append(t.Keys, d.Nodes[i].Name)
	}
	t.After = []string{DumpSummary(&d.Summary)}
	t.Reorder = func(perm []int) { d.Nodes = Permute(d.Nodes, perm) }
	return t, nil
}

func dumpRow(n *v1alpha1.NodeDump, resources []string) []Cell {
	zone := text(zoneCell(n.Zone, n.Placeholder, n.Ghost))
	if n.Placeholder || n.Ghost {
		zone.Text = yellow(zone.Text)
	}
	row := []Cell{text(n.Name), zone}
	for _, res := range resources {
		if res == "pods" {
			row = append(row, Cell{Text: fmt.Sprintf("%d/%d", len(n.Pods), n.Allocatable.AllowedPodNumber), Sort: float64(len(n.Pods)),
				CSV: []string{fmt.Sprintf("%d", len(n.Pods)), fmt.Sprintf("%d", n.Allocatable.AllowedPodNumber)}})
			continue
		}
		req, alloc := resourceAmounts(&n.Requested, &n.Allocatable, res)
		row = append(row, markOverflow(usageCell(res, req, alloc), res, n.Overflow))
	}
	return append(row, quantityCell("cpu", n.NonZeroRequested.MilliCPU), quantityCell("memory", n.NonZeroRequested.Memory),
		text(listOrNone(n.NominatedPods)), count(int64(len(n.ImageStates))), count(n.Generation))
}

// resourceAmounts returns the requested and allocatable amounts of res.
func resourceAmounts(req, alloc *v1alpha1.Resource, res string) (int64, int64) {
	switch res {
	case "cpu":
		return req.MilliCPU, alloc.MilliCPU
	case "memory":
		return req.Memory, alloc.Memory
	case "ephemeral-storage":
		return req.EphemeralStorage, alloc.EphemeralStorage
	}
	return req.ScalarResources[res], alloc.ScalarResources[res]
}

// zoneCell marks NodeInfos without a node object, which have no zone.
func zoneCell(zone string, placeholder, ghost bool) string {
	switch {
	case placeholder:
		return "<placeholder>"
	case ghost:
		return "<ghost>"
	case zone == "":
		return "<none>"
	}
	return zone
}

func listOrNone(items []string) string {
	if len(items) == 0 {
		return "<none>"
	}
	return strings.Join(items, ",")
}

// DumpScalars lists the scalar resources with a non-zero amount on some
// node, and those of also, sorted.
func DumpScalars(d *v1alpha1.CacheDump, also []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range also {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, n := range d.Nodes {
		for _, m := range []map[string]int64{n.Allocatable.ScalarResources, n.Requested.ScalarResources} {
			for k, v := range m {
				if v != 0 && !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// DumpSummary is the line the dump table ends with: NodeInfos, pods,
// assumed and pending.
func DumpSummary(s *v1alpha1.DumpSummary) string {
	var extra []string
	if s.Placeholders > 0 {
		extra = append(extra, termtext.Count(s.Placeholders, "placeholder"))
	}
	if s.Ghosts > 0 {
		extra = append(extra, termtext.Count(s.Ghosts, "ghost"))
	}
	nodes := termtext.Count(s.Nodes, "node")
	if len(extra) > 0 {
		nodes += " (" + strings.Join(extra, ", ") + ")"
	}
	return fmt.Sprintf("%s, %s, %d assumed, %d pending", nodes, termtext.Count(s.Pods, "pod"), s.AssumedPods, s.PendingPods)
}
