package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var whyExample = `  # Why are the pending pods of the current namespace Pending, and where would they go?
  kubectl schedcache why

  # Every pending pod of the cluster, one line each
  kubectl schedcache why -A

  # One pod in detail: each node's scores, or the filter that rejected it
  kubectl schedcache why -n shop checkout-7d4b9

  # Decide with the cluster's own scheduler configuration (profiles, weights)
  kubectl schedcache why -A --config /etc/kubernetes/scheduler-config.yaml

  # From kubectl get -o yaml output instead of the live cluster
  kubectl schedcache why -A -f cluster.yaml

  # How many replicas of this Deployment would fit, and where? (10 of them)
  kubectl schedcache why --pod-file deployment.yaml --replicas 10

  # Which node group, and how many new nodes of it, would the pending pods need?
  kubectl schedcache why -A --scale-up`

// WhyOptions drive "why".
type WhyOptions struct {
	Input       *InputFlags
	Output      *OutputFlags
	ConfigFiles []string
	// Pods are the POD arguments: NAME or pod/NAME (in the namespace of -n
	// or the kubeconfig context), or NAMESPACE/NAME (parsePodRef).
	Pods []string
	// PodFile holds a Pod or a workload whose replicas are placed one after
	// the other (Replicas of them; -1: the workload's own count).
	PodFile  string
	Replicas int
	// WhatIf are the what-if edits and --until-fits.
	WhatIf *WhatIfFlags
	// ScaleUp: --scale-up (why_scaleup.go).
	ScaleUp bool
	// ShowNodes keeps every evaluated node's result in the structured
	// output of a run without POD arguments, and every near miss.
	ShowNodes bool
	// Selector is -l: without POD arguments, only the pending pods whose
	// labels match.
	Selector string
	// evaluateEach: --evaluate-each (why_share.go).
	evaluateEach bool
	genericiooptions.IOStreams
	runContext

	selector labels.Selector
}

// NewWhyOptions returns WhyOptions with defaults.
func NewWhyOptions(streams genericiooptions.IOStreams) *WhyOptions {
	return &WhyOptions{Input: NewInputFlags().withSchedulerLog(), Output: NewOutputFlags().withTable(func(printers.TableOptions) (*printers.Table, error) {
		return printers.SchedulingTable(&v1alpha1.SchedulingReport{}), nil
	}), Replicas: -1, WhatIf: NewWhatIfFlags(), IOStreams: streams}
}

// NewCmdWhy returns the "why" subcommand.
func NewCmdWhy(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewWhyOptions(streams)
	cmd := newDataCommand(&cobra.Command{
		Use:   "why [POD...]",
		Short: "Why pods are Pending: what kube-scheduler decides for each, and where it would put them",
		Long: `Run kube-scheduler v1.36's own scheduling cycle (its framework and in-tree plugins,
default profile or --config) for pending pods, against the cluster as it is now,
as if each were the next pod the scheduler takes. For each pod: scheduled (and
the node), unschedulable (with the FailedScheduling message, verbatim, and what
preemption would do), gated (scheduling gates) or skipped. For one pod, or with
-o wide, every evaluated node: its score per Score plugin, or the Filter plugin
that rejected it and why; for an unschedulable pod, the nodes nearest to taking
it with every Filter plugin that rejects it there (this tool's analysis; the
scheduler stops at the first). When the pod records the cluster's scheduler's
own verdict and it differs, both are shown.

-o json|yaml without POD arguments gives each pod's diagnosis (nodes rejected
per plugin, the top scored nodes, a few near misses); --show-nodes adds every
node's result, as for named pods.

POD is NAME, pod/NAME (kubectl's TYPE/NAME) or NAMESPACE/NAME. Without POD
arguments: the pending pods of the namespace (-n, or the kubeconfig
context's), or of every namespace with -A, matching -l if given. Nothing is
ever written to the cluster: preemption reports the pods it would evict.

--scale-up answers per node group instead: how many new nodes like one of the
group's nodes schedule the pods, or why the group cannot take them, and which
group cluster-autoscaler's least-waste expander would grow (exit 1 when none
can take them).

Exit codes: 0 every pod would be scheduled (or was skipped), 1 some pod is
unschedulable or gated, 2 error.`,
		Example:           whyExample,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completePendingPods(o.Input),
	}, o.Input, o.Output, o)
	cmd.Flags().Lookup("all-namespaces").Usage = "Every pending pod of the cluster, whatever its namespace"
	cmd.Flags().StringArrayVar(&o.ConfigFiles, "config", o.ConfigFiles, "A KubeSchedulerConfiguration (v1) file: profiles, plugin weights and arguments, percentageOfNodesToScore; with --pod-file, repeat it to compare configurations side by side")
	cmd.Flags().StringVar(&o.PodFile, "pod-file", o.PodFile, "A Pod, Deployment, ReplicaSet, StatefulSet, Job, CronJob or DaemonSet: place its replicas one after the other and say how many fit, and where")
	cmd.Flags().IntVar(&o.Replicas, "replicas", o.Replicas, "With --pod-file, how many replicas to place; -1: the workload's own count (a DaemonSet: one per node)")
	o.WhatIf.AddFlags(cmd, o.Input)
	o.WhatIf.addUntilFits(cmd)
	o.addScaleUpFlag(cmd)
	cmd.Flags().StringVarP(&o.Selector, "selector", "l", o.Selector, "Only the pending pods matching this label selector (without POD arguments)")
	cmd.Flags().BoolVar(&o.ShowNodes, "show-nodes", o.ShowNodes, "Keep every evaluated node's result in -o json|yaml without POD arguments (large: per pod x per node), and list every rejected node's near miss, not 5")
	o.addEvaluateEachFlag(cmd)
	return cmd
}

