package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var scaleDownExample = `  # Which nodes could cluster-autoscaler remove now, and what holds the others back?
  kubectl schedcache scale-down

  # Only the nodes of one pool, from kubectl get -o yaml output
  kubectl schedcache scale-down -l cloud.google.com/gke-nodepool=batch -f cluster.yaml

  # The removable nodes only, in removal order (exit code 0: some, 1: none)
  kubectl schedcache scale-down -o jsonpath='{.removable}'`

// ScaleDownOptions drive "scale-down".
type ScaleDownOptions struct {
	Input      *InputFlags
	Output     *OutputFlags
	ConfigFile string
	// Nodes are the NODE arguments; Selector (-l) selects nodes by label.
	// Neither: every node.
	Nodes    []string
	Selector string
	// Options are cluster-autoscaler's scale-down flags.
	Options pipeline.ScaleDownOptions
	// WhatIf are the what-if edits applied to the input first.
	WhatIf *WhatIfFlags
	genericiooptions.IOStreams
	runContext
	// now reads the clock for the time budget.
	now func() time.Time
}

// NewScaleDownOptions returns ScaleDownOptions with cluster-autoscaler's
// defaults.
func NewScaleDownOptions(streams genericiooptions.IOStreams) *ScaleDownOptions {
	return &ScaleDownOptions{Input: NewInputFlags().withoutNamespace(), Output: NewOutputFlags().withTable(func(printers.TableOptions) (*printers.Table, error) {
		return printers.ScaleDownTable(&v1alpha1.ScaleDownReport{}), nil
	}), Options: pipeline.DefaultScaleDownOptions(), IOStreams: streams, WhatIf: NewWhatIfFlags(), now: time.Now}
}

// NewCmdScaleDown returns the "scale-down" subcommand.
func NewCmdScaleDown(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewScaleDownOptions(streams)
	cmd := newDataCommand(&cobra.Command{
		Use:   "scale-down [NODE...|-l SELECTOR]",
		Short: "Which nodes cluster-autoscaler could remove now, each moved pod placed by kube-scheduler",
		Long: `Which nodes could be removed now without any pod going Pending, decided the way
cluster-autoscaler's scale-down decides it, with kube-scheduler v1.36's own cycle
placing every moved pod. Nothing is written to the cluster.

A node is a candidate when its utilization (the highest of its pods' cpu and
memory requests over allocatable; the GPU's on a GPU node; DaemonSet and mirror
pods counted) is below --utilization-threshold and it is not annotated
cluster-autoscaler.kubernetes.io/scale-down-disabled=true. A candidate stays when
one of its pods can never move: no controller, a kube-system pod without a
PodDisruptionBudget, safe-to-evict "false", local storage (emptyDir, hostPath)
unless safe-to-evict "true", or a budget with no disruption left (allowances
are used up across the nodes removed).

Candidates are examined one at a time, empty ones first, then by name: the
node leaves the cluster and its pods' replacements are placed by the
scheduler's full cycle on the nodes that stay, the pods of the nodes removed
before where they landed. A pod that finds no place keeps its node, with its
FailedScheduling message. Node groups (GKE, EKS, AKS, Karpenter labels, else
the instance type) keep the minimum size cluster-autoscaler's status ConfigMap
gives. The work is bounded as cluster-autoscaler bounds it; the table says
which candidates were not examined.

Exit codes: 0 some node removable, 1 none, 2 error.`,
		Example:           scaleDownExample,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeNodeNames(o.Input),
	}, o.Input, o.Output, o)
	f := cmd.Flags()
	so := &o.Options
	f.StringVarP(&o.Selector, "selector", "l", o.Selector, "Consider only the nodes with these labels for removal")
	f.Float64Var(&so.UtilizationThreshold, "utilization-threshold", so.UtilizationThreshold, "A node is a candidate below this utilization, 0 to 1 (--scale-down-utilization-threshold)")
	f.Float64Var(&so.GPUUtilizationThreshold, "gpu-utilization-threshold", so.GPUUtilizationThreshold, "The same for GPU nodes (--scale-down-gpu-utilization-threshold)")
	f.BoolVar(&so.IgnoreDaemonSetsUtilization, "ignore-daemonsets-utilization", so.IgnoreDaemonSetsUtilization, "Leave DaemonSet pods out of the utilization")
	f.BoolVar(&so.IgnoreMirrorPodsUtilization, "ignore-mirror-pods-utilization", so.IgnoreMirrorPodsUtilization, "Leave mirror pods out of the utilization")
	f.BoolVar(&so.SkipNodesWithSystemPods, "skip-nodes-with-system-pods", so.SkipNodesWithSystemPods, "kube-system pods without a PodDisruptionBudget block their node")
	f.BoolVar(&so.SkipNodesWithLocalStorage, "skip-nodes-with-local-storage", so.SkipNodesWithLocalStorage, "Pods with emptyDir or hostPath volumes block their node")
	f.BoolVar(&so.SkipNodesWithCustomControllerPods, "skip-nodes-with-custom-controller-pods", so.SkipNodesWithCustomControllerPods, "Pods of controllers other than ReplicaSet, StatefulSet, Job, ReplicationController block their node")
	f.Float64Var(&so.PoolRatio, "scale-down-candidates-pool-ratio", so.PoolRatio, "Examine at most this share of the nodes as non-empty candidates (1: all)")
	f.IntVar(&so.PoolMinCount, "scale-down-candidates-pool-min-count", so.PoolMinCount, "Examine at least this many non-empty candidates")
	f.DurationVar(&so.Timeout, "scale-down-simulation-timeout", so.Timeout, "Stop examining candidates after this long (0: no bound)")
	f.StringVar(&o.ConfigFile, "config", o.ConfigFile, "A KubeSchedulerConfiguration (v1) file: profiles, plugin weights and arguments, percentageOfNodesToScore")
	o.WhatIf.AddFlags(cmd, o.Input)
	return cmd
}

