package cmd

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/report"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

var reportExample = `  # One HTML page of the current cluster: nodes by zone, pending pods and why, the node order
  kubectl schedcache report -o report.html

  # From kubectl get -o yaml output, to stdout
  kubectl schedcache report -f cluster.yaml > report.html

  # Pending pods decided with the cluster's own scheduler configuration
  kubectl schedcache report --config /etc/kubernetes/scheduler-config.yaml -o report.html`

// reportCycles is how many scheduling cycles the node-order picture shows.
const reportCycles = 3

// ReportOptions drive "report".
type ReportOptions struct {
	Input      *InputFlags
	ConfigFile string
	// OutFile is where the page goes: a file, or "-" (and "" when stdout
	// is not a terminal) for stdout.
	OutFile string
	// Now gives the time stamped in the page (time.Now; tests fix it).
	Now func() time.Time
	// WhatIf are the what-if edits: the page shows the edited cluster.
	WhatIf *WhatIfFlags
	// ScaleDown adds scale-down's answer (cluster-autoscaler's defaults):
	// the removable nodes marked on the grid, the totals.
	ScaleDown bool
	genericiooptions.IOStreams
	runContext
}

// NewReportOptions returns ReportOptions with defaults.
func NewReportOptions(streams genericiooptions.IOStreams) *ReportOptions {
	return &ReportOptions{Input: NewInputFlags().withoutNamespace(), Now: time.Now, WhatIf: NewWhatIfFlags(), IOStreams: streams}
}

// NewCmdReport returns the "report" subcommand.
func NewCmdReport(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewReportOptions(streams)
	cmd := &cobra.Command{
		Use:   "report [-o FILE]",
		Short: "Write one self-contained HTML page: nodes by zone, pending pods and why, the node order",
		Long: `Write the cluster as kube-scheduler's cache sees it as one HTML file that needs
nothing else to open (inline CSS and SVG, a few lines of JavaScript, no network):

  - a header: source, time, kube-scheduler version modelled, counts, warnings;
  - every node as a cell of a grid grouped by zone (NodeTree order), coloured by
    requested/allocatable of the chosen resource, cordoned and tainted nodes marked;
  - every pending pod with the verdict of kube-scheduler v1.36's framework (as
    "why -A" decides it), and a chart of how many nodes each Filter plugin
    rejected over the unschedulable pods;
  - the zone round-robin order and what the first scheduling cycles examine;
  - the per-node requested table ("requested"), sortable;
  - with --scale-down, the nodes "scale-down" finds removable marked on the
    grid, and its totals per node group.

With what-if edits (--cordon, --add-node, --remove-node, --evict, …) every
part shows the edited cluster, after a first section naming the edits and the
pending pods whose verdict they change.

The page goes to -o FILE, or to stdout when it is not a terminal.`,
		Example: reportExample,
		Args:    noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runCommand(o, o.Input.ConfigFlags, c, args)
		},
	}
	o.Input.AddFlags(cmd)
	cmd.Flags().StringVarP(&o.OutFile, "output", "o", o.OutFile, "Write the HTML page to this file (- for stdout; default: stdout when it is not a terminal)")
	cmd.Flags().StringVar(&o.ConfigFile, "config", o.ConfigFile, "A KubeSchedulerConfiguration (v1) file for the pending pods' verdicts: profiles, plugin weights and arguments")
	cmd.Flags().BoolVar(&o.ScaleDown, "scale-down", o.ScaleDown, "Also decide which nodes could go (scale-down, cluster-autoscaler's defaults) and mark them")
	o.WhatIf.AddFlags(cmd, o.Input)
	_ = cmd.MarkFlagFilename("output", "html", "htm")
	return cmd
}

// Complete has the input carry the objects kube-scheduler's plugins read;
// f gives the live connection.
func (o *ReportOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, _ []string) error {
	o.Input.Objects = true
	if o.ScaleDown {
		o.Input.KeepEmptyDir = true // scale-down's local-storage rule
		if len(o.Input.Filenames) > 0 {
			o.Input.ExtraKinds = []load.SchedulingKind{configMapKind}
		}
	}
	if err := completeIO(&o.runContext, o.Input, f, cmd); err != nil {
		return err
	}
	return o.WhatIf.Complete(o.Input.PodNamespace())
}

// Validate checks the flags; it changes nothing. Without -o, stdout must
// not be a terminal: a page of HTML is no use there.
func (o *ReportOptions) Validate() error {
	if err := o.Input.Validate(); err != nil {
		return err
	}
	if err := stdinOnce(stdinUses(o.Input, o.WhatIf)...); err != nil {
		return err
	}
	if err := o.WhatIf.Validate(); err != nil {
		return err
	}
	if o.OutFile == "" && isTerminal(o.Out) {
		return errors.New("stdout is a terminal: write the page to a file with -o FILE (e.g. -o report.html), or redirect stdout")
	}
	return nil
}

