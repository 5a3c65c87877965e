package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
	"github.com/schedcache/kubectl-schedcache/pkg/views"
)

var snapshotExample = `  # The snapshot a freshly started scheduler takes at its first cycle
  kubectl schedcache snapshot

  # As YAML, to diff two points in time
  kubectl schedcache snapshot -o yaml > before.yaml`

// SnapshotOptions drive "snapshot".
type SnapshotOptions struct {
	Input  *InputFlags
	Output *OutputFlags
	genericiooptions.IOStreams
}

// NewSnapshotOptions returns SnapshotOptions with defaults.
func NewSnapshotOptions(streams genericiooptions.IOStreams) *SnapshotOptions {
	return &SnapshotOptions{Input: NewInputFlags(), Output: NewOutputFlags(), IOStreams: streams}
}

// NewCmdSnapshot returns the "snapshot" subcommand.
func NewCmdSnapshot(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewSnapshotOptions(streams)
	cmd := newDataCommand(&cobra.Command{
		Use:   "snapshot",
		Short: "Print the scheduler's Snapshot: generation, node scan order, affinity lists, used PVCs",
		Long: `Print the Snapshot the scheduler takes from its cache at the start of a
scheduling cycle: its generation, the nodes in the order the scheduler scans
them (nodes without a Node object are never in it), the nodes having pods with
pod affinity or required anti-affinity, and the set of PVCs used by pods.`,
		Example: snapshotExample,
	}, o.Input, o.Output, o.Validate, o.Run)
	return cmd
}

// Validate checks flag values.
func (o *SnapshotOptions) Validate() error {
	return validateIO(o.Input, o.Output)
}

// Run loads the cluster, snapshots the cache and prints it.
func (o *SnapshotOptions) Run(cmd *cobra.Command) error {
	m, err := o.Input.LoadModel(cmd.Context(), o.IOStreams, cache.Options{})
	if err != nil {
		return err
	}
	s, err := views.Snapshot(m)
	if err != nil {
		return err
	}
	return o.Output.Print(o.Out, s, func(t printers.TableOptions) error { return printers.PrintSnapshot(o.Out, s, t) })
}
