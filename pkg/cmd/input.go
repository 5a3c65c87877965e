package cmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
)

// InputFlags choose where the nodes and pods come from: a live cluster (the
// standard kubectl connection flags) or files (-f). Every data command embeds
// them. They are the flags; what they open (the pipeline's Source, the live
// client) is in input_open.go.
type InputFlags struct {
	ConfigFlags *genericclioptions.ConfigFlags
	Filenames   []string
	Recursive   bool
	ChunkSize   int64
	// Version is the kube-scheduler version and gates the model behaves as.
	Version *VersionFlags
	// MaxDocumentSize caps one document of the inputs (--max-document-size).
	MaxDocumentSize string
	// AllNamespaces is -A/--all-namespaces, registered with -n/--namespace
	// on the commands that show pods (see Namespace and PodNamespace).
	AllNamespaces bool
	// Objects also loads the objects of load.SchedulingKinds (into
	// Cluster.Objects), for commands that make scheduling decisions: from
	// the files, or listed live. Not a flag: the command sets it.
	Objects bool
	// ExtraKinds are kinds loaded besides those (drain: DaemonSets), from
	// the files or listed. Not a flag: the command sets it.
	ExtraKinds []load.SchedulingKind
	// KeepEmptyDir keeps the pods' emptyDir volumes, which loading drops
	// otherwise (drain's local-storage rule reads them). Not a flag.
	KeepEmptyDir bool
	// SchedulerLog, when the command sets it, is --scheduler-log: every
	// model built is put in the running scheduler's node order.
	SchedulerLog *SchedulerLogFlags

	limits load.Limits // from MaxDocumentSize, set by Complete
	// memory is the process's memory policy, from the command's context
	// (main installs it; none: a no-op), set by Complete.
	memory pipeline.MemoryPolicy
	// onePod: -n names the namespace of one pod the command reads (compare
	// --from-pod); there is no -A.
	onePod bool
	// clusterScoped: the command shows nodes, never a namespace's pods; -n
	// and -A are accepted as kubectl accepts them for nodes (kubectl get
	// nodes -n x, -A) and filter nothing; -n is only the namespace of a pod
	// named without one (--evict NAME).
	clusterScoped bool

	// getter gives the live connection (REST config, kubeconfig
	// namespace): ConfigFlags unless Complete was given another.
	getter genericclioptions.RESTClientGetter
	// live and liveHost are the client made by the first call of client:
	// the listing, the server's /version and the pods/log read share it.
	live     kubernetes.Interface
	liveHost string
}

// NewInputFlags returns InputFlags with kubectl's defaults.
func NewInputFlags() *InputFlags {
	return &InputFlags{ConfigFlags: genericclioptions.NewConfigFlags(true), ChunkSize: load.DefaultPageSize, MaxDocumentSize: "256Mi", Version: &VersionFlags{}, memory: pipeline.MemoryOf(context.Background())}
}

// withoutNamespace is for commands that show no namespace's pods (nodes
// are cluster-wide): -n and -A filter nothing (see clusterScoped).
func (f *InputFlags) withoutNamespace() *InputFlags {
	f.clusterScoped = true
	return f
}

// namespaceIgnored is -n's help on the commands that show nodes only.
const namespaceIgnored = "Accepted and ignored, as kubectl does for nodes (which have no namespace)"

// withoutAllNamespaces keeps -n but not -A, for commands where -n is the
// namespace of the one pod they name.
func (f *InputFlags) withoutAllNamespaces() *InputFlags {
	f.onePod = true
	return f
}

// hasNamespace reports whether the command takes -n and -A.
func (f *InputFlags) hasNamespace() bool { return f.ConfigFlags.Namespace != nil }

// Namespace is the namespace whose pods a cluster view shows and lists:
// -n, else "" for all namespaces (the cache holds every pod whatever the
// namespace, so node totals never depend on it).
func (f *InputFlags) Namespace() string {
	if f.hasNamespace() && !f.AllNamespaces && !f.clusterScoped {
		return *f.ConfigFlags.Namespace
	}
	return ""
}

// PodNamespace is the namespace of a pod named without one (why POD,
// requested --pod) and of the pending pods why and simulate take without
// -A: -n, else the kubeconfig context's namespace, as kubectl does, else
// "default" (with -f files and no kubeconfig).
func (f *InputFlags) PodNamespace() string {
	if ns := f.Namespace(); ns != "" {
		return ns
	}
	if f.clusterScoped && !f.AllNamespaces && *f.ConfigFlags.Namespace != "" {
		return *f.ConfigFlags.Namespace
	}
	if ns, _, err := f.restClientGetter().ToRawKubeConfigLoader().Namespace(); err == nil && ns != "" {
		return ns
	}
	return metav1.NamespaceDefault
}

