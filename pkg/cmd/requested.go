package cmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var requestedExample = `  # Requested, allocatable and free resources per node, as the scheduler accounts them
  kubectl schedcache requested

  # Fullest nodes first by cpu percentage, only workers, with free and non-zero requests
  kubectl schedcache requested --sort-by cpu% -l node-role=worker -o wide

  # The cilium pods of every namespace, with their requests on their nodes
  kubectl schedcache requested --pods -A -l k8s-app=cilium

  # Just cpu and GPUs, emptiest first; or every number exact, for a spreadsheet
  kubectl schedcache requested --resources cpu,nvidia.com/gpu --sort-by nvidia.com/gpu --reverse
  kubectl schedcache requested -o csv > requested.csv

  # Would this pod fit somewhere? Every filter runs (exit 0: yes, 1: no, 2: error)
  kubectl schedcache requested --pod-file pod.yaml
  kubectl schedcache requested --pod default/web-7d4b9

  # Follow requested resources as pods come and go (changed rows and the total)
  kubectl schedcache requested -w

  # Every pod's requests on its node, biggest first; per-namespace totals with limits
  kubectl schedcache requested --pods -n shop --sort-by cpu
  kubectl schedcache requested --by namespace --limits

  # Only cordoned nodes; only nodes with a NoSchedule taint of key dedicated
  kubectl schedcache requested --cordoned
  kubectl schedcache requested --taint dedicated:NoSchedule`

// RequestedOptions drive "requested".
type RequestedOptions struct {
	Input  *InputFlags
	Output *OutputFlags
	// Selector is -l: kubectl's meaning, the objects listed: the nodes of
	// the node view, the pods of --pods and --by namespace.
	Selector string
	// NodeSelector chooses the nodes shown (and whose pods are listed) by
	// label, in every view.
	NodeSelector string
	PodFile      string
	Pod          string
	Watch        *WatchFlags
	// The rows: per node (default), per pod (Pods), per namespace (By).
	Pods bool
	By   string
	// PodSelector chooses the pods of --pods and --by namespace by label,
	// as -l does there.
	PodSelector string
	// Node filters besides Selector.
	Taints      []string
	Untainted   bool
	Cordoned    bool
	Schedulable bool
	// Limits adds the limits alongside the requests.
	Limits bool
	// WhatIf are the what-if edits applied before fitting --pod/--pod-file.
	WhatIf *WhatIfFlags
	genericiooptions.IOStreams
	runContext

	selector    labels.Selector
	podSelector labels.Selector
	taints      []views.TaintFilter
}

// Values of --by.
const (
	byNode      = "node"
	byNamespace = "namespace"
)

// NewRequestedOptions returns RequestedOptions with defaults.
func NewRequestedOptions(streams genericiooptions.IOStreams) *RequestedOptions {
	o := &RequestedOptions{Input: NewInputFlags(), Output: NewOutputFlags().WithResources(), Watch: NewWatchFlags(), By: byNode, WhatIf: NewWhatIfFlags(), IOStreams: streams}
	// The table of the view the flags parsed so far choose, for the
	// completion of --sort-by and --columns.
	o.Output.withTable(func(t printers.TableOptions) (*printers.Table, error) {
		// The resources every node has; scalar ones depend on the cluster.
		empty := &v1alpha1.RequestedReport{Resources: []string{"cpu", "memory", "ephemeral-storage", "pods"}}
		switch {
		case o.Pods:
			return printers.RequestedPodsTable(empty, t)
		case o.By == byNamespace:
			return printers.RequestedNamespacesTable(empty, t)
		}
		return printers.RequestedTable(empty, t)
	})
	return o
}

// NewCmdRequested returns the "requested" subcommand.
func NewCmdRequested(streams genericiooptions.IOStreams) *cobra.Command {
	return newCmdRequested(NewRequestedOptions(streams))
}

