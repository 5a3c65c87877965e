package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/compare"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var compareExample = `  # Make kube-scheduler dump its cache (SIGUSR2, see below), then compare it with the cluster
  kubectl schedcache compare --from-pod kube-system/kube-scheduler-cp-1 --since 10m

  # From a saved log (or - for stdin), against an export of the cluster taken at the same time
  kubectl schedcache compare --log kube-scheduler.log -f cluster.yaml

  # As JSON (kind CacheComparison); exit code 3 when they differ
  kubectl schedcache compare --from-pod kube-scheduler-cp-1 -o json`

// CompareOptions drive "compare".
type CompareOptions struct {
	Input  *InputFlags
	Output *OutputFlags
	// LogFile is a kube-scheduler log file, or "-" for stdin.
	LogFile string
	// FromPod is the kube-scheduler pod whose log to read, [NAMESPACE/]NAME.
	FromPod   string
	Container string
	Since     time.Duration
	Previous  bool
	// SchedulerNames are the scheduler's profile names (which pending pods its queue holds).
	SchedulerNames []string
	genericiooptions.IOStreams
	runContext
}

// NewCompareOptions returns CompareOptions with defaults.
func NewCompareOptions(streams genericiooptions.IOStreams) *CompareOptions {
	return &CompareOptions{Input: NewInputFlags().withoutAllNamespaces(), Output: NewOutputFlags(), SchedulerNames: []string{compare.DefaultSchedulerName}, IOStreams: streams}
}

// NewCmdCompare returns the "compare" subcommand.
func NewCmdCompare(streams genericiooptions.IOStreams) *cobra.Command {
	return newCmdCompare(NewCompareOptions(streams))
}

func newCmdCompare(o *CompareOptions) *cobra.Command {
	cmd := newDataCommand(&cobra.Command{
		Use:   "compare (--log FILE | --from-pod [NAMESPACE/]NAME)",
		Short: "Compare a running kube-scheduler's own cache (its SIGUSR2 dump) with the cluster",
		Long: `Read the newest cache dump kube-scheduler wrote to its log on SIGUSR2 ("Dump of
cached NodeInfo" and the scheduling-queue dump after it; any release v1.18-v1.36,
klog text or JSON), build the cache from the cluster (or -f files) the way the
scheduler does, and report every difference, NodeInfo by NodeInfo: nodes only one
side has, Requested and Allocatable with both values, pods one side has on the node
(and where the other side has them: another node, the queue, nowhere), nominated
pods; then pending pods the queue holds that the API does not, and the reverse.
The dump does not print NonZeroRequested; the API side's is shown for reference.

The dump is a moment of the scheduler's past: whatever changed since (pods bound,
created or deleted) is a difference too, so compare soon after the dump.

` + schedlog.HowToDump + `

Exit codes: 0 they agree, 3 they differ, 1 error (no dump in the log, a truncated
or interleaved dump, no permission to read the pod's log...), 2 usage error.`,
		Example: compareExample,
	}, o.Input, o.Output, o)
	f := cmd.Flags()
	f.StringVar(&o.LogFile, "log", o.LogFile, "Read kube-scheduler's log from this file (- for stdin)")
	f.StringVar(&o.FromPod, "from-pod", o.FromPod, "Read the log of this kube-scheduler pod, [NAMESPACE/]NAME (namespace: -n, else kube-system), through the pods/log API")
	f.StringVarP(&o.Container, "container", "c", o.Container, "With --from-pod: the container (default: the pod's only or default container)")
	f.DurationVar(&o.Since, "since", o.Since, "With --from-pod: only the log of this recent period (e.g. 10m), so a long log is read quickly")
	f.BoolVar(&o.Previous, "previous", o.Previous, "With --from-pod: the log of the previous instance of the container")
	f.StringArrayVar(&o.SchedulerNames, "scheduler-name", o.SchedulerNames, "A schedulerName the scheduler's profiles handle (repeatable): its queue holds the pending pods naming one")
	return cmd
}

// Complete derives the input settings from the flags; f gives the live
// connection (the cluster, and --from-pod's log).
func (o *CompareOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, _ []string) error {
	return completeIO(&o.runContext, o.Input, f, cmd)
}

// Validate checks flag combinations; it changes nothing.
func (o *CompareOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	switch {
	case (o.LogFile == "") == (o.FromPod == ""):
		return errors.New("give exactly one of --log FILE and --from-pod [NAMESPACE/]NAME")
	case o.FromPod == "" && (o.Container != "" || o.Since != 0 || o.Previous):
		return errors.New("-c/--container, --since and --previous need --from-pod")
	case o.Since < 0:
		return fmt.Errorf("--since must not be negative, got %v", o.Since)
	case len(o.SchedulerNames) == 0:
		return errors.New("--scheduler-name needs a value")
	}
	if o.LogFile == "-" {
		for _, f := range o.Input.Filenames {
			if f == "-" {
				return errors.New("--log - and -f - cannot both read stdin")
			}
		}
	}
	return nil
}