// AddFlags registers the connection and file flags on cmd, and -A where
// -n is.
func (f *InputFlags) AddFlags(cmd *cobra.Command) {
	f.ConfigFlags.AddFlags(cmd.Flags())
	describeRequestTimeout(cmd)
	switch {
	case f.clusterScoped:
		cmd.Flags().Lookup("namespace").Usage = namespaceIgnored
		cmd.Flags().BoolVarP(&f.AllNamespaces, "all-namespaces", "A", f.AllNamespaces, namespaceIgnored)
	case f.hasNamespace() && !f.onePod:
		cmd.Flags().BoolVarP(&f.AllNamespaces, "all-namespaces", "A", f.AllNamespaces,
			"Pods of all namespaces (cluster views show them all unless -n is given)")
	}
	cmd.Flags().StringSliceVarP(&f.Filenames, "filename", "f", f.Filenames,
		"Read nodes and pods from files, directories or - (stdin) instead of the cluster (kubectl get -o yaml|json output, manifests, v1 Lists)")
	cmd.Flags().BoolVarP(&f.Recursive, "recursive", "R", f.Recursive, "Process the directories given with -f recursively")
	cmd.Flags().Int64Var(&f.ChunkSize, "chunk-size", f.ChunkSize, "List nodes and pods in pages of this many objects")
	f.Version.AddFlags(cmd)
	cmd.Flags().StringVar(&f.MaxDocumentSize, "max-document-size", f.MaxDocumentSize,
		"Refuse an input document (or List item, or line) larger than this (e.g. 256Mi, 1Gi)")
	if f.SchedulerLog != nil {
		f.SchedulerLog.AddFlags(cmd)
	}
	f.registerCompletions(cmd)
}

// Complete derives what the flags imply: the live connection comes from
// getter (the command's ConfigFlags in production; nil keeps them), the
// read limits from --max-document-size and the modelled version from
// --kube-version. It returns an error for a value that does not parse.
func (f *InputFlags) Complete(getter genericclioptions.RESTClientGetter) error {
	if getter != nil {
		f.getter = getter
	}
	size, err := load.ParseSize(f.MaxDocumentSize)
	if err != nil {
		return fmt.Errorf("--max-document-size: %w", err)
	}
	f.limits = load.Limits{MaxDocumentBytes: size}
	if err := f.Version.Complete(); err != nil {
		return err
	}
	return f.SchedulerLog.Complete()
}

// restClientGetter is the getter Complete chose, else ConfigFlags (shell
// completion runs before Complete).
func (f *InputFlags) restClientGetter() genericclioptions.RESTClientGetter {
	if f.getter != nil {
		return f.getter
	}
	return f.ConfigFlags
}

// Validate checks the input flags; it changes nothing.
func (f *InputFlags) Validate() error {
	if f.ChunkSize <= 0 {
		return fmt.Errorf("--chunk-size must be positive, got %d", f.ChunkSize)
	}
	if f.Recursive && len(f.Filenames) == 0 {
		return fmt.Errorf("-R/--recursive needs -f/--filename")
	}
	if f.AllNamespaces && f.hasNamespace() && *f.ConfigFlags.Namespace != "" {
		return fmt.Errorf("-n/--namespace %s and -A/--all-namespaces cannot be used together: choose one namespace or all", *f.ConfigFlags.Namespace)
	}
	return f.Version.Validate(len(f.Filenames) > 0)
}

// Limits are the bounds of every read of user input (-f, and the files
// commands read besides, such as --pod-file and --script).
func (f *InputFlags) Limits() load.Limits { return f.limits }

// isTerminal reports whether w is a terminal (for progress and colour).
// progressOut is where the progress line goes: the terminal behind errOut,
// nil when errOut is not one (or --quiet). The line is written to the
// terminal itself, not through the commands' stderr, which escapes control
// characters: its carriage returns must reach the terminal, and it holds
// nothing but counts.
func progressOut(errOut io.Writer) io.Writer {
	if !isTerminal(errOut) {
		return nil
	}
	return unwrapQuiet(errOut)
}

func isTerminal(w io.Writer) bool {
	w = unwrapQuiet(w)
	if s, ok := w.(*load.StatusLine); ok {
		w = s.Terminal()
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
