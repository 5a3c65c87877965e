package printers

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// PrintSimulation renders a Simulation as three tables separated by blank
// lines: the timeline of events, the touched nodes before and after, and
// each simulated pod's final state, then a summary line. With NoHeaders
// only the timeline rows are printed, so that they can be piped.
func PrintSimulation(w io.Writer, s *v1alpha1.Simulation, opts TableOptions) error {
	if err := printTimeline(w, s, opts); err != nil || opts.NoHeaders {
		return err
	}
	sections := []func() error{
		func() error { return printSimulatedNodes(w, s.Nodes, opts) },
		func() error { return printSimulatedPods(w, s.Pods, opts) },
	}
	for _, section := range sections {
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
		if err := section(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, SimulationSummary(s))
	return err
}

// printTimeline: one row per event; STEP only for scripts, PODS only wide.
func printTimeline(w io.Writer, s *v1alpha1.Simulation, opts TableOptions) error {
	script := s.Settings.Mode == "script"
	var header []string
	if script {
		header = append(header, "STEP")
	}
	header = append(header, "TIME", "EVENT", "POD", "NODE", "STATE", "CPU", "MEMORY")
	if opts.Wide {
		header = append(header, "PODS")
	}
	// ERROR comes before NOTE: errors are what a script is about, and notes
	// (placement, deadlines) are long.
	t := newTable(append(header, "ERROR", "NOTE")...)
	for i := range s.Events {
		t.add(timelineRow(&s.Events[i], script, opts)...)
	}
	return t.render(w, opts.NoHeaders)
}

func timelineRow(e *v1alpha1.SimulationEvent, script bool, opts TableOptions) []string {
	var row []string
	if script {
		row = append(row, fmt.Sprintf("%d", e.Step))
	}
	pod, state := "-", "-"
	if e.Pod != nil {
		pod = e.Pod.Namespace + "/" + e.Pod.Name
	}
	if e.From != "" || e.To != "" {
		state = e.From + "→" + e.To
	}
	cpu, mem, pods := "-", "-", "-"
	if r := e.Requested; r != nil {
		cpu, mem, pods = MilliCPU(r.MilliCPU), Bytes(r.Memory), fmt.Sprintf("%d", r.Pods)
	}
	row = append(row, "+"+e.At, e.Event, pod, orDash(e.Node), state, cpu, mem)
	if opts.Wide {
		row = append(row, pods)
	}
	errCell := e.Error
	if errCell != "" && opts.Color {
		errCell = red(errCell)
	}
	return append(row, errCell, e.Note)
}

// printSimulatedNodes: requested cpu, memory and pods before and after;
// "-" where the node had no NodeInfo.
func printSimulatedNodes(w io.Writer, nodes []v1alpha1.SimulatedNode, opts TableOptions) error {
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
	return t.render(w, false)
}

func usageCells(u *v1alpha1.NodeUsage) (cpu, mem, pods string) {
	if u == nil {
		return "-", "-", "-"
	}
	return MilliCPU(u.MilliCPU), Bytes(u.Memory), fmt.Sprintf("%d", u.Pods)
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
			row = append(row, MilliCPU(p.Requested.MilliCPU), Bytes(p.Requested.Memory), p.UID)
		}
		t.add(append(row, p.Detail)...)
	}
	return t.render(w, false)
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
		plural(len(s.Pods), "pod"), states, ttlString(s.Settings), s.Settings.End)
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