// Run loads the cluster, decides the pending pods and writes the page.
// The page shows every note and warning the command says on stderr.
func (o *ReportOptions) Run() error {
	ctx := o.context()
	o.Input.memory.Decisions()
	cfg, err := o.schedulerConfig()
	if err != nil {
		return err
	}
	var notes pipeline.Notes
	in, err := o.inputOf(ctx, cfg, &notes)
	if in != nil {
		in.Warnings = notes.Lines()
	}
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // Ctrl-C: no page, even a complete one
		return err
	}
	return o.write(in)
}

func (o *ReportOptions) schedulerConfig() (*pipeline.Config, error) {
	return pipeline.LoadConfig(o.ConfigFile)
}

// inputOf builds the page's input through the pipeline and the views: the
// dump's counts, requested, next-nodes (one round and the first cycles)
// and why -A's decisions, with their notes on notes.
func (o *ReportOptions) inputOf(ctx context.Context, cfg *pipeline.Config, notes *pipeline.Notes) (*report.Input, error) {
	edited, err := pipeline.Open(ctx, o.Input.request(o.IOStreams, o.WhatIf.pipelineEdits(), cache.Options{}), notes)
	if err != nil {
		return nil, pipelineError(err)
	}
	m := edited.Model
	profile := m.Cache.Profile()
	pipeline.NoteDecisionVersion(notes, profile.Version)
	in := &report.Input{
		Source: m.Source, Generated: o.Now(), Version: profile.Version.String(), Decisions: cache.Latest.String(),
		Nodes: m.Nodes,
	}
	if o.ConfigFile != "" {
		in.Config = cfg.Source
	}
	if edited.Applied != nil {
		in.WhatIf = &report.WhatIf{Edits: edited.Applied.Summary()}
	}
	nodeViews := func() {
		in.Requested = views.Requested(m, views.RequestedOptions{})
		in.Summary = summaryOf(in.Requested, len(m.Pending))
		in.Order = views.NodeOrder(m.Source, m.Nodes, views.NodeOrderOptions{Cycles: reportCycles, Behavior: &profile.Behavior})
	}
	if len(m.Pending) == 0 {
		nodeViews()
	} else if err := o.decidePending(ctx, edited, cfg, in, nodeViews, notes); err != nil {
		return in, err
	}
	if o.ScaleDown {
		// Last: it moves pods in the model's cache, which the views and
		// the cycles above have read.
		in.ScaleDown, err = pipeline.ScaleDown(ctx, edited, cfg, pipeline.ScaleDownRequest{Options: pipeline.DefaultScaleDownOptions(), Clock: time.Now}, notes)
	}
	return in, err
}

// decidePending fills in the decisions of the pending pods, as why -A
// makes them (and, with what-if edits, what changed), running nodeViews
// meanwhile: the views read the model's cache, the cycles a snapshot
// taken before, and on two cores the views' time is otherwise added to the
// cycles'.
func (o *ReportOptions) decidePending(ctx context.Context, edited *pipeline.Input, cfg *pipeline.Config, in *report.Input, nodeViews func(), notes *pipeline.Notes) error {
	var views sync.WaitGroup
	views.Go(nodeViews)
	defer views.Wait()
	d, err := pipeline.Decide(ctx, edited, cfg, edited.Model.Pending, pipeline.Detail{OmitNodes: true}, true, notes)
	if err != nil {
		return err
	}
	pipeline.WarnRecorded(notes, d.Report)
	views.Wait() // placing the pods together changes the cache the views read
	if d.Report.Together, err = pipeline.Together(ctx, edited, cfg, d.Verdicts, notes); err != nil {
		return err
	}
	in.Pending = d.Report
	if in.WhatIf != nil {
		in.WhatIf.Changed = d.Report.WhatIf.Changed
	}
	return nil
}

// summaryOf counts the NodeInfos, their pods and the pending pods as the
// dump's summary does, from the requested view's rows.
func summaryOf(r *v1alpha1.RequestedReport, pending int) v1alpha1.DumpSummary {
	s := v1alpha1.DumpSummary{Nodes: len(r.Nodes), Pods: r.Total.Pods, PendingPods: pending}
	for i := range r.Nodes {
		switch {
		case r.Nodes[i].Placeholder:
			s.Placeholders++
		case r.Nodes[i].Ghost:
			s.Ghosts++
		}
	}
	return s
}
