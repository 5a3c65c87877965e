package cmd

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/simulate/script"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var simulateLong = `Simulate, in virtual time, what kube-scheduler's cache goes through while pods
are scheduled. Each pod is assumed on a node (AssumePod); after the bind latency
its binding finishes (FinishBinding) and then, per --bind:
  confirm  the pod's Add event arrives: Assumed → Added
  fail     the bind failed and the pod is forgotten (ForgetPod): Assumed → Initial
  lost     no Add event ever arrives: with a TTL, the cleanup loop expires the
           pod once the TTL has passed and frees its requests (Assumed →
           Expired); with TTL 0 (kube-scheduler ≥ 1.25) it holds them forever

Pods come from --pod-file and --pending: the input's unassigned pods of the
namespace of -n, or else of the kubeconfig's current namespace ("default" if
none), or of all namespaces with -A, filtered by -l on pod labels. They are
taken in the scheduling queue's order (higher priority first, then earlier
creation; --pod-file pods last) and each is assumed on --node (without a fit
check), or where kube-scheduler v1.36 would place it (its own filters and
scores, default profile or --config) against the cache at that moment, earlier
assumed pods included; a pod no node takes is reported unschedulable, with the
scheduler's FailedScheduling message, and not assumed. Placement is always
v1.36's; --kube-version shapes the cache it runs over. Pods of equal priority
are taken by creation time, but a freshly started kube-scheduler queues them as
its informer lists them, an order that is not guaranteed. When several nodes
share the highest score, the row says so and names them (tiedNodes in -o json):
kube-scheduler may bind the pod to any of them, and every later placement may
then differ.

The cache behaves as kube-scheduler --kube-version (default: the live API
server's version, or v1.36 with -f): its transitions, errors and accounting
(docs/versions.md in the project lists what differs). The TTL is --ttl, else
that version's default (0 from v1.25: assumed pods never expire; before v1.25
a TTL of 0 expires them at the first cleanup after their binding finished).
A note on stderr says which.

Virtual time starts at +0s (the fixed instant 2026-01-01T00:00:00Z): every pod
is assumed at +0s, one after another; bindings finish at +--bind-latency, each
followed at once by its Add event or ForgetPod; the cleanup loop runs every
--cleanup-period until --until (default: 1m, or longer when needed for a lost
binding to expire within the timeline). Only cleanup ticks that expire a pod
are shown, to keep the timeline short.

