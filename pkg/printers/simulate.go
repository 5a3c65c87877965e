package printers

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintSimulation renders a Simulation (see TimelineTable), arranged by opts.
func PrintSimulation(w io.Writer, s *v1alpha1.Simulation, opts TableOptions) error {
	t, err := TimelineTable(s, opts)
	if err != nil {
		return err
	}
	if err := t.Arrange(opts); err != nil {
		return err
	}
	return t.Render(w, opts)
}

// TimelineTable is one row per simulated event: STEP (scripts only), TIME,
// EVENT, POD, NODE, STATE (from→to), the pod's CPU and MEMORY, PODS (-o
// wide), ERROR (as the cache returned it) and NOTE. ERROR comes before
// NOTE: errors are what a script is about, and notes (placement,
// deadlines) are long. After the timeline, separated by blank lines, come
// the touched nodes before and after, each simulated pod's final state and
// a summary line; with NoHeaders only the timeline rows are printed, so
// that they can be piped.
func TimelineTable(s *v1alpha1.Simulation, opts TableOptions) (*Table, error) {
	script := s.Settings.Mode == "script"
	var cols []Column
	if script {
		cols = append(cols, Column{Name: "STEP", Numeric: true, Ascending: true})
	}
	cols = append(cols, Column{Name: "TIME", Numeric: true, Ascending: true, CSV: []string{"TIME(milliseconds)"}}, Column{Name: "EVENT"},
		Column{Name: "POD"}, Column{Name: "NODE"}, Column{Name: "STATE"},
		quantityColumn("CPU", "cpu"), quantityColumn("MEMORY", "memory"),
		Column{Name: "PODS", Wide: true, Numeric: true}, Column{Name: "ERROR", Text: true}, Column{Name: "NOTE", Text: true})
	t := &Table{Columns: cols}
	for i := range s.Events {
		t.Rows = append(t.Rows, timelineRow(&s.Events[i], script))
		t.Items = append(t.Items, &s.Events[i])
	}
	t.Reorder = func(perm []int) { s.Events = Permute(s.Events, perm) }
	var after bytes.Buffer
	for _, section := range []func() error{
		func() error { return printSimulatedNodes(&after, s.Nodes, opts) },
		func() error { return printSimulatedPods(&after, s.Pods, opts) },
	} {
		after.WriteString("\n")
		if err := section(); err != nil {
			return nil, err
		}
	}
	t.After = append(strings.Split(strings.TrimSuffix(after.String(), "\n"), "\n"), SimulationSummary(s))
	return t, nil
}

func timelineRow(e *v1alpha1.SimulationEvent, script bool) []Cell {
	var row []Cell
	if script {
		row = append(row, count(int64(e.Step)))
	}
	pod, state := "-", "-"
	if e.Pod != nil {
		pod = e.Pod.Namespace + "/" + e.Pod.Name
	}
	if e.From != "" || e.To != "" {
		state = e.From + "→" + e.To
	}
	cpu, mem, pods := dash(), dash(), dash()
	if r := e.Requested; r != nil {
		cpu, mem, pods = markOverflow(quantityCell("cpu", r.MilliCPU), "cpu", r.Overflow), markOverflow(quantityCell("memory", r.Memory), "memory", r.Overflow), count(r.Pods)
	}
	at := Cell{Text: "+" + e.At, Sort: float64(e.AtMillis), CSV: []string{fmt.Sprintf("%d", e.AtMillis)}}
	errCell := text(e.Error)
	if e.Error != "" {
		errCell.Text = red(errCell.Text)
	}
	return append(row, at, text(e.Event), text(pod), text(orDash(e.Node)), text(state), cpu, mem, pods, errCell, text(e.Note))
}