// Complete takes the POD arguments and has the input carry the objects
// kube-scheduler's plugins read (from -f, or listed); f gives the live
// connection.
func (o *WhyOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, args []string) error {
	o.Pods = args
	o.Input.Objects = true
	o.completeScaleUp()
	if err := completeIO(&o.runContext, o.Input, f, cmd); err != nil {
		return err
	}
	sel, err := labels.Parse(o.Selector)
	if err != nil {
		return fmt.Errorf("invalid --selector %q: %w", o.Selector, err)
	}
	o.selector = sel
	return o.WhatIf.Complete(o.Input.PodNamespace())
}

// Validate checks flag combinations; it changes nothing.
func (o *WhyOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	if o.Input.AllNamespaces && len(o.Pods) > 0 {
		return errors.New("-A/--all-namespaces cannot be used with POD arguments")
	}
	if o.PodFile != "" && (len(o.Pods) > 0 || o.Input.AllNamespaces) {
		return errors.New("--pod-file cannot be used with POD arguments or -A")
	}
	if err := stdinOnce(stdinUses(o.Input, o.WhatIf, stdinUse{"--pod-file", []string{o.PodFile}})...); err != nil {
		return err
	}
	if o.Selector != "" && (len(o.Pods) > 0 || o.PodFile != "") {
		return errors.New("-l/--selector chooses among the pending pods: it cannot be used with POD arguments or --pod-file")
	}
	if o.ShowNodes && o.PodFile != "" {
		return errors.New("--show-nodes cannot be used with --pod-file")
	}
	if o.PodFile == "" && o.Replicas != -1 {
		return errors.New("--replicas needs --pod-file")
	}
	if o.Replicas < -1 {
		return fmt.Errorf("--replicas must not be negative, got %d", o.Replicas)
	}
	if err := o.validateConfigs(); err != nil {
		return err
	}
	if err := o.validateScaleUp(); err != nil {
		return err
	}
	return o.validateWhatIf()
}

// errNotScheduled: some pod would stay Pending (exit 1).
var errNotScheduled = errors.New("some pods would not be scheduled")

// Run loads the cluster, evaluates the pods and prints the report.
func (o *WhyOptions) Run() error {
	return decisionExit(o.run(o.context()), errNotScheduled)
}