The output is the timeline (each event's cache state transition, the node's
requested cpu and memory after it, and the cache's error verbatim), the nodes
touched with their requests before and after, and each pod's final state. With
-o json or yaml the same data is kind Simulation. Same input, same output: the
wall clock is never read.

Exit status (--pending, --pod-file): 1 when some pod ends Unschedulable, as
why exits 1 when a pod would stay Pending; 0 when every pod was placed. With
several --config: 1 when some pod ends Unschedulable under one of them.

Scripts (--script FILE) replace the timeline with explicit operations.
` + script.Help

var simulateExample = `  # Schedule every pending pod of all namespaces; bindings are confirmed
  kubectl schedcache simulate --pending -A

  # One binding is lost, with the 30s TTL of kube-scheduler v1.19: the pod
  # expires at +31s and its node's requests drop back
  kubectl schedcache simulate -f cluster.yaml --pending -A --bind-for shop/web-1=lost --kube-version v1.19

  # A pod manifest forced onto a node, and its bind fails
  kubectl schedcache simulate --pod-file pod.yaml --node worker-1 --bind fail

  # Explicit cache operations, as kind Simulation in YAML
  kubectl schedcache simulate -f cluster.yaml --script scenario.yaml --ttl 30s -o yaml`

// SimulateOptions drive "simulate".
type SimulateOptions struct {
	Input         *InputFlags
	Output        *OutputFlags
	PodFiles      []string
	Replicas      int
	Pending       bool
	Selector      string
	Node          string
	Bind          string
	BindFor       []string
	TTL           string
	BindLatency   time.Duration
	CleanupPeriod time.Duration
	Until         time.Duration
	Script        string
	ConfigFiles   []string
	// WhatIf are the what-if edits applied to the input first.
	WhatIf *WhatIfFlags
	genericiooptions.IOStreams
	runContext

	// timelineFlags are the timeline-only duration flags given on the
	// command line (their defaults are not zero, so the command records
	// them); --script refuses them.
	timelineFlags []string

	selector labels.Selector
	bind     script.Outcome
	bindFor  map[string]script.Outcome
	ttl      *time.Duration
}

// NewSimulateOptions returns SimulateOptions with defaults.
func NewSimulateOptions(streams genericiooptions.IOStreams) *SimulateOptions {
	return &SimulateOptions{
		Input: NewInputFlags().withSchedulerLog(), Output: NewOutputFlags().withTable(func(t printers.TableOptions) (*printers.Table, error) {
			return printers.TimelineTable(&v1alpha1.Simulation{}, t)
		}), Bind: string(script.Confirm),
		BindLatency: pipeline.DefaultBindLatency, CleanupPeriod: pipeline.DefaultCleanupPeriod,
		Replicas: -1, WhatIf: NewWhatIfFlags(), IOStreams: streams,
	}
}

// NewCmdSimulate returns the "simulate" subcommand.
func NewCmdSimulate(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewSimulateOptions(streams)
	cmd := newDataCommand(&cobra.Command{
		Use:     "simulate (--pending | --pod-file FILE | --script FILE)",
		Short:   "Replay assume, bind, forget and TTL expiry of pods in the scheduler cache, in virtual time",
		Long:    simulateLong,
		Example: simulateExample,
	}, o.Input, o.Output, o)
	f := cmd.Flags()
	f.StringArrayVar(&o.PodFiles, "pod-file", o.PodFiles, "Simulate the pods in these manifests, and the replicas of the Deployments, ReplicaSets, StatefulSets, Jobs, CronJobs and DaemonSets in them (repeatable)")
	f.IntVar(&o.Replicas, "replicas", o.Replicas, "Replicas of each --pod-file workload; -1: its own count (a DaemonSet: one per node)")
	f.BoolVar(&o.Pending, "pending", o.Pending, "Simulate the input's pending (unassigned) pods of the namespace (see -n, -A, -l)")
	f.Lookup("all-namespaces").Usage = "With --pending, the pending pods of all namespaces"
	f.StringVarP(&o.Selector, "selector", "l", o.Selector, "With --pending, only pods matching this label selector")
	f.StringVar(&o.Node, "node", o.Node, "Assume every pod on this node, without a fit check (default: where kube-scheduler v1.36 would place it)")
	f.StringArrayVar(&o.ConfigFiles, "config", o.ConfigFiles, "A KubeSchedulerConfiguration (v1) file whose profiles place the pods (default: kube-scheduler's default configuration); repeat it to compare configurations side by side")
	f.StringVar(&o.Bind, "bind", o.Bind, "Binding outcome: confirm (Add event), fail (ForgetPod) or lost (no Add event)")
	f.StringArrayVar(&o.BindFor, "bind-for", o.BindFor, "Binding outcome of one pod, NAMESPACE/NAME=confirm|fail|lost (repeatable)")
	f.StringVar(&o.TTL, "ttl", o.TTL, "Assumed-pod TTL, e.g. 30s; 0 never expires from v1.25 (default: that of the kube-scheduler version modelled)")
	f.DurationVar(&o.BindLatency, "bind-latency", o.BindLatency, "Time from AssumePod to FinishBinding")
	f.DurationVar(&o.CleanupPeriod, "cleanup-period", o.CleanupPeriod, "Period of the cache's cleanup loop, as upstream's cleanAssumedPeriod")
	f.DurationVar(&o.Until, "until", o.Until, "Length of the timeline (default: 1m, or longer so that a lost binding's expiry shows)")
	f.StringVar(&o.Script, "script", o.Script, "Run the operations of this YAML script instead of the timeline (format above)")
	o.WhatIf.AddFlags(cmd, o.Input)
	_ = cmd.RegisterFlagCompletionFunc("node", completeNodeNames(o.Input))
	_ = cmd.RegisterFlagCompletionFunc("bind", cobra.FixedCompletions(outcomeNames(), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// schedulerConfig is --config, or nil for kube-scheduler's default.
func (o *SimulateOptions) schedulerConfig() (*pipeline.Config, error) {
	if len(o.ConfigFiles) == 0 {
		return nil, nil
	}
	return pipeline.LoadConfig(o.ConfigFiles[0])
}

// noteTimelineFlags records which timeline-only duration flags were given:
// their defaults are not zero, so only the flag set can tell.
func (o *SimulateOptions) noteTimelineFlags(flags *pflag.FlagSet) {
	o.timelineFlags = nil
	for _, name := range []string{"bind-latency", "cleanup-period", "until"} {
		if flags.Changed(name) {
			o.timelineFlags = append(o.timelineFlags, "--"+name)
		}
	}
}

func outcomeNames() []string {
	names := make([]string, len(script.Outcomes))
	for i, out := range script.Outcomes {
		names[i] = string(out)
	}
	return names
}

// Validate checks flag values and combinations; it changes nothing.
func (o *SimulateOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	if err := stdinOnce(stdinUses(o.Input, o.WhatIf, stdinUse{"--pod-file", o.PodFiles}, stdinUse{"--script", []string{o.Script}})...); err != nil {
		return err
	}
	for _, check := range []func() error{o.validateSources, o.validateScript, o.validateDurations, o.validateConfigs} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// Complete derives from the flags: which timeline flags were given, the
// input (placement runs kube-scheduler's plugins, which read the objects),
// the bind outcomes, the TTL and the selector; f gives the live connection.
// It returns an error for a value that does not parse.
func (o *SimulateOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, _ []string) error {
	if cmd != nil {
		o.noteTimelineFlags(cmd.Flags())
	}
	if err := completeIO(&o.runContext, o.Input, f, cmd); err != nil {
		return err
	}
	o.Input.Objects = o.Node == ""
	if err := o.completeBind(); err != nil {
		return err
	}
	if err := o.completeTTL(); err != nil {
		return err
	}
	sel, err := labels.Parse(o.Selector)
	if err != nil {
		return fmt.Errorf("invalid --selector %q: %w", o.Selector, err)
	}
	o.selector = sel
	return o.WhatIf.Complete(o.Input.PodNamespace())
}

func (o *SimulateOptions) validateSources() error {
	switch {
	case o.Script == "" && len(o.PodFiles) == 0 && !o.Pending:
		return errors.New("nothing to simulate: give --pending, --pod-file or --script")
	case !o.Pending && o.Input.AllNamespaces:
		return errors.New("-A/--all-namespaces needs --pending")
	case !o.Pending && o.Selector != "":
		return errors.New("-l/--selector needs --pending")
	case o.Replicas != -1 && len(o.PodFiles) == 0:
		return errors.New("--replicas needs --pod-file")
	case o.Replicas < -1:
		return fmt.Errorf("--replicas must not be negative, got %d", o.Replicas)
	}
	return nil
}

// validateScript refuses timeline flags with --script: a script names its
// own nodes, outcomes and times.
func (o *SimulateOptions) validateScript() error {
	if o.Script == "" {
		return nil
	}
	given := append([]string(nil), o.timelineFlags...)
	if o.Node != "" {
		given = append(given, "--node")
	}
	if len(o.BindFor) > 0 {
		given = append(given, "--bind-for")
	}
	if len(given) > 0 {
		return fmt.Errorf("%s cannot be used with --script: the script's steps give nodes, outcomes and times", strings.Join(given, ", "))
	}
	return nil
}

func (o *SimulateOptions) completeBind() error {
	var err error
	if o.bind, err = script.ParseOutcome(o.Bind); err != nil {
		return fmt.Errorf("invalid --bind: %w", err)
	}
	o.bindFor = map[string]script.Outcome{}
	for _, s := range o.BindFor {
		pod, outcome, ok := strings.Cut(s, "=")
		ns, name, hasNS := strings.Cut(pod, "/")
		if !ok || !hasNS || ns == "" || name == "" {
			return fmt.Errorf("invalid --bind-for %q: want NAMESPACE/NAME=confirm|fail|lost", s)
		}
		if o.bindFor[pod], err = script.ParseOutcome(outcome); err != nil {
			return fmt.Errorf("invalid --bind-for %q: %w", s, err)
		}
	}
	return nil
}

func (o *SimulateOptions) completeTTL() error {
	o.ttl = nil
	if o.TTL != "" {
		ttl, err := time.ParseDuration(o.TTL)
		switch {
		case err != nil:
			return fmt.Errorf("invalid --ttl %q: want a duration such as 30s or 0, at most %s", o.TTL, time.Duration(math.MaxInt64))
		case ttl < 0:
			return fmt.Errorf("invalid --ttl %q: want a duration that is not negative, such as 30s or 0", o.TTL)
		}
		o.ttl = &ttl
	}
	return nil
}

func (o *SimulateOptions) validateDurations() error {
	switch {
	case o.BindLatency < 0:
		return fmt.Errorf("--bind-latency must not be negative, got %s", o.BindLatency)
	case o.CleanupPeriod <= 0:
		return fmt.Errorf("--cleanup-period must be positive, got %s", o.CleanupPeriod)
	case o.Until < 0:
		return fmt.Errorf("--until must not be negative, got %s", o.Until)
	}
	// The TTL changes the automatic --until, hence the tick count; a live
	// server's TTL is checked again once known (Run).
	p := cache.DefaultProfile()
	if v := o.Input.Version.version; v != nil {
		p = cache.NewProfile(*v, nil)
	}
	return o.timeline().Check(&p)
}

// timeline is the simulation's timeline flags.
func (o *SimulateOptions) timeline() pipeline.Timeline {
	return pipeline.Timeline{TTL: o.ttl, Bind: o.bind, BindFor: o.bindFor, Node: o.Node,
		BindLatency: o.BindLatency, CleanupPeriod: o.CleanupPeriod, Until: o.Until}
}

// request is the simulation's: its timeline, script and pods (the
// --pod-file pods and the selected pending ones); pending keeps the
// model's pending pods, for "No resources found" when none is selected.
func (o *SimulateOptions) request(steps []script.Step, pending *[]*v1.Pod) pipeline.SimulateRequest {
	return pipeline.SimulateRequest{Timeline: o.timeline(), Script: steps, Pods: func(m *model.Model, notes *pipeline.Notes) ([]*v1.Pod, error) {
		if o.Pending {
			*pending = m.Pending
		}
		return o.podsToSimulate(m, notes.Writer())
	}}
}

// Run loads the cluster, runs the simulation and prints it. Mistakes in
// the script, an unknown --node or --bind-for pod and a bad input file
// (as in every command) exit 2; other loading failures (Forbidden) exit
// 1. --pending selecting no pod (and nothing else to simulate) says
// "No resources found in NS namespace." on stderr and exits 0, as kubectl
// get does.
func (o *SimulateOptions) Run() error {
	o.Input.memory.Decisions()
	if len(o.ConfigFiles) > 1 {
		return o.compareConfigs()
	}
	steps, err := o.readScript()
	if err != nil {
		return err
	}
	o.Input.memory.ScriptSteps(len(steps))
	cfg, err := o.schedulerConfig()
	if err != nil {
		return err
	}
	var notes pipeline.Notes
	var pending []*v1.Pod
	out, err := pipeline.Simulate(o.context(), o.Input.request(o.IOStreams, o.WhatIf.pipelineEdits(), cache.Options{}), cfg, o.request(steps, &pending), &notes)
	printNotes(o.ErrOut, &notes)
	if errors.Is(err, errNoPendingPods) {
		// As kubectl get when a namespace or selector matches nothing.
		noPendingPods(o.ErrOut, pending, o.pendingNamespace(), o.selector)
		return nil
	}
	if err != nil {
		return pipelineError(err)
	}
	if err := o.Output.PrintTable(o.Out, out, func(t printers.TableOptions) (*printers.Table, error) { return printers.TimelineTable(out, t) }, nil); err != nil {
		return err
	}
	if steps == nil {
		return simulationOutcome(out)
	}
	return nil
}

// simulationOutcome maps a placement run (--pending, --pod-file) to the
// exit status, as why does: 1, silently, when a pod ends Unschedulable (no
// node took it). Scripts say what they test in their own steps and exit 0.
func simulationOutcome(s *v1alpha1.Simulation) error {
	if pipeline.Unplaced(s) {
		return &exitError{code: ExitError, err: errNotScheduled, silent: true}
	}
	return nil
}