func newCmdRequested(o *RequestedOptions) *cobra.Command {
	cmd := newDataCommand(&cobra.Command{
		Use:   "requested",
		Short: "Per-node requested, allocatable and free resources, and whether a pod fits",
		Long: `Print per-node requested resources exactly as kube-scheduler accounts them
(native sidecars, init containers, pod overhead, pod-level resources, in-place
resize), against allocatable, with the free amount and percentage for cpu,
memory, ephemeral-storage, pods and every extended or hugepages resource.

--pods prints a row per pod instead: its requests as the scheduler adds them to
its node (so a node's pods sum to its row), chosen by -n/-A and -l.
--by namespace sums them per namespace: each pod counted once, on the node it
is bound to, over every selected node (there is no allocatable, so no
percentage). --limits adds the limits (component-helpers resource.PodLimits;
a container without a limit adds nothing).

-l selects what the rows list, as in kubectl: nodes by their labels in the node
view, pods by theirs with --pods and --by namespace. --node-selector, --taint,
--untainted, --cordoned and --schedulable choose the nodes shown (and whose pods
are listed), in every view, and never change a node's own numbers.

With --pod or --pod-file, a FITS column says whether that pod fits each node:
every Filter plugin of kube-scheduler's default profile runs (resources, taints,
affinity, ports, volumes, topology spread…), and the exit code tells whether it
fits anywhere: 0 fits some node, 1 fits none, 2 error.`,
		Example: requestedExample,
	}, o.Input, o.Output, o)
	fl := cmd.Flags()
	fl.StringVarP(&o.Selector, "selector", "l", o.Selector, "Only the rows' objects matching this label selector: nodes (node view), pods (--pods, --by namespace)")
	fl.StringVar(&o.NodeSelector, "node-selector", o.NodeSelector, "Only nodes matching this label selector (node labels, in every view)")
	fl.StringSliceVar(&o.Taints, "taint", o.Taints, "Only nodes with a taint matching KEY[=VALUE][:EFFECT] (repeat or comma-separate: every one must match)")
	fl.BoolVar(&o.Untainted, "untainted", o.Untainted, "Only nodes without any taint")
	fl.BoolVar(&o.Cordoned, "cordoned", o.Cordoned, "Only cordoned nodes (spec.unschedulable: SchedulingDisabled in kubectl get nodes)")
	fl.BoolVar(&o.Schedulable, "schedulable", o.Schedulable, "Only nodes that are not cordoned")
	fl.BoolVar(&o.Pods, "pods", o.Pods, "One row per pod of the selected nodes (in the namespace of -n, all without it): its requests as the scheduler counts them on its node")
	fl.StringVar(&o.By, "by", o.By, "Rows per node, or per namespace: the sum of the requests of the namespace's pods on the selected nodes, each pod counted once on its node, whatever node (no allocatable, no percentage)")
	fl.StringVar(&o.PodSelector, "pod-selector", o.PodSelector, "With --pods or --by namespace: only pods matching this label selector (pod labels; as -l there)")
	fl.BoolVar(&o.Limits, "limits", o.Limits, "Show limits alongside requests: per resource a RES-LIMITS column (a node's: the sum of its pods' limits against allocatable)")
	_ = cmd.RegisterFlagCompletionFunc("by", cobra.FixedCompletions([]string{byNode, byNamespace}, cobra.ShellCompDirectiveNoFileComp))
	o.Watch.AddFlags(cmd)
	cmd.Flags().StringVar(&o.PodFile, "pod-file", o.PodFile, "Check whether the pod in this manifest fits each node")
	cmd.Flags().StringVar(&o.Pod, "pod", o.Pod, "Check whether this pod (NAMESPACE/NAME, or NAME in the current namespace) of the input fits each node")
	_ = cmd.RegisterFlagCompletionFunc("pod", completePodNames(o.Input))
	o.WhatIf.AddFlags(cmd, o.Input)
	return cmd
}

// Complete derives the node and pod selectors, the taint filters, the
// input (the objects the Filter plugins read when a pod is fitted) and the
// watch settings; f gives the live connection. It returns an error for a
// selector or taint that does not parse.
func (o *RequestedOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, _ []string) error {
	o.Watch.Complete(cmd)
	if err := completeIO(&o.runContext, o.Input, f, cmd); err != nil {
		return err
	}
	var err error
	if o.selector, o.podSelector, err = o.selectors(); err != nil {
		return err
	}
	o.taints = nil
	for _, t := range o.Taints {
		f, err := views.ParseTaintFilter(t)
		if err != nil {
			return fmt.Errorf("--taint: %w", err)
		}
		o.taints = append(o.taints, f)
	}
	o.Input.Objects = o.fitting()
	return o.WhatIf.Complete(o.Input.PodNamespace())
}