// configMapKind keeps ConfigMaps read from files: cluster-autoscaler's
// status is one. Live, the status is read with one GET instead.
var configMapKind = load.SchedulingKind{GVR: v1.SchemeGroupVersion.WithResource("configmaps"), Kind: "ConfigMap",
	Plugins: []string{"scale-down's node group sizes"}}

// Complete takes the NODE arguments; the input carries the scheduling
// kinds (PodDisruptionBudgets among them), the pods' local volumes and,
// from files, ConfigMaps.
func (o *ScaleDownOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, args []string) error {
	o.Nodes = args
	o.Input.Objects = true
	o.Input.KeepEmptyDir = true
	if len(o.Input.Filenames) > 0 {
		o.Input.ExtraKinds = []load.SchedulingKind{configMapKind}
	}
	if err := completeIO(&o.runContext, o.Input, f, cmd); err != nil {
		return err
	}
	return o.WhatIf.Complete(o.Input.PodNamespace())
}

// Validate checks flag values and combinations; it changes nothing.
func (o *ScaleDownOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	if err := stdinOnce(stdinUses(o.Input, o.WhatIf)...); err != nil {
		return err
	}
	if err := o.WhatIf.Validate(); err != nil {
		return err
	}
	if len(o.Nodes) > 0 && o.Selector != "" {
		return errors.New("cannot specify both NODE arguments and -l/--selector")
	}
	so := o.Options
	for name, v := range map[string]float64{"--utilization-threshold": so.UtilizationThreshold, "--gpu-utilization-threshold": so.GPUUtilizationThreshold,
		"--scale-down-candidates-pool-ratio": so.PoolRatio} {
		if v < 0 || v > 1 {
			return fmt.Errorf("%s: %v is not between 0 and 1", name, v)
		}
	}
	if so.PoolMinCount < 0 {
		return fmt.Errorf("--scale-down-candidates-pool-min-count: %d is negative", so.PoolMinCount)
	}
	if so.Timeout < 0 {
		return fmt.Errorf("--scale-down-simulation-timeout: %v is negative", so.Timeout)
	}
	return nil
}

// errNoneRemovable: no node can go (exit 1).
var errNoneRemovable = errors.New("no node is removable")

// Run loads the cluster, plans the scale-down in the model and prints
// the report.
func (o *ScaleDownOptions) Run() error {
	return decisionExit(o.run(o.context()), errNoneRemovable)
}

func (o *ScaleDownOptions) run(ctx context.Context) error {
	o.Input.memory.Decisions()
	cfg, err := pipeline.LoadConfig(o.ConfigFile)
	if err != nil {
		return err
	}
	// Through the pipeline (load, version, model, what-if edits), as every
	// decision command: "which nodes could go once Y is added".
	var notes pipeline.Notes
	in, err := o.WhatIf.load(ctx, o.Input, o.IOStreams, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	var nodes []string
	if len(o.Nodes) > 0 || o.Selector != "" {
		d := &DrainOptions{Nodes: o.Nodes, Selector: o.Selector}
		if nodes, err = d.drainedNodes(in.Model); err != nil {
			return err
		}
	}
	progress := newCandidateProgress(o.ErrOut)
	report, err := pipeline.ScaleDown(ctx, in, cfg, pipeline.ScaleDownRequest{Nodes: nodes, Options: o.Options, Clock: time.Now, Progress: progress.update}, &notes)
	progress.clear()
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	table := func(printers.TableOptions) (*printers.Table, error) { return printers.ScaleDownTable(report), nil }
	if err := o.Output.PrintTable(o.Out, report, table, nil); err != nil {
		return err
	}
	writeGroupTotals(o.ErrOut, report)
	fmt.Fprintln(o.ErrOut, report.Verdict)
	if len(report.Removable) == 0 {
		return &exitError{code: ExitError, err: errNoneRemovable, silent: true}
	}
	return nil
}

// writeGroupTotals writes one line per node group with a removable node:
// "group pool-a: 2 of 5 nodes removable (minimum 1), 8 cpu, 32Gi memory".
func writeGroupTotals(w io.Writer, r *v1alpha1.ScaleDownReport) {
	for _, g := range r.Totals.Groups {
		if g.Removable == 0 {
			continue
		}
		name := g.Group
		if name == "" {
			name = "<none>"
		}
		limit := ""
		if g.MinSize != nil {
			limit = fmt.Sprintf(" (minimum %d)", *g.MinSize)
		}
		fmt.Fprintf(w, "group %s: %d of %s removable%s, %s cpu, %s memory\n", oneLine(name), g.Removable, nodesCount(g.Nodes), limit,
			printers.Cores(g.Freed.MilliCPU), printers.Bytes(g.Freed.Memory))
	}
}

// candidateProgress is the progress line of the candidates examined, on a
// terminal only.
type candidateProgress struct {
	line *load.StatusLine
	last time.Time
}

func newCandidateProgress(errOut io.Writer) *candidateProgress {
	p := &candidateProgress{}
	if out, ok := progressOut(errOut).(*load.StatusLine); ok {
		p.line = out
	}
	return p
}

func (p *candidateProgress) update(done, total int) {
	if p.line == nil {
		return
	}
	if now := time.Now(); done == total || now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		p.line.Show(fmt.Sprintf("scale-down: decided %d of %d candidates", done, total))
	}
}

func (p *candidateProgress) clear() {
	if p.line != nil {
		p.line.Clear()
	}
}

// nodesCount is "1 node", "5 nodes".
func nodesCount(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}
