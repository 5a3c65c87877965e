package printers

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintDump renders a CacheDump as one row per NodeInfo, then a summary line
// (omitted with NoHeaders).
func PrintDump(w io.Writer, d *v1alpha1.CacheDump, opts TableOptions) error {
	header, _, rows := DumpTable(d, opts)
	t := newTable(header...)
	for _, r := range rows {
		t.add(r...)
	}
	if err := t.render(w, opts.NoHeaders); err != nil {
		return err
	}
	if opts.NoHeaders {
		return nil
	}
	_, err := fmt.Fprintln(w, DumpSummary(&d.Summary))
	return err
}

// DumpTable returns PrintDump's header and rows, with the node name of each row.
func DumpTable(d *v1alpha1.CacheDump, opts TableOptions) (header, names []string, rows [][]string) {
	scalars := DumpScalars(d, opts.Scalars)
	header = []string{"NAME", "ZONE", "PODS", "CPU", "MEMORY"}
	if opts.Wide {
		header = append(header, "EPHEMERAL-STORAGE")
		for _, s := range scalars {
			header = append(header, strings.ToUpper(s))
		}
		header = append(header, "NON-ZERO-CPU", "NON-ZERO-MEMORY", "NOMINATED", "IMAGES", "GENERATION")
	}
	for i := range d.Nodes {
		names = append(names, d.Nodes[i].Name)
		rows = append(rows, dumpRow(&d.Nodes[i], scalars, opts))
	}
	return header, names, rows
}

func dumpRow(n *v1alpha1.NodeDump, scalars []string, opts TableOptions) []string {
	row := []string{
		n.Name, zoneCell(n.Zone, n.Placeholder, n.Ghost),
		fmt.Sprintf("%d/%d", len(n.Pods), n.Allocatable.AllowedPodNumber),
		usage("cpu", n.Requested.MilliCPU, n.Allocatable.MilliCPU, opts.Color),
		usage("memory", n.Requested.Memory, n.Allocatable.Memory, opts.Color),
	}
	if !opts.Wide {
		return row
	}
	row = append(row, usageOrDash("ephemeral-storage", n.Requested.EphemeralStorage, n.Allocatable.EphemeralStorage, opts.Color))
	for _, s := range scalars {
		row = append(row, usageOrDash(s, n.Requested.ScalarResources[s], n.Allocatable.ScalarResources[s], opts.Color))
	}
	return append(row, MilliCPU(n.NonZeroRequested.MilliCPU), Bytes(n.NonZeroRequested.Memory),
		listOrNone(n.NominatedPods), fmt.Sprintf("%d", len(n.ImageStates)), fmt.Sprintf("%d", n.Generation))
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

// usage renders "requested/allocatable (pct%)", red from 90% with colour.
func usage(name string, req, alloc int64, color bool) string {
	pct := Percent(req, alloc)
	s := fmt.Sprintf("%s/%s (%s)", Quantity(name, req), Quantity(name, alloc), pct)
	if color && (alloc > 0 && req*100 >= 90*alloc || alloc <= 0 && req > 0) {
		return red(s)
	}
	return s
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

// DumpSummary is the line PrintDump ends with: NodeInfos, pods, assumed and pending.
func DumpSummary(s *v1alpha1.DumpSummary) string {
	var extra []string
	if s.Placeholders > 0 {
		extra = append(extra, plural(s.Placeholders, "placeholder"))
	}
	if s.Ghosts > 0 {
		extra = append(extra, plural(s.Ghosts, "ghost"))
	}
	nodes := plural(s.Nodes, "node")
	if len(extra) > 0 {
		nodes += " (" + strings.Join(extra, ", ") + ")"
	}
	return fmt.Sprintf("%s, %s, %d assumed, %d pending", nodes, plural(s.Pods, "pod"), s.AssumedPods, s.PendingPods)
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
