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
	aff, anti := setOf(s.HavePodsWithAffinity), setOf(s.HavePodsWithRequiredAntiAffinity)
	if !opts.NoHeaders {
		if _, err := fmt.Fprintf(w, "Generation: %d\n", s.Generation); err != nil {
			return err
		}
	}
	header := []string{"#", "NODE", "ZONE", "PODS", "POD-AFFINITY", "REQUIRED-ANTI-AFFINITY"}
	if opts.Wide {
		header = append(header, "GENERATION")
	}
	t := newTable(header...)
	for i, n := range s.Nodes {
		row := []string{fmt.Sprintf("%d", i+1), n.Name, zoneCell(n.Zone, false, false), fmt.Sprintf("%d", n.Pods), yesNo(aff[n.Name]), yesNo(anti[n.Name])}
		if opts.Wide {
			row = append(row, fmt.Sprintf("%d", n.Generation))
		}
		t.add(row...)
	}
	if err := t.render(w, opts.NoHeaders); err != nil || opts.NoHeaders {
		return err
	}
	if s.UsedPVCSet == nil {
		// kube-scheduler before v1.25 keeps no used-PVC set.
		_, err := fmt.Fprintln(w, "Used PVCs: not kept by this kube-scheduler version (v1.25+)")
		return err
	}
	_, err := fmt.Fprintf(w, "Used PVCs (%d): %s\n", len(s.UsedPVCSet), cliprinters.EscapeTerminal(listOrNone(s.UsedPVCSet)))
	return err
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
