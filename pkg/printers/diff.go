package printers

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// snapshotRow is the NODE cell of the Snapshot's list changes.
const snapshotRow = "<snapshot>"

// PrintDiff renders a CacheDiff: one row per change (NODE, CHANGE, FROM,
// TO), generation changes only with Wide, then (unless NoHeaders) a summary
// line. Quantities are shown exactly in human units (cpu as "250m", bytes
// with the largest binary suffix that divides them).
func PrintDiff(w io.Writer, d *v1alpha1.CacheDiff, opts TableOptions) error {
	t := newTable("NODE", "CHANGE", "FROM", "TO")
	rows := 0
	add := func(cells ...string) {
		t.add(cells...)
		rows++
	}
	for _, n := range d.RemovedNodes {
		add(n, "node", "present", "removed")
	}
	for _, n := range d.AddedNodes {
		add(n, "node", "absent", "added")
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		for _, c := range n.Changes {
			from, to := fieldValues(c)
			add(n.Name, c.Field, from, to)
		}
		for _, p := range n.RemovedPods {
			add(n.Name, "pod", podRef(p), "removed")
		}
		for _, p := range n.AddedPods {
			add(n.Name, "pod", "absent", podRef(p)+" added")
		}
		for _, p := range n.ChangedPods {
			for _, c := range p.Changes {
				from, to := fieldValues(c)
				add(n.Name, "pod "+podRef(p.PodRef)+" "+c.Field, from, to)
			}
		}
		if opts.Wide && n.Generation != nil {
			add(n.Name, "generation", fmt.Sprint(n.Generation.From), fmt.Sprint(n.Generation.To))
		}
	}
	for _, l := range d.Lists {
		for _, x := range l.Removed {
			add(snapshotRow, l.List, x, "removed")
		}
		for _, x := range l.Added {
			add(snapshotRow, l.List, "absent", x+" added")
		}
	}
	if rows > 0 {
		if err := t.Render(w, TableOptions{NoHeaders: opts.NoHeaders, Color: opts.Color}); err != nil {
			return err
		}
	}
	if opts.NoHeaders {
		return nil
	}
	_, err := io.WriteString(w, termtext.Text(DiffSummary(d))+"\n")
	return err
}

// DiffSummary is the one-line verdict of a CacheDiff.
func DiffSummary(d *v1alpha1.CacheDiff) string {
	generations := 0
	changed := 0
	for _, n := range d.Nodes {
		if n.Generation != nil {
			generations++
		}
		if len(n.Changes)+len(n.AddedPods)+len(n.RemovedPods)+len(n.ChangedPods) > 0 {
			changed++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s -> %s: ", d.Compared, d.From, d.To)
	if d.Identical {
		b.WriteString("identical")
	} else {
		fmt.Fprintf(&b, "%d added, %d removed, %d changed (%s)", len(d.AddedNodes), len(d.RemovedNodes), changed, termtext.Count(d.Differences, "difference"))
	}
	if d.Generation != nil {
		fmt.Fprintf(&b, "; generation %d -> %d", d.Generation.From, d.Generation.To)
	}
	if generations > 0 {
		fmt.Fprintf(&b, "; %s with a new generation", termtext.Count(generations, "node"))
	}
	return b.String()
}

func podRef(p v1alpha1.PodRef) string { return p.Namespace + "/" + p.Name }

// fieldValues renders a change's values: quantities in human units, list
// changes as "-removed" / "+added", empty as "-".
func fieldValues(c v1alpha1.FieldChange) (string, string) {
	unit := ""
	switch {
	case strings.HasSuffix(c.Field, ".milliCPU"):
		unit = "cpu"
	case strings.HasSuffix(c.Field, ".memory"), strings.HasSuffix(c.Field, ".ephemeralStorage"),
		strings.Contains(c.Field, "[hugepages-"):
		unit = "memory"
	}
	render := func(v string) string {
		var n int64
		if unit != "" {
			if _, err := fmt.Sscan(v, &n); err == nil {
				return exactQuantity(unit, n)
			}
		}
		if v == "" {
			return "-"
		}
		return v
	}
	switch c.Field {
	case "nominatedPods", "usedPorts":
		from, to := "-", "-"
		if c.From != "" {
			from = "removed " + c.From
		}
		if c.To != "" {
			to = "added " + c.To
		}
		return from, to
	}
	return render(c.From), render(c.To)
}
