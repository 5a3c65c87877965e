package cmd

import (
	"errors"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var dumpExample = `  # The cache of the current cluster, one row per node
  kubectl schedcache dump

  # From an export, with every resource and the nominated pods
  kubectl get nodes,pods -A -o yaml > cluster.yaml
  kubectl schedcache dump -f cluster.yaml -o wide

  # One node in detail: every pod with what the scheduler accounts for it
  kubectl schedcache dump --node node-1

  # The same export as kube-scheduler v1.27 held it (sidecars counted as
  # plain init containers, no sidecar host ports)
  kubectl schedcache dump -f cluster.yaml --kube-version v1.27

  # The whole dump as JSON (kind CacheDump)
  kubectl schedcache dump -o json

  # Follow the cache: the rows of the NodeInfos that change, and why
  kubectl schedcache dump --watch`

// DumpOptions drive "dump".
type DumpOptions struct {
	Input  *InputFlags
	Output *OutputFlags
	// Nodes, when set, selects nodes for the detailed view.
	Nodes []string
	Watch *WatchFlags
	genericiooptions.IOStreams
	runContext
}

// NewDumpOptions returns DumpOptions with defaults.
func NewDumpOptions(streams genericiooptions.IOStreams) *DumpOptions {
	return &DumpOptions{Input: NewInputFlags(), Output: NewOutputFlags().WithResources().withTable(func(t printers.TableOptions) (*printers.Table, error) {
		return printers.DumpTable(&v1alpha1.CacheDump{}, t)
	}), Watch: NewWatchFlags(), IOStreams: streams}
}

// NewCmdDump returns the "dump" subcommand.
func NewCmdDump(streams genericiooptions.IOStreams) *cobra.Command {
	return newCmdDump(NewDumpOptions(streams))
}

func newCmdDump(o *DumpOptions) *cobra.Command {
	cmd := newDataCommand(&cobra.Command{
		Use:   "dump [--node NAME]...",
		Short: "Print the scheduler cache: every NodeInfo with its requested resources and pods",
		Long: `Print what kube-scheduler's cache holds (its Dump()): one row per NodeInfo, with
pods counted against the node's allowed pods and cpu and memory requested as the
scheduler accounts them. Placeholders (pods bound to a node that does not exist)
are shown and marked. With --node, print nodes in detail: every pod with its
scheduler-computed request, host ports and PVCs, and the node's image states.`,
		Example: dumpExample,
		Args:    argsForFlag("--node"),
	}, o.Input, o.Output, o)
	cmd.Flags().StringArrayVar(&o.Nodes, "node", o.Nodes, "Show this node in detail (repeatable)")
	o.Watch.AddFlags(cmd)
	_ = cmd.RegisterFlagCompletionFunc("node", completeNodeNames(o.Input))
	return cmd
}

// Complete derives the input and watch settings from the flags; f gives
// the live connection.
func (o *DumpOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, _ []string) error {
	o.Watch.Complete(cmd)
	return completeIO(&o.runContext, o.Input, f, cmd)
}

// Validate checks flag combinations; it changes nothing.
func (o *DumpOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	if o.Watch.Watch && len(o.Nodes) > 0 {
		return errors.New("--watch shows every node; it does not combine with --node")
	}
	return o.Watch.Validate(o.Input)
}

// Run loads the cluster, builds the cache and prints its dump; with
// --watch it then follows the cluster.
func (o *DumpOptions) Run() error {
	if o.Watch.Watch {
		return runWatch(o.context(), o.Input, o.Output, o.Watch, o.IOStreams, dumpWatchView(o.Input.Namespace()))
	}
	var notes pipeline.Notes
	m, err := o.Input.LoadModel(o.context(), o.IOStreams, cache.Options{}, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	d, err := views.Dump(m, o.Nodes)
	if err != nil {
		return err
	}
	// -n lists the pods of one namespace (detail blocks, json, yaml); the
	// one-row-per-node table counts every pod, as the scheduler does.
	ns := o.Input.Namespace()
	if ns != "" && !namespaceHasPods(m, ns) {
		// As kubectl get: the message alone for the tables, the data
		// alone (nodes without pods) for the structured formats.
		if o.Output.rowsOutput() {
			noResourcesFound(o.ErrOut, ns)
			return nil
		}
	}
	listed := dumpInNamespace(d, ns)
	var detail func(printers.TableOptions) error
	if len(o.Nodes) > 0 {
		detail = func(t printers.TableOptions) error {
			t.PodNamespace = ns
			return printers.PrintNodeDetails(o.Out, d, t)
		}
	}
	return o.Output.PrintTable(o.Out, listed, func(t printers.TableOptions) (*printers.Table, error) { return printers.DumpTable(d, t) }, detail)
}
