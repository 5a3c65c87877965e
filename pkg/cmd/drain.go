package cmd

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var drainExample = `  # Is it safe to drain node-3? Where would its pods go?
  kubectl schedcache drain node-3 --ignore-daemonsets

  # A node-pool upgrade: every node of the pool at once, as kubectl drain -l does
  kubectl schedcache drain -l pool=blue --ignore-daemonsets --delete-emptydir-data

  # From kubectl get -o yaml output instead of the live cluster
  kubectl schedcache drain node-3 --ignore-daemonsets -f cluster.yaml

  # The verdict only, for a script (exit code 0: safe, 1: not safe)
  kubectl schedcache drain node-3 --ignore-daemonsets -o jsonpath='{.verdict}'`

// DrainOptions drive "drain".
type DrainOptions struct {
	Input      *InputFlags
	Output     *OutputFlags
	ConfigFile string
	// Nodes are the NODE arguments; Selector (-l) selects nodes by label.
	Nodes    []string
	Selector string
	// Rules are kubectl drain's flags: --force, --ignore-daemonsets,
	// --delete-emptydir-data, --pod-selector.
	Rules pipeline.DrainRules
	// IncludePending also places the pods that were Pending before the
	// drain, in the queue with the replacements.
	IncludePending bool
	// Timeout is kubectl drain's --timeout: 0 waits for ever on a node
	// whose pods a disruption budget holds back.
	Timeout time.Duration
	// WhatIf are the what-if edits applied to the input before the drain.
	WhatIf *WhatIfFlags
	genericiooptions.IOStreams
	runContext
	// now gives the drain's time (the evicted pods' deletion timestamp).
	now func() time.Time
}

// NewDrainOptions returns DrainOptions with defaults.
func NewDrainOptions(streams genericiooptions.IOStreams) *DrainOptions {
	return &DrainOptions{Input: NewInputFlags().withoutNamespace(), Output: NewOutputFlags().withTable(func(printers.TableOptions) (*printers.Table, error) {
		return printers.DrainTable(&v1alpha1.DrainReport{}), nil
	}), IOStreams: streams, WhatIf: NewWhatIfFlags(), now: time.Now}
}

// NewCmdDrain returns the "drain" subcommand.
func NewCmdDrain(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewDrainOptions(streams)
	cmd := newDataCommand(&cobra.Command{
		Use:   "drain NODE... [-l SELECTOR]",
		Short: "A dry run of kubectl drain, then kube-scheduler: which pods block, and where the evicted ones land",
		Long: `A dry run of "kubectl drain NODE..." followed by kube-scheduler v1.36 placing the
evicted pods' replacements. Nothing is written to the cluster.

The nodes are cordoned. kubectl drain's own rules (k8s.io/kubectl/pkg/drain,
same flags and texts) decide which pods are evicted and which block the drain:
DaemonSet-managed pods, pods without a controller and pods with emptyDir data
block unless --ignore-daemonsets, --force or --delete-emptydir-data is given;
mirror pods stay. A node with a blocking pod is not drained at all, as kubectl
stops there. PodDisruptionBudgets act as the eviction API applies them: a
budget that allows no disruption blocks its pods; one that allows some lets
them go one allowance at a time, each replacement the scheduler places giving
one back, each that stays Pending keeping it.

Each evicted pod's controller recreates it (same spec, no node); the
replacements enter the scheduling queue (priority, then eviction order) and
are placed one after another, each assumed before the next, by the scheduler's
own cycle (default profile or --config). Pods Pending before the drain keep
their state unless --include-pending.

The nodes are drained one after another, in the order given, as kubectl
does: a node's replacements are placed before the next node's pods are
evicted. A node whose pods a budget holds back stops the drain there, unless
--timeout is given: kubectl then gives up on it and goes on.

Prints one row per pod (POD FROM RESULT NODE MESSAGE), what blocks the drain
first, the pods kept only because others block their node folded into one line
per node (-o json lists every pod), and the verdict on stderr. Exit codes: 0
safe (every evicted pod lands, nothing blocks), 1 not safe, 2 error.`,
		Example:           drainExample,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeNodeNames(o.Input),
	}, o.Input, o.Output, o)
	f := cmd.Flags()
	f.StringVarP(&o.Selector, "selector", "l", o.Selector, "Drain the nodes with these labels (kubectl drain's -l)")
	f.BoolVar(&o.Rules.Force, "force", o.Rules.Force, "Continue even if there are pods that do not declare a controller (kubectl drain's --force)")
	f.BoolVar(&o.Rules.IgnoreDaemonSets, "ignore-daemonsets", o.Rules.IgnoreDaemonSets, "Ignore DaemonSet-managed pods (kubectl drain's --ignore-daemonsets)")
	f.BoolVar(&o.Rules.DeleteEmptyDirData, "delete-emptydir-data", o.Rules.DeleteEmptyDirData, "Continue even if there are pods using emptyDir (kubectl drain's --delete-emptydir-data)")
	f.StringVar(&o.Rules.PodSelector, "pod-selector", o.Rules.PodSelector, "Label selector to filter pods on the node (kubectl drain's --pod-selector)")
	f.BoolVar(&o.IncludePending, "include-pending", o.IncludePending, "Also place the pods that were Pending before the drain, in the queue with the replacements")
	f.DurationVar(&o.Timeout, "timeout", o.Timeout, "kubectl drain's --timeout: give up on a node whose pods a disruption budget holds back and go on with the next one (0: wait for ever)")
	f.StringVar(&o.ConfigFile, "config", o.ConfigFile, "A KubeSchedulerConfiguration (v1) file: profiles, plugin weights and arguments, percentageOfNodesToScore")
	o.WhatIf.AddFlags(cmd, o.Input)
	return cmd
}