// selectors parses -l, --node-selector and --pod-selector into the node
// and pod selectors: -l is the node view's node selector and the pod
// views' pod selector; a view's selectors must all match.
func (o *RequestedOptions) selectors() (nodes, pods labels.Selector, err error) {
	parse := func(flag, s string) (labels.Selector, error) {
		sel, err := labels.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("invalid %s %q: %w", flag, s, err)
		}
		return sel, nil
	}
	sel, err := parse("--selector", o.Selector)
	if err != nil {
		return nil, nil, err
	}
	if nodes, err = parse("--node-selector", o.NodeSelector); err != nil {
		return nil, nil, err
	}
	if pods, err = parse("--pod-selector", o.PodSelector); err != nil {
		return nil, nil, err
	}
	reqs, _ := sel.Requirements()
	if o.podRows() {
		return nodes, pods.Add(reqs...), nil
	}
	return nodes.Add(reqs...), pods, nil
}

// Validate checks flag combinations; it changes nothing.
func (o *RequestedOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	if o.Pod != "" && o.PodFile != "" {
		return errors.New("--pod and --pod-file cannot be used together")
	}
	if err := stdinOnce(stdinUses(o.Input, o.WhatIf, stdinUse{"--pod-file", []string{o.PodFile}})...); err != nil {
		return err
	}
	if err := o.validateViews(); err != nil {
		return err
	}
	if o.WhatIf.Given() && !o.fitting() {
		return errors.New("the what-if edits (--cordon, --uncordon, --remove-node, --add-node, --add-node-file, --evict) need --pod or --pod-file")
	}
	if o.Watch.Watch && o.fitting() {
		return errors.New("--watch does not combine with --pod or --pod-file")
	}
	if o.Watch.Watch && (o.podRows() || o.Limits) {
		return errors.New("--watch does not combine with --pods, --by namespace or --limits")
	}
	return o.Watch.Validate(o.Input)
}

// validateViews checks the view and node filter flags.
func (o *RequestedOptions) validateViews() error {
	switch {
	case o.By != byNode && o.By != byNamespace:
		return fmt.Errorf("invalid --by %q: valid values are %s, %s", o.By, byNode, byNamespace)
	case o.Pods && o.By == byNamespace:
		return errors.New("--pods and --by namespace cannot be used together: choose one view")
	case o.podRows() && o.fitting():
		return errors.New("--pods and --by namespace do not combine with --pod or --pod-file")
	case o.PodSelector != "" && !o.podRows():
		return errors.New("--pod-selector needs --pods or --by namespace (in the node view -l selects nodes)")
	case o.Cordoned && o.Schedulable:
		return errors.New("--cordoned and --schedulable cannot be used together")
	case o.Untainted && len(o.Taints) > 0:
		return errors.New("--untainted and --taint cannot be used together")
	}
	return nil
}

// podRows reports the pod or namespace view.
func (o *RequestedOptions) podRows() bool { return o.Pods || o.By == byNamespace }

// Run loads the cluster and prints the report. With a pod to fit, an error
// exits 2 and "fits no node" exits 1. With --watch it then follows the
// cluster.
func (o *RequestedOptions) Run() error {
	if o.Watch.Watch {
		return runWatch(o.context(), o.Input, o.Output, o.Watch, o.IOStreams, requestedWatchView(o))
	}
	if o.fitting() {
		o.Input.memory.Decisions()
	}
	err := o.run(o.context())
	if err != nil && o.fitting() && ExitCode(err) == ExitError && !errors.Is(err, errFitsNoNode) {
		return &exitError{code: ExitUsage, err: err}
	}
	return err
}

var errFitsNoNode = errors.New("the pod passes kube-scheduler's filters on no node")

func (o *RequestedOptions) fitting() bool { return o.Pod != "" || o.PodFile != "" }