func (o *WhyOptions) run(ctx context.Context) error {
	o.Input.memory.Decisions()
	if len(o.ConfigFiles) > 1 {
		return o.compareConfigs(ctx)
	}
	cfg, err := o.schedulerConfig()
	if err != nil {
		return err
	}
	var notes pipeline.Notes
	in, err := o.WhatIf.load(ctx, o.Input, o.IOStreams, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	cluster, m := in.Cluster, in.Model
	noteDecisionVersion(o.ErrOut, m.Cache.Profile().Version)
	if o.WhatIf.UntilFits {
		return o.runUntilFits(ctx, in, cfg)
	}
	if o.ScaleUp {
		return o.runScaleUp(ctx, in, cfg)
	}
	if o.PodFile != "" {
		return o.runReplicas(ctx, m, cluster.Objects, cfg)
	}
	targets, err := o.targets(m)
	if err != nil {
		return err
	}
	if len(targets) == 0 {
		return nil
	}
	var after pipeline.Notes
	d, err := pipeline.Decide(ctx, in, cfg, targets, o.detail(), len(o.Pods) == 0, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	if len(o.Pods) == 0 {
		// The pending pods selected, each judged alone: can they all be
		// placed together?
		if d.Report.Together, err = pipeline.Together(ctx, in, cfg, d.Verdicts, &after); err != nil {
			return err
		}
	}
	return o.print(d.Report, &after)
}

// print writes report as -o asks, the recorded verdicts that differ on
// stderr when the output does not show them, the notes after, and the
// summary line; exit code 1 when a pod would stay Pending.
func (o *WhyOptions) print(report *v1alpha1.SchedulingReport, after *pipeline.Notes) error {
	var detail func(printers.TableOptions) error
	if o.Output.Wide() || len(o.Pods) == 1 {
		detail = func(t printers.TableOptions) error { return printers.PrintSchedulingDetails(o.Out, report, t) }
	}
	table := func(printers.TableOptions) (*printers.Table, error) { return printers.SchedulingTable(report), nil }
	if err := o.Output.PrintTable(o.Out, report, table, detail); err != nil {
		return err
	}
	if detail == nil || !o.Output.IsTable() {
		var notes pipeline.Notes
		pipeline.WarnRecorded(&notes, report)
		printNotes(o.ErrOut, &notes)
	}
	if after != nil {
		printNotes(o.ErrOut, after)
	}
	fmt.Fprintln(o.ErrOut, summary(report))
	return outcome(report)
}

// showsNodes reports whether the output has per-node results: the detail
// of one pod or -o wide, and the structured formats of named pods or with
// --show-nodes. The one-row-per-pod table and the diagnosis of -A's JSON
// do not, so the verdicts need not keep them (at 5,000 nodes they would be
// most of the memory and the output of "why -A").
func (o *WhyOptions) showsNodes() bool {
	return o.Output.Wide() || len(o.Pods) == 1 || (!o.Output.rowsOutput() && (len(o.Pods) > 0 || o.ShowNodes))
}

// nearMissNodes is how many near misses each unschedulable pod's verdict
// keeps: none for the one-row-per-pod table, every rejected node with
// --show-nodes, else a few.
func (o *WhyOptions) nearMissNodes() int {
	switch {
	case o.Output.rowsOutput() && !o.Output.Wide() && len(o.Pods) != 1:
		return 0
	case o.ShowNodes:
		return -1
	}
	return nearMissesShown
}

// nearMissesShown is how many nodes a near-miss summary names.
const nearMissesShown = 5

func (o *WhyOptions) schedulerConfig() (*pipeline.Config, error) {
	if len(o.ConfigFiles) == 0 {
		return pipeline.LoadConfig("")
	}
	return pipeline.LoadConfig(o.ConfigFiles[0])
}

// detail is how much of each verdict the output shows.
func (o *WhyOptions) detail() pipeline.Detail {
	return pipeline.Detail{OmitNodes: !o.showsNodes(), NearMisses: o.nearMissNodes(), EvaluateEach: o.evaluateEach}
}

// outcome maps the decisions to the exit status: 1, silently, when a pod
// would stay Pending (unschedulable or gated).
func outcome(r *v1alpha1.SchedulingReport) error {
	for i := range r.Pods {
		if res := r.Pods[i].Result; res == resultUnschedulable || res == resultGated {
			return &exitError{code: ExitError, err: errNotScheduled, silent: true}
		}
	}
	return nil
}

// The results of a PodDecision (v1alpha1), in the summary's order.
const (
	resultScheduled     = "scheduled"
	resultUnschedulable = "unschedulable"
	resultGated         = "gated"
	resultSkipped       = "skipped"
)

// summary counts the decisions by result, e.g. "4 pods: 1 scheduled, 3
// unschedulable".
func summary(r *v1alpha1.SchedulingReport) string {
	counts := map[string]int{}
	for i := range r.Pods {
		counts[r.Pods[i].Result]++
	}
	var parts []string
	for _, res := range []string{resultScheduled, resultUnschedulable, resultGated, resultSkipped} {
		if counts[res] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[res], res))
		}
	}
	noun := "pods"
	if len(r.Pods) == 1 {
		noun = "pod"
	}
	return fmt.Sprintf("%d %s: %s", len(r.Pods), noun, strings.Join(parts, ", "))
}

// targets resolves the POD arguments, or selects the pending pods of the
// namespace (every namespace with -A).
func (o *WhyOptions) targets(m *model.Model) ([]*v1.Pod, error) {
	ns := o.Input.PodNamespace()
	if len(o.Pods) == 0 {
		var out []*v1.Pod
		for _, p := range m.Pending {
			if (o.Input.AllNamespaces || p.Namespace == ns) && (o.selector == nil || o.selector.Matches(labels.Set(p.Labels))) {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			// As kubectl get: stderr, exit 0.
			if o.Input.AllNamespaces {
				ns = ""
			}
			noPendingPods(o.ErrOut, m.Pending, ns, o.selector)
		}
		return out, nil
	}
	var out []*v1.Pod
	var missing []string
	for _, arg := range o.Pods {
		podNS, name, err := parsePodRef(arg, ns)
		if err != nil {
			return nil, usageError(err)
		}
		p := findModelPod(m, podNS, name)
		if p == nil {
			missing = append(missing, fmt.Sprintf("pods %q not found in %s namespace", name, podNS))
			continue
		}
		out = append(out, p)
	}
	if len(missing) > 0 {
		return nil, errors.New(strings.Join(missing, "; "))
	}
	return out, nil
}

// findModelPod looks a pod up among the pending pods, then the cached ones.
func findModelPod(m *model.Model, ns, name string) *v1.Pod {
	for _, p := range m.Pending {
		if p.Namespace == ns && p.Name == name {
			return p
		}
	}
	return cachedPod(m, func(p *v1.Pod) bool { return p.Namespace == ns && p.Name == name })
}