// Complete takes the NODE arguments and has the input carry what drain
// reads besides nodes and pods: the scheduling kinds, DaemonSets (kubectl's
// DaemonSet rule) and the pods' emptyDir volumes (its local-storage rule).
func (o *DrainOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, args []string) error {
	o.Nodes = args
	o.Input.Objects = true
	o.Input.ExtraKinds = []load.SchedulingKind{load.DaemonSetKind()}
	o.Input.KeepEmptyDir = true
	if err := completeIO(&o.runContext, o.Input, f, cmd); err != nil {
		return err
	}
	return o.WhatIf.Complete(o.Input.PodNamespace())
}

// Validate checks flag combinations; it changes nothing.
func (o *DrainOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	if err := stdinOnce(stdinUses(o.Input, o.WhatIf)...); err != nil {
		return err
	}
	if err := o.WhatIf.Validate(); err != nil {
		return err
	}
	if len(o.Nodes) == 0 && o.Selector == "" {
		return errors.New("give NODE arguments or -l/--selector")
	}
	if len(o.Nodes) > 0 && o.Selector != "" {
		return errors.New("cannot specify both NODE arguments and -l/--selector")
	}
	if _, err := labels.Parse(o.Selector); err != nil {
		return fmt.Errorf("-l/--selector: %w", err)
	}
	if _, err := labels.Parse(o.Rules.PodSelector); err != nil {
		return fmt.Errorf("--pod-selector: %w", err)
	}
	if o.Timeout < 0 {
		return fmt.Errorf("--timeout: %v is negative", o.Timeout)
	}
	return nil
}

// errNotSafe: the drain would block or leave pods Pending (exit 1).
var errNotSafe = errors.New("the drain is not safe")

// Run loads the cluster, drains the nodes in the model and prints the
// report.
func (o *DrainOptions) Run() error {
	return decisionExit(o.run(o.context()), errNotSafe)
}

func (o *DrainOptions) run(ctx context.Context) error {
	o.Input.memory.Decisions()
	cfg, err := pipeline.LoadConfig(o.ConfigFile)
	if err != nil {
		return err
	}
	// The what-if edits (--cordon, --add-node, …) apply to the input
	// before the drain is planned: "drain X once Y is added".
	var notes pipeline.Notes
	in, err := o.WhatIf.load(ctx, o.Input, o.IOStreams, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	nodes, err := o.drainedNodes(in.Model)
	if err != nil {
		return err
	}
	rules := o.Rules
	rules.DaemonSetsComplete = len(o.Input.Filenames) == 0 && !unlisted(in.Cluster, "DaemonSet")
	report, err := pipeline.Drain(ctx, in, cfg, pipeline.DrainRequest{Nodes: nodes, Rules: rules,
		IncludePending: o.IncludePending, Now: o.now(), Timeout: o.Timeout}, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	table := func(printers.TableOptions) (*printers.Table, error) { return printers.DrainTable(report), nil }
	if err := o.Output.PrintTable(o.Out, report, table, nil); err != nil {
		return err
	}
	fmt.Fprintln(o.ErrOut, report.Verdict)
	if !report.Safe {
		return &exitError{code: ExitError, err: errNotSafe, silent: true}
	}
	return nil
}

// drainedNodes resolves the NODE arguments, or selects the nodes -l
// matches, in the order given (selected ones by name, as the API server
// lists them). A node that
// does not exist is an error, as for kubectl drain.
func (o *DrainOptions) drainedNodes(m *model.Model) ([]string, error) {
	if o.Selector != "" {
		sel, err := labels.Parse(o.Selector)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, n := range m.Nodes {
			if sel.Matches(labels.Set(n.Labels)) {
				out = append(out, n.Name)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no nodes match the selector %q", o.Selector)
		}
		// kubectl drain -l drains them in the API server's list order:
		// by name, whatever the order of a file.
		sort.Strings(out)
		return out, nil
	}
	have := make(map[string]bool, len(m.Nodes))
	for _, n := range m.Nodes {
		have[n.Name] = true
	}
	var out, missing []string
	seen := map[string]bool{}
	for _, name := range o.Nodes {
		switch {
		case !have[name]:
			missing = append(missing, fmt.Sprintf("nodes %q not found", name))
		case !seen[name]:
			seen[name] = true
			out = append(out, name)
		}
	}
	if len(missing) > 0 {
		return nil, errors.New(strings.Join(missing, "; "))
	}
	return out, nil
}

// unlisted reports whether the listing could not read kind.
func unlisted(c *load.Cluster, kind string) bool {
	for _, k := range c.Unlisted {
		if k.Kind == kind {
			return true
		}
	}
	return false
}
