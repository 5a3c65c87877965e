package printers

import (
	"fmt"
	"io"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintSnapshot renders a Snapshot table (see SnapshotTable), arranged by opts.
func PrintSnapshot(w io.Writer, s *v1alpha1.Snapshot, opts TableOptions) error {
	t := SnapshotTable(s, opts)
	if err := t.Arrange(opts); err != nil {
		return err
	}
	return t.Render(w, opts)
}

// SnapshotTable is the snapshot's node list in scan order (#, NODE, ZONE,
// PODS, POD-AFFINITY, REQUIRED-ANTI-AFFINITY; GENERATION with -o wide),
// framed by the generation and the used PVC set: its size, and with -o
// wide its members, one per line (the set can be as large as the cluster's
// PVCs).
func SnapshotTable(s *v1alpha1.Snapshot, opts TableOptions) *Table {
	aff, anti := setOf(s.HavePodsWithAffinity), setOf(s.HavePodsWithRequiredAntiAffinity)
	t := &Table{
		Columns: []Column{{Name: "#", Numeric: true, Ascending: true}, {Name: "NODE"}, {Name: "ZONE"}, {Name: "PODS", Numeric: true},
			{Name: "POD-AFFINITY"}, {Name: "REQUIRED-ANTI-AFFINITY"}, {Name: "GENERATION", Wide: true, Numeric: true}},
		Before: []string{fmt.Sprintf("Generation: %d", s.Generation)},
	}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		t.Rows = append(t.Rows, []Cell{count(int64(i + 1)), text(n.Name), text(zoneCell(n.Zone, false, false)), count(int64(n.Pods)),
			text(yesNo(aff[n.Name])), text(yesNo(anti[n.Name])), count(n.Generation)})
		t.Items = append(t.Items, n)
		t.Keys = append(t.Keys, n.Name)
	}
	t.After = usedPVCLines(s.UsedPVCSet, opts.Wide)
	t.Reorder = func(perm []int) { s.Nodes = Permute(s.Nodes, perm) }
	return t
}

func usedPVCLines(set []string, wide bool) []string {
	switch {
	case set == nil:
		// kube-scheduler before v1.25 keeps no used-PVC set.
		return []string{"Used PVCs: not kept by this kube-scheduler version (v1.25+)"}
	case !wide || len(set) == 0:
		hint := ""
		if len(set) > 0 {
			hint = " (-o wide lists them)"
		}
		return []string{fmt.Sprintf("Used PVCs: %d%s", len(set), hint)}
	}
	lines := []string{fmt.Sprintf("Used PVCs (%d):", len(set))}
	for _, pvc := range set {
		lines = append(lines, "  "+escape(pvc))
	}
	return lines
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
