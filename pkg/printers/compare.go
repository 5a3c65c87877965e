package printers

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// queueRow is the NODE cell of the queue's rows.
const queueRow = "<queue>"

// PrintComparison renders a CacheComparison: one row per difference (NODE,
// DIFFERENCE, SCHEDULER, API), then, unless NoHeaders, a summary line and
// the comparer lines. With Wide, pod cells carry the UID. When both sides
// agree only the summary is printed.
func PrintComparison(w io.Writer, c *v1alpha1.CacheComparison, opts TableOptions) error {
	if !c.Agree {
		t := newTable("NODE", "DIFFERENCE", "SCHEDULER", "API")
		for i := range c.Nodes {
			for _, r := range nodeComparisonRows(&c.Nodes[i], opts.Wide) {
				t.add(r...)
			}
		}
		for _, p := range c.Queue.Missing {
			t.add(queueRow, "pending pod", schedWhere(p.Elsewhere), podCell(p, opts.Wide))
		}
		for _, p := range c.Queue.Extra {
			t.add(queueRow, "pending pod", podCell(p, opts.Wide), apiWhere(p.Elsewhere))
		}
		if err := t.Render(w, TableOptions{NoHeaders: opts.NoHeaders, Color: opts.Color}); err != nil {
			return err
		}
	}
	if opts.NoHeaders {
		return nil
	}
	var b strings.Builder
	b.WriteString(ComparisonSummary(c))
	comparerLines(&b, "Comparer (as kube-scheduler's):", &c.Comparer)
	if c.SchedulerComparer != nil {
		comparerLines(&b, "Scheduler's own comparer:", c.SchedulerComparer)
	}
	_, err := io.WriteString(w, termtext.Text(b.String()))
	return err
}

// ComparisonSummary is what was compared, one side per line, then the verdict.
func ComparisonSummary(c *v1alpha1.CacheComparison) string {
	s, d := c.Summary, c.Scheduler
	who := "dump"
	if d.Version != "" {
		who = d.Version + " dump"
	}
	verdict := "They agree."
	if !c.Agree {
		verdict = fmt.Sprintf("They differ: %s.", termtext.Count(s.Differences, "difference"))
	}
	return fmt.Sprintf("Scheduler: %s of %s, %s lines %d-%d: %s, %s, %d pending\nAPI:       %s: %s, %s, %d pending\n%s\n",
		who, d.Time, d.Log, d.StartLine, d.EndLine, termtext.Count(s.SchedulerNodes, "NodeInfo"), termtext.Count(s.SchedulerPods, "pod"), s.SchedulerPending,
		c.Source, termtext.Count(s.Nodes, "NodeInfo"), termtext.Count(s.Pods, "pod"), s.Pending, verdict)
}

func comparerLines(b *strings.Builder, title string, r *v1alpha1.ComparerResult) {
	var parts []string
	for _, f := range []struct {
		name string
		list []string
	}{
		{"missed nodes", r.MissedNodes}, {"redundant nodes", r.RedundantNodes},
		{"missed pods", r.MissedPods}, {"redundant pods", r.RedundantPods},
	} {
		if len(f.list) > 0 {
			parts = append(parts, fmt.Sprintf("%s [%s]", f.name, strings.Join(f.list, " ")))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(b, "%s %s\n", title, strings.Join(parts, "; "))
	}
}

func nodeComparisonRows(n *v1alpha1.NodeComparison, wide bool) [][]string {
	var rows [][]string
	if n.Scheduler != n.API {
		rows = append(rows, []string{n.Name, "node", nodeState(n.Scheduler), nodeState(n.API)})
	}
	if r := n.Requested; r != nil {
		s, a := resourceDiff(&r.Scheduler, &r.API)
		rows = append(rows, []string{n.Name, "requested", s, a})
	}
	if r := n.Allocatable; r != nil {
		s, a := resourceDiff(&r.Scheduler, &r.API)
		rows = append(rows, []string{n.Name, "allocatable", s, a})
	}
	for _, p := range n.MissingPods {
		rows = append(rows, []string{n.Name, "pod", schedWhere(p.Elsewhere), podCell(p, wide)})
	}
	for _, p := range n.ExtraPods {
		rows = append(rows, []string{n.Name, "pod", podCell(p, wide), apiWhere(p.Elsewhere)})
	}
	for _, p := range n.MissingNominated {
		rows = append(rows, []string{n.Name, "nominated pod", schedWhere(p.Elsewhere), podCell(p, wide)})
	}
	for _, p := range n.ExtraNominated {
		rows = append(rows, []string{n.Name, "nominated pod", podCell(p, wide), apiWhere(p.Elsewhere)})
	}
	return rows
}

func nodeState(s string) string {
	switch s {
	case "deleted":
		return "no Node object (Deleted: true)"
	case "placeholder":
		return "no Node object (pods bound to it)"
	}
	return s
}

func podCell(p v1alpha1.ComparedPod, wide bool) string {
	s := p.Namespace + "/" + p.Name
	var extra []string
	if p.Phase != "" {
		extra = append(extra, p.Phase)
	}
	if wide {
		extra = append(extra, "uid "+p.UID)
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// schedWhere renders where the scheduler has a pod (ComparedPod.Elsewhere).
func schedWhere(where string) string {
	switch {
	case where == "pending":
		return "in the queue"
	case strings.HasPrefix(where, "node "):
		return "on " + where
	}
	return where
}

// apiWhere renders where the API has a pod (ComparedPod.Elsewhere).
func apiWhere(where string) string {
	switch {
	case where == "pending":
		return "pending (not bound)"
	case where == "absent":
		return "absent (deleted, terminal or never created)"
	case strings.HasPrefix(where, "node "):
		return "on " + where
	}
	return where
}

// resourceDiff renders only the fields that differ, exactly, on both sides.
func resourceDiff(s, a *v1alpha1.Resource) (string, string) {
	var ss, as []string
	add := func(name string, x, y int64) {
		if x != y {
			ss = append(ss, name+" "+exactQuantity(name, x))
			as = append(as, name+" "+exactQuantity(name, y))
		}
	}
	add("cpu", s.MilliCPU, a.MilliCPU)
	add("memory", s.Memory, a.Memory)
	add("ephemeral-storage", s.EphemeralStorage, a.EphemeralStorage)
	add("pods", s.AllowedPodNumber, a.AllowedPodNumber)
	names := map[string]bool{}
	for k := range s.ScalarResources {
		names[k] = true
	}
	for k := range a.ScalarResources {
		names[k] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		add(k, s.ScalarResources[k], a.ScalarResources[k])
	}
	return strings.Join(ss, ", "), strings.Join(as, ", ")
}

// exactQuantity renders v exactly: cpu as Quantity does, bytes with the
// largest binary suffix that divides them ("320Mi", "1025"), counts plain.
func exactQuantity(name string, v int64) string {
	if name == "cpu" || Quantity(name, 1024) == "1024" {
		return Quantity(name, v)
	}
	units := []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	n, unit := v, ""
	for _, u := range units {
		if n == 0 || n%1024 != 0 {
			break
		}
		n, unit = n/1024, u
	}
	return fmt.Sprintf("%d%s", n, unit)
}
