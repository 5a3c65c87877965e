package printers

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintNodeDetails renders each node of d in a describe-like block: the
// NodeInfo's totals, then every pod with what the scheduler accounts for it,
// then its image states.
func PrintNodeDetails(w io.Writer, d *v1alpha1.CacheDump, opts TableOptions) error {
	for i := range d.Nodes {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if err := printNodeDetail(w, &d.Nodes[i], opts); err != nil {
			return err
		}
	}
	return nil
}

func printNodeDetail(w io.Writer, n *v1alpha1.NodeDump, opts TableOptions) error {
	fields := [][2]string{
		{"Name:", n.Name},
		{"Zone:", zoneCell(n.Zone, n.Placeholder, n.Ghost)},
		{"Generation:", fmt.Sprintf("%d", n.Generation)},
		{"Allocatable:", resourceList(&n.Allocatable, true)},
		{"Requested:", requestedList(&n.Requested, &n.Allocatable)},
		{"Non-zero requested:", fmt.Sprintf("cpu %s, memory %s", MilliCPU(n.NonZeroRequested.MilliCPU), Bytes(n.NonZeroRequested.Memory))},
		{"Used ports:", listOrNone(n.UsedPorts)},
		{"PVCs:", pvcList(n.PVCRefCounts)},
		{"Nominated pods:", listOrNone(n.NominatedPods)},
	}
	for _, f := range fields {
		if _, err := fmt.Fprintf(w, "%-20s%s\n", f[0], termtext.Text(f[1])); err != nil {
			return err
		}
	}
	pods, title := n.Pods, fmt.Sprintf("Pods (%d):", len(n.Pods))
	if ns := opts.PodNamespace; ns != "" {
		pods = nil
		for _, p := range n.Pods {
			if p.Namespace == ns {
				pods = append(pods, p)
			}
		}
		title = fmt.Sprintf("Pods in namespace %s (%d of %d):", ns, len(pods), len(n.Pods))
	}
	if err := section(w, termtext.Text(title), podTable(pods), opts); err != nil {
		return err
	}
	return section(w, fmt.Sprintf("Images (%d):", len(n.ImageStates)), imageTable(n.ImageStates), opts)
}

// section prints a title and the table indented by two spaces; colour as
// opts allow, fitted to the terminal by the width rule like any table.
func section(w io.Writer, title string, t *Table, opts TableOptions) error {
	if _, err := fmt.Fprintln(w, title); err != nil {
		return err
	}
	if len(t.Rows) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := t.Render(&buf, sectionOptions(opts)); err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		if _, err := fmt.Fprintln(w, "  "+line); err != nil {
			return err
		}
	}
	return nil
}

// sectionOptions are the options of a table printed within a detail view
// or after another table: colour, and the width rule within the two-space
// indent (-o wide: never fitted).
func sectionOptions(opts TableOptions) TableOptions {
	out := TableOptions{Color: opts.Color, Wide: opts.Wide}
	if opts.MaxWidth > indentWidth {
		out.MaxWidth = opts.MaxWidth - indentWidth
	}
	return out
}

// indentWidth is the indent of a section's table.
const indentWidth = 2

// podTable: the lists (OTHER, HOST-PORTS, PVCS) wrap on a narrow terminal.
func podTable(pods []v1alpha1.PodDump) *Table {
	t := newTable("NAMESPACE", "NAME", "STATE", "PHASE", "CPU", "MEMORY", "NON-ZERO-CPU", "NON-ZERO-MEMORY", "OTHER", "HOST-PORTS", "PVCS")
	for _, p := range pods {
		state := p.State
		if p.Terminating {
			state += ",Terminating"
		}
		t.add(p.Namespace, p.Name, state, p.Phase, MilliCPU(p.Requested.MilliCPU), Bytes(p.Requested.Memory),
			MilliCPU(p.NonZeroRequested.MilliCPU), Bytes(p.NonZeroRequested.Memory), otherResources(&p.Requested),
			listOrNone(p.HostPorts), listOrNone(p.PVCs))
	}
	for _, i := range []int{8, 9, 10} {
		t.Columns[i].Text = true
	}
	return t
}

func imageTable(images []v1alpha1.ImageState) *Table {
	t := newTable("IMAGE", "SIZE", "NUM-NODES")
	for _, img := range images {
		t.add(img.Name, Bytes(img.Size), fmt.Sprintf("%d", img.NumNodes))
	}
	return t
}

// otherResources lists ephemeral-storage and scalar requests, e.g.
// "ephemeral-storage=1Gi,nvidia.com/gpu=1".
func otherResources(r *v1alpha1.Resource) string {
	var parts []string
	if r.EphemeralStorage != 0 {
		parts = append(parts, "ephemeral-storage="+Bytes(r.EphemeralStorage))
	}
	for _, k := range sortedKeys(r.ScalarResources) {
		parts = append(parts, k+"="+Quantity(k, r.ScalarResources[k]))
	}
	return listOrNone(parts)
}

func resourceList(r *v1alpha1.Resource, withPods bool) string {
	parts := []string{"cpu " + MilliCPU(r.MilliCPU), "memory " + Bytes(r.Memory), "ephemeral-storage " + Bytes(r.EphemeralStorage)}
	if withPods {
		parts = append(parts, fmt.Sprintf("pods %d", r.AllowedPodNumber))
	}
	for _, k := range sortedKeys(r.ScalarResources) {
		parts = append(parts, k+" "+Quantity(k, r.ScalarResources[k]))
	}
	return strings.Join(parts, ", ")
}

func requestedList(req, alloc *v1alpha1.Resource) string {
	parts := []string{
		fmt.Sprintf("cpu %s (%s)", MilliCPU(req.MilliCPU), Percent(req.MilliCPU, alloc.MilliCPU)),
		fmt.Sprintf("memory %s (%s)", Bytes(req.Memory), Percent(req.Memory, alloc.Memory)),
		fmt.Sprintf("ephemeral-storage %s (%s)", Bytes(req.EphemeralStorage), Percent(req.EphemeralStorage, alloc.EphemeralStorage)),
	}
	for _, k := range sortedKeys(req.ScalarResources) {
		parts = append(parts, fmt.Sprintf("%s %s (%s)", k, Quantity(k, req.ScalarResources[k]), Percent(req.ScalarResources[k], alloc.ScalarResources[k])))
	}
	return strings.Join(parts, ", ")
}

func pvcList(counts map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(counts) {
		parts = append(parts, fmt.Sprintf("%s (%d)", k, counts[k]))
	}
	return listOrNone(parts)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
