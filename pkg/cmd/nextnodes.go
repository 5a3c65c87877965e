package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var nextNodesExample = `  # The zone round-robin order, one call of NodeTree.Next() per node
  kubectl schedcache next-nodes

  # Twice round, to see the wrap-around
  kubectl schedcache next-nodes --count 24

  # Which nodes the next 5 scheduling cycles examine, with the adaptive
  # percentage of nodes to score, assuming every node is feasible
  kubectl schedcache next-nodes --cycles 5`

// Bounds of --count and --cycles, so that memory stays flat whatever is
// asked: the output is built whole (for -o json/yaml), a slot per Next()
// call and a node name per node each cycle examines (at most a few hundred
// on the largest clusters), tens of MiB at worst. More is never
// needed to see the order repeat.
const (
	maxNextNodesCount  = 100_000
	maxNextNodesCycles = 1_000
)

// NextNodesOptions drive "next-nodes".
type NextNodesOptions struct {
	Input      *InputFlags
	Output     *OutputFlags
	Count      int
	Cycles     int
	Percentage int32
	genericiooptions.IOStreams
	runContext
}

// NewNextNodesOptions returns NextNodesOptions with defaults.
func NewNextNodesOptions(streams genericiooptions.IOStreams) *NextNodesOptions {
	return &NextNodesOptions{Input: NewInputFlags().withoutNamespace().withSchedulerLog(), Output: NewOutputFlags().withTable(func(t printers.TableOptions) (*printers.Table, error) {
		return printers.NodeOrderTable(&v1alpha1.NodeOrder{}, t), nil
	}), IOStreams: streams}
}

// NewCmdNextNodes returns the "next-nodes" subcommand.
func NewCmdNextNodes(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewNextNodesOptions(streams)
	cmd := newDataCommand(&cobra.Command{
		Use:   "next-nodes",
		Short: "Show the NodeTree's zone round-robin node order and the nodes each scheduling cycle examines",
		Long: `Show the order in which the scheduler's NodeTree hands out nodes: zones in
first-seen order, one node of each zone per round (the stateful
NodeTree.Next() of v1.18–v1.19; the List() of v1.20+ gives the same order).

The zones and each zone's nodes follow the order the scheduler received the
nodes; that of the nodes present at its start is not determined (a note says
so), so the order shown is that of a scheduler that received them in the
input's order. --scheduler-log FILE (kube-scheduler's own log at -v=2 or more)
replays its NodeTree records and shows the running scheduler's order.

With --cycles, show for successive scheduling cycles which nodes each examines:
the scan starts at the moving start index and stops after
numFeasibleNodesToFind nodes (from --percentage-of-nodes-to-score; 0 is
adaptive: 50% minus 1% per 125 nodes, at least 5%, at least 100 nodes),
assuming every node is feasible.`,
		Example: nextNodesExample,
	}, o.Input, o.Output, o)
	cmd.Flags().IntVar(&o.Count, "count", o.Count, "Number of Next() calls (default: the number of nodes; at most 100000); more shows the wrap-around")
	cmd.Flags().IntVar(&o.Cycles, "cycles", o.Cycles, "Show the nodes examined by this many successive scheduling cycles (at most 1000)")
	cmd.Flags().Int32Var(&o.Percentage, "percentage-of-nodes-to-score", o.Percentage, "percentageOfNodesToScore (0 = adaptive, as the default scheduler)")
	return cmd
}

// Complete derives the input settings from the flags; f gives the live
// connection.
func (o *NextNodesOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, _ []string) error {
	return completeIO(&o.runContext, o.Input, f, cmd)
}

// Validate checks flag values; it changes nothing.
func (o *NextNodesOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	switch {
	case o.Count < 0:
		return fmt.Errorf("--count must not be negative, got %d", o.Count)
	case o.Count > maxNextNodesCount:
		return fmt.Errorf("--count must be at most %d, got %d", maxNextNodesCount, o.Count)
	case o.Cycles < 0:
		return fmt.Errorf("--cycles must not be negative, got %d", o.Cycles)
	case o.Cycles > maxNextNodesCycles:
		return fmt.Errorf("--cycles must be at most %d, got %d", maxNextNodesCycles, o.Cycles)
	case o.Percentage < 0 || o.Percentage > 100:
		return fmt.Errorf("--percentage-of-nodes-to-score must be between 0 and 100, got %d", o.Percentage)
	}
	return nil
}

// Run loads the nodes and prints the order.
func (o *NextNodesOptions) Run() error {
	if ns := *o.Input.ConfigFlags.Namespace; ns != "" && strings.Trim(ns, "0123456789") == "" {
		// head -n 3's habit: -n is kubectl's namespace here.
		fmt.Fprintf(o.ErrOut, "note: -n %s is the namespace, which next-nodes ignores (nodes have none); --count %s sets the number of Next() calls\n", ns, ns)
	}
	// The input's, the version's and the node order's notes, said once
	// before the order (and before an error).
	var notes pipeline.Notes
	cluster, err := o.Input.Load(o.context(), o.IOStreams, &notes)
	if err != nil {
		printNotes(o.ErrOut, &notes)
		return err
	}
	choice, err := o.Input.Choose(o.context(), o.IOStreams, cluster, &notes)
	if err != nil {
		printNotes(o.ErrOut, &notes)
		return err
	}
	profile := choice.Profile
	nodes := cluster.Nodes
	if lo := o.Input.SchedulerLog.nodeOrder(); lo != nil {
		nodes = lo.Nodes(nodes, &notes)
	} else {
		notes.Add(pipeline.SeverityNote, "%s", views.UndeterminedOrder)
	}
	printNotes(o.ErrOut, &notes)
	order := views.NodeOrder(cluster.Source, nodes, views.NodeOrderOptions{
		Count: o.Count, Cycles: o.Cycles, Percentage: o.Percentage, Behavior: &profile.Behavior})
	return o.Output.PrintTable(o.Out, order, func(t printers.TableOptions) (*printers.Table, error) { return printers.NodeOrderTable(order, t), nil }, nil)
}