func (o *RequestedOptions) run(ctx context.Context) error {
	var notes pipeline.Notes
	in, err := o.WhatIf.load(ctx, o.Input, o.IOStreams, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	cluster, m := in.Cluster, in.Model
	fit, err := o.fitPod(m)
	if err != nil {
		return err
	}
	if fit != nil {
		noteDecisionVersion(o.ErrOut, m.Cache.Profile().Version)
	}
	r := views.Requested(m, o.viewOptions())
	r.WhatIf = o.WhatIf.report()
	if o.podRows() {
		return o.printPodRows(r)
	}
	warnEmptyNamespace(o.ErrOut, m, o.Input.Namespace())
	if len(r.Nodes) == 0 && o.Output.rowsOutput() && fit == nil {
		// As kubectl get: no table, not even a lone TOTAL row.
		noResourcesFound(o.ErrOut, "")
		return nil
	}
	if fit != nil {
		if err := o.withFits(ctx, r, m, cluster.Objects, fit); err != nil {
			return err
		}
	}
	table := func(t printers.TableOptions) (*printers.Table, error) { return printers.RequestedTable(r, t) }
	if err := o.Output.PrintTable(o.Out, r, table, nil); err != nil {
		return err
	}
	if r.Pod == nil {
		return nil
	}
	fmt.Fprintln(o.ErrOut, printers.FitSummary(r))
	if r.Pod.FitsNodes == 0 {
		// The summary line above says it; exit 1 without an error line.
		return &exitError{code: ExitError, err: errFitsNoNode, silent: true}
	}
	return nil
}

// withFits evaluates pod with kube-scheduler's filters on every node and
// adds a FITS verdict per node to r. A pod bound to a node is evaluated as
// if it were pending: a copy without spec.nodeName and status, against the
// cluster without the pod (its requests are not counted twice); r, made
// before, still counts it where it is.
func (o *RequestedOptions) withFits(ctx context.Context, r *v1alpha1.RequestedReport, m *model.Model, objects []runtime.Object, pod *v1.Pod) error {
	if pod.Spec.NodeName != "" {
		if err := m.Cache.RemovePod(pod); err != nil {
			return err
		}
		fmt.Fprintf(o.ErrOut, "note: pod %s/%s is bound to node %s; it is evaluated as if it were pending, without its own requests on that node\n", oneLine(pod.Namespace), oneLine(pod.Name), oneLine(pod.Spec.NodeName))
		pod = asPending(pod)
	}
	var notes pipeline.Notes
	err := pipeline.Fits(ctx, r, m, objects, pod, &notes)
	printNotes(o.ErrOut, &notes)
	return err
}

// asPending is a bound pod as it was before scheduling: no node, no status.
func asPending(pod *v1.Pod) *v1.Pod {
	p := pod.DeepCopy()
	p.Spec.NodeName = ""
	p.Status = v1.PodStatus{}
	return p
}

// fitPod resolves --pod-file or --pod to the pod to check, or nil.
func (o *RequestedOptions) fitPod(m *model.Model) (*v1.Pod, error) {
	if o.PodFile != "" {
		// A workload: one replica of it, as its controller would create it.
		w, err := readPodFile(o.PodFile, o.In, o.Input, o.ErrOut)
		if err != nil {
			return nil, err
		}
		pods, _, err := w.Replicas(1, m.Nodes[:min(1, len(m.Nodes))], nil)
		if err != nil || len(pods) == 0 {
			return nil, fmt.Errorf("--pod-file %s: no pod to check: %v", oneLine(o.PodFile), err)
		}
		load.DefaultPod(pods[0])
		return pods[0], nil
	}
	if o.Pod == "" {
		return nil, nil
	}
	return o.findPod(m)
}

// viewOptions are the view's node filters and rows.
func (o *RequestedOptions) viewOptions() views.RequestedOptions {
	v := views.RequestedOptions{
		Selector: o.selector, Taints: o.taints, Untainted: o.Untainted,
		Pods: o.Pods, ByNamespace: o.By == byNamespace, Namespace: o.Input.Namespace(), PodSelector: o.podSelector,
		Limits: o.Limits,
	}
	if o.Cordoned || o.Schedulable {
		v.Cordoned = &o.Cordoned
	}
	return v
}

// printPodRows prints the pod or namespace view; no row is kubectl's "No
// resources found" on stderr, exit 0.
func (o *RequestedOptions) printPodRows(r *v1alpha1.RequestedReport) error {
	table := printers.RequestedPodsTable
	empty := len(r.Pods) == 0
	if o.By == byNamespace {
		table, empty = printers.RequestedNamespacesTable, len(r.Namespaces) == 0
	}
	if empty && o.Output.rowsOutput() {
		noResourcesFound(o.ErrOut, o.Input.Namespace())
		return nil
	}
	return o.Output.PrintTable(o.Out, r, func(t printers.TableOptions) (*printers.Table, error) { return table(r, t) }, nil)
}
