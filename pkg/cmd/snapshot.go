package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var snapshotExample = `  # The snapshot a freshly started scheduler takes at its first cycle
  kubectl schedcache snapshot

  # As YAML, to diff two points in time
  kubectl schedcache snapshot -o yaml > before.yaml

  # Keep the snapshot up to date as the scheduler does, printing each generation's changes
  kubectl schedcache snapshot --watch -o wide`

// SnapshotOptions drive "snapshot".
type SnapshotOptions struct {
	Input  *InputFlags
	Output *OutputFlags
	Watch  *WatchFlags
	genericiooptions.IOStreams
	runContext
}

// NewSnapshotOptions returns SnapshotOptions with defaults.
func NewSnapshotOptions(streams genericiooptions.IOStreams) *SnapshotOptions {
	return &SnapshotOptions{Input: NewInputFlags(), Output: NewOutputFlags().withTable(func(t printers.TableOptions) (*printers.Table, error) {
		return printers.SnapshotTable(&v1alpha1.Snapshot{}, t), nil
	}), Watch: NewWatchFlags(), IOStreams: streams}
}

// NewCmdSnapshot returns the "snapshot" subcommand.
func NewCmdSnapshot(streams genericiooptions.IOStreams) *cobra.Command {
	return newCmdSnapshot(NewSnapshotOptions(streams))
}

func newCmdSnapshot(o *SnapshotOptions) *cobra.Command {
	cmd := newDataCommand(&cobra.Command{
		Use:   "snapshot",
		Short: "Print the scheduler's Snapshot: generation, node scan order, affinity lists, used PVCs",
		Long: `Print the Snapshot the scheduler takes from its cache at the start of a
scheduling cycle: its generation, the nodes in the order the scheduler scans
them (nodes without a Node object are never in it), the nodes having pods with
pod affinity or required anti-affinity, and the set of PVCs used by pods.`,
		Example: snapshotExample,
	}, o.Input, o.Output, o)
	o.Watch.AddFlags(cmd)
	return cmd
}

// Complete derives the input and watch settings from the flags; f gives
// the live connection.
func (o *SnapshotOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, _ []string) error {
	o.Watch.Complete(cmd)
	return completeIO(&o.runContext, o.Input, f, cmd)
}

// Validate checks flag values; it changes nothing.
func (o *SnapshotOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	return o.Watch.Validate(o.Input)
}

// Run loads the cluster, snapshots the cache and prints it. With --watch it
// then keeps that snapshot up to date incrementally, as the scheduler does
// at each cycle, and prints each change.
func (o *SnapshotOptions) Run() error {
	if o.Watch.Watch {
		return runWatch(o.context(), o.Input, o.Output, o.Watch, o.IOStreams, snapshotWatchView())
	}
	var notes pipeline.Notes
	m, err := o.Input.LoadModel(o.context(), o.IOStreams, cache.Options{}, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	s, err := views.Snapshot(m)
	if err != nil {
		return err
	}
	warnEmptyNamespace(o.ErrOut, m, o.Input.Namespace())
	return o.Output.PrintTable(o.Out, s, func(t printers.TableOptions) (*printers.Table, error) { return printers.SnapshotTable(s, t), nil }, nil)
}