// printSimulatedNodes: requested cpu, memory and pods before and after;
// "-" where the node had no NodeInfo; one line saying so when no node
// changed.
func printSimulatedNodes(w io.Writer, nodes []v1alpha1.SimulatedNode, opts TableOptions) error {
	if len(nodes) == 0 {
		// No event touched a node (every pod stayed unschedulable): a
		// header over no rows would read as a table that failed to print.
		_, err := io.WriteString(w, "No node changed.\n")
		return err
	}
	header := []string{"NODE", "CPU-BEFORE", "CPU-AFTER", "MEMORY-BEFORE", "MEMORY-AFTER", "PODS-BEFORE", "PODS-AFTER"}
	if opts.Wide {
		header = append(header, "CPU-ALLOCATABLE", "MEMORY-ALLOCATABLE", "ALLOWED-PODS")
	}
	t := newTable(header...)
	for _, n := range nodes {
		name := n.Name
		switch {
		case n.Placeholder:
			name += " <placeholder>"
		case n.Ghost:
			name += " <ghost>"
		}
		bc, bm, bp := usageCells(n.Before)
		ac, am, ap := usageCells(n.After)
		row := []string{name, bc, ac, bm, am, bp, ap}
		if opts.Wide {
			row = append(row, MilliCPU(n.Allocatable.MilliCPU), Bytes(n.Allocatable.Memory), fmt.Sprintf("%d", n.Allocatable.Pods))
		}
		t.add(row...)
	}
	return t.Render(w, afterOptions(opts))
}

// afterOptions are the options of the tables after the timeline: colour
// and the width rule, as the timeline's.
func afterOptions(opts TableOptions) TableOptions {
	return TableOptions{Color: opts.Color, Wide: opts.Wide, MaxWidth: opts.MaxWidth}
}

func usageCells(u *v1alpha1.NodeUsage) (cpu, mem, pods string) {
	if u == nil {
		return "-", "-", "-"
	}
	return overflowText(MilliCPU(u.MilliCPU), "cpu", u.Overflow), overflowText(Bytes(u.Memory), "memory", u.Overflow), fmt.Sprintf("%d", u.Pods)
}

// printSimulatedPods: final state, node and why; wide adds the pod's
// requests and UID.
func printSimulatedPods(w io.Writer, pods []v1alpha1.SimulatedPod, opts TableOptions) error {
	header := []string{"POD", "STATE", "NODE"}
	if opts.Wide {
		header = append(header, "CPU", "MEMORY", "UID")
	}
	t := newTable(append(header, "DETAIL")...)
	for _, p := range pods {
		row := []string{p.Namespace + "/" + p.Name, p.State, orDash(p.Node)}
		if opts.Wide {
			row = append(row, overflowText(MilliCPU(p.Requested.MilliCPU), "cpu", p.Requested.Overflow), overflowText(Bytes(p.Requested.Memory), "memory", p.Requested.Overflow), p.UID)
		}
		t.add(append(row, p.Detail)...)
	}
	t.Columns[len(t.Columns)-1].Text = true // DETAIL: FailedScheduling messages
	return t.Render(w, afterOptions(opts))
}

// simulationStates is the order states are counted in the summary.
var simulationStates = []string{"Added", "Assumed", "Expired", "Initial", "Deleted", "Unschedulable"}

// SimulationSummary is the closing line: how many pods ended in each state,
// and the virtual time covered.
func SimulationSummary(s *v1alpha1.Simulation) string {
	counts := map[string]int{}
	for _, p := range s.Pods {
		counts[p.State]++
	}
	var parts []string
	for _, st := range simulationStates {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	states := "none"
	if len(parts) > 0 {
		states = strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%s simulated (%s), TTL %s, virtual time +0s to +%s",
		termtext.Count(len(s.Pods), "pod"), states, ttlString(s.Settings), s.Settings.End)
}

func ttlString(s v1alpha1.SimulationSettings) string {
	switch {
	case s.TTL != "0s":
		return s.TTL
	case s.ZeroTTLExpires:
		return "0 (expire at the next cleanup)"
	}
	return "0 (never expire)"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