// Run reads the newest dump from the log, then loads the cluster (in that
// order, so the two are as close in time as they can be), compares and
// prints. Differences exit with ExitDiffer.
func (o *CompareOptions) Run() error {
	ctx := o.context()
	d, source, err := o.readDump(ctx)
	if err != nil {
		return err
	}
	for _, w := range d.Warnings {
		fmt.Fprintf(o.ErrOut, "Warning: %s: %s\n", source, w)
	}
	opts, err := o.modelOptions(d)
	if err != nil {
		return err
	}
	var notes pipeline.Notes
	m, err := o.Input.LoadModel(ctx, o.IOStreams, opts, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	c := compare.Compare(m, d, compare.Options{SchedulerNames: o.SchedulerNames, Log: source})
	if line := noNodeInCommon(d, m.Nodes, source); line != "" {
		// Every node would be a difference: say why once, and list them
		// only in the structured outputs.
		fmt.Fprintln(o.ErrOut, line)
		if o.Output.IsTable() {
			return differError(c.Summary.Differences)
		}
	}
	if err := o.Output.Print(o.Out, c, func(t printers.TableOptions) error { return printers.PrintComparison(o.Out, c, t) }); err != nil {
		return err
	}
	if !c.Agree {
		return differError(c.Summary.Differences)
	}
	return nil
}

// noNodeInCommon says, in one line, that the log's nodes and the cluster's
// share no name (the log is from another cluster, or the input is), or ""
// when some node is in both or either side has none.
func noNodeInCommon(d *schedlog.Dump, nodes []*v1.Node, source string) string {
	if len(d.Nodes) == 0 || len(nodes) == 0 {
		return ""
	}
	cluster := sets.New[string]()
	for _, n := range nodes {
		cluster.Insert(n.Name)
	}
	logged := sets.New[string]()
	for _, n := range d.Nodes {
		if cluster.Has(n.Name) {
			return ""
		}
		logged.Insert(n.Name)
	}
	return fmt.Sprintf("the kube-scheduler log (%s) and the cluster have no node in common: the log's %s, the cluster's %s; is the log from another cluster (check --log/--from-pod against -f or --context)?",
		oneLine(source), namesSample(logged), namesSample(cluster))
}

// namesSample is "N nodes (a, b, c, …)": the count and the first names.
func namesSample(names sets.Set[string]) string {
	sorted := sets.List(names)
	const shown = 3
	sample := strings.Join(sorted[:min(shown, len(sorted))], ", ")
	if len(sorted) > shown {
		sample += ", …"
	}
	noun := "nodes"
	if len(sorted) == 1 {
		noun = "node"
	}
	return fmt.Sprintf("%d %s (%s)", len(sorted), noun, oneLine(sample))
}

// modelOptions models the kube-scheduler version the log names, unless
// --kube-version is given: the cache is then accounted as that scheduler's.
// Without a version in the log (or one outside the supported range) the
// usual choice applies (the live server's version, or v1.36 with -f).
func (o *CompareOptions) modelOptions(d *schedlog.Dump) (cache.Options, error) {
	if o.Input.Version.KubeVersion != "" || d.Version == "" {
		return cache.Options{}, nil
	}
	v, err := cache.ParseVersion(d.Version)
	if err != nil {
		return cache.Options{}, nil
	}
	gates, err := pipeline.ParseFeatureGates(o.Input.Version.FeatureGates, v)
	if err != nil {
		return cache.Options{}, usageError(err)
	}
	p := cache.NewProfile(v, &gates)
	fmt.Fprintf(o.ErrOut, "note: modelling kube-scheduler %s, the version in its log (--kube-version overrides)\n", v)
	return cache.Options{Profile: &p}, nil
}

// readDump parses the log chosen by --log or --from-pod; errors name it.
func (o *CompareOptions) readDump(ctx context.Context) (*schedlog.Dump, string, error) {
	var (
		r      io.Reader
		source string
	)
	switch {
	case o.LogFile == "-":
		r, source = o.In, "stdin"
	case o.LogFile != "":
		f, err := os.Open(o.LogFile)
		if err != nil {
			return nil, "", fmt.Errorf("--log: %w", err)
		}
		defer f.Close()
		r, source = f, o.LogFile
	default:
		rc, name, err := o.podLog(ctx)
		if err != nil {
			return nil, "", err
		}
		defer rc.Close()
		r, source = rc, "pod "+name
	}
	d, err := schedlog.Parse(r)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, "", fmt.Errorf("kube-scheduler log (%s): %w", source, err)
	}
	return d, source, nil
}
