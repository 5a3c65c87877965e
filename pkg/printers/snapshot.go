package printers

import (
	"fmt"
	"io"

	cliprinters "k8s.io/cli-runtime/pkg/printers"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintSnapshot renders the snapshot's node list in scan order with the
// derived lists as columns, framed by the generation and the used PVC set
// (both omitted with NoHeaders).
func PrintSnapshot(w io.Writer, s *v1alpha1.Snapshot, opts TableOptions) error {
	if !opts.NoHeaders {
		if _, err := fmt.Fprintf(w, "Generation: %d\n", s.Generation); err != nil {
			return err
		}
	}
	header, _, rows := SnapshotTable(s, opts)
	t := newTable(header...)
	for _, r := range rows {
		t.add(r...)
	}
	if err := t.render(w, opts.NoHeaders); err != nil || opts.NoHeaders {
		return err
	}
	_, err := fmt.Fprintln(w, SnapshotPVCLine(s))
	return err
}

// SnapshotPVCLine is the line PrintSnapshot ends with: the used PVC set.
func SnapshotPVCLine(s *v1alpha1.Snapshot) string {
	if s.UsedPVCSet == nil {
		// kube-scheduler before v1.25 keeps no used-PVC set.
		return "Used PVCs: not kept by this kube-scheduler version (v1.25+)"
	}
	return fmt.Sprintf("Used PVCs (%d): %s", len(s.UsedPVCSet), cliprinters.EscapeTerminal(listOrNone(s.UsedPVCSet)))
}

// SnapshotTable returns PrintSnapshot's header and rows, with the node name
// of each row.
func SnapshotTable(s *v1alpha1.Snapshot, opts TableOptions) (header, names []string, rows [][]string) {
	aff, anti := setOf(s.HavePodsWithAffinity), setOf(s.HavePodsWithRequiredAntiAffinity)
	header = []string{"#", "NODE", "ZONE", "PODS", "POD-AFFINITY", "REQUIRED-ANTI-AFFINITY"}
	if opts.Wide {
		header = append(header, "GENERATION")
	}
	for i, n := range s.Nodes {
		row := []string{fmt.Sprintf("%d", i+1), n.Name, zoneCell(n.Zone, false, false), fmt.Sprintf("%d", n.Pods), yesNo(aff[n.Name]), yesNo(anti[n.Name])}
		if opts.Wide {
			row = append(row, fmt.Sprintf("%d", n.Generation))
		}
		names = append(names, n.Name)
		rows = append(rows, row)
	}
	return header, names, rows
}

func setOf(items []string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, it := range items {
		m[it] = true
	}
	return m
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
