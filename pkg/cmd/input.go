package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"

	// Auth provider plugins (OIDC, …) for kubeconfigs that use them; exec
	// credential plugins work without an import.
	_ "k8s.io/client-go/plugin/pkg/client/auth"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// InputFlags choose where the nodes and pods come from: a live cluster (the
// standard kubectl connection flags) or files (-f). Every data command embeds
// them.
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

	limits load.Limits // from MaxDocumentSize, set by Complete
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
	return &InputFlags{ConfigFlags: genericclioptions.NewConfigFlags(true), ChunkSize: load.DefaultPageSize, MaxDocumentSize: "256Mi", Version: &VersionFlags{}}
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
	return f.Version.Complete()
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

// PlainReadEnv is the environment variable that, set to anything, makes -f read without the memory layer
// (load.FileOptions.Plain): to check that a figure does not come from it,
// at about twice the memory.
const PlainReadEnv = "SCHEDCACHE_PLAIN_READ"

// Load reads the cluster from files or lists it live. Warnings and progress
// go to streams.ErrOut; progress only when ErrOut is a terminal.
func (f *InputFlags) Load(ctx context.Context, streams genericiooptions.IOStreams) (*load.Cluster, error) {
	return f.load(ctx, streams, nil)
}

// load is Load, handing the nodes and pods to sink (when not nil) as they
// are read or listed.
func (f *InputFlags) load(ctx context.Context, streams genericiooptions.IOStreams, sink load.Sink) (*load.Cluster, error) {
	if len(f.Filenames) > 0 {
		opts := load.FileOptions{
			Context:   ctx,
			Filenames: f.Filenames, Recursive: f.Recursive, Stdin: streams.In, Objects: f.Objects, Limits: f.limits, Sink: sink,
			KeepEmptyDir: f.KeepEmptyDir, Namespace: f.PodNamespace(), Plain: os.Getenv(PlainReadEnv) != "",
		}
		for _, k := range f.ExtraKinds {
			opts.ExtraKinds = append(opts.ExtraKinds, schema.GroupKind{Group: k.GVR.Group, Kind: k.Kind})
		}
		opts.Progress = progressOut(streams.ErrOut)
		raiseMemoryLimitForInput(inputBytes(f.Filenames))
		return load.ReadFiles(opts, streams.ErrOut)
	}
	client, host, err := f.client(streams.ErrOut)
	if err != nil {
		return nil, err
	}
	opts := load.ListOptions{PageSize: f.ChunkSize, Host: host, Warnings: streams.ErrOut, Sink: sink, KeepEmptyDir: f.KeepEmptyDir,
		OnNodeTotal: raiseMemoryLimitForNodes}
	if f.Objects {
		opts.Kinds = load.SchedulingKinds
	}
	if len(f.ExtraKinds) > 0 {
		opts.Kinds = append(append([]load.SchedulingKind(nil), opts.Kinds...), f.ExtraKinds...)
	}
	opts.Progress = progressOut(streams.ErrOut)
	return load.List(ctx, client, opts)
}

// client returns the live client, made on first use with the warnings
// (the API server's Warning headers) going to warnings, and the server's
// host.
func (f *InputFlags) client(warnings io.Writer) (kubernetes.Interface, string, error) {
	if f.live != nil {
		return f.live, f.liveHost, nil
	}
	getter := f.restClientGetter()
	cfg, err := getter.ToRESTConfig()
	if err != nil {
		return nil, "", err
	}
	if err := missingKubeconfig(getter.ToRawKubeConfigLoader(), cfg, f.ConfigFlags.APIServer); err != nil {
		return nil, "", err
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = userAgent()
	}
	load.ConfigureClient(cfg, warnings)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, "", err
	}
	f.live, f.liveHost = client, cfg.Host
	return client, cfg.Host, nil
}

// BuildModel builds the cache model of cluster (loaded with Load) with opts,
// modelling the kube-scheduler version and gates of Profile unless opts sets
// a profile, and warns on warnings of the pods the cache refused.
func (f *InputFlags) BuildModel(ctx context.Context, cluster *load.Cluster, opts cache.Options, warnings io.Writer) (*model.Model, error) {
	if opts.Profile == nil {
		p, _, err := f.Profile(ctx, warnings)
		if err != nil {
			return nil, err
		}
		opts.Profile = &p
	}
	m, err := model.Build(cluster, opts)
	if err != nil {
		return nil, err
	}
	m.WriteWarnings(warnings)
	return m, nil
}

// LoadModel loads the input and builds the cache model from it, modelling
// the kube-scheduler version and gates of Profile unless opts sets a profile,
// and warns on streams.ErrOut of the pods the cache refused.
// A live server's version is read after the listing, so that a cluster that
// cannot be reached or refuses the user is reported by the listing's own
// error alone.
func (f *InputFlags) LoadModel(ctx context.Context, streams genericiooptions.IOStreams, opts cache.Options) (*model.Model, error) {
	_, m, err := f.LoadWithModel(ctx, streams, opts)
	return m, err
}

// LoadWithModel is LoadModel returning the loaded cluster too. The model is
// built while the input is read or listed (model.Builder) when the profile
// is known beforehand without a word to say: always for files; for a live
// cluster when its version reads without a warning, else (an unreachable
// server, say) after the listing as LoadModel says.
func (f *InputFlags) LoadWithModel(ctx context.Context, streams genericiooptions.IOStreams, opts cache.Options) (*load.Cluster, *model.Model, error) {
	byKubelets := opts.Profile == nil && len(f.Filenames) > 0 && f.Version.version == nil
	if opts.Profile == nil {
		if p, _, ok := f.quietProfile(ctx, streams); ok {
			opts.Profile = &p
		}
	}
	if opts.Profile == nil {
		cluster, err := f.Load(ctx, streams)
		if err != nil {
			return nil, nil, err
		}
		m, err := f.BuildModel(ctx, cluster, opts, streams.ErrOut)
		return cluster, m, err
	}
	builder := model.NewBuilder(opts)
	cluster, err := f.load(ctx, streams, builder)
	if err != nil {
		return nil, nil, err
	}
	m := builder.Finish(cluster)
	if byKubelets {
		if m, err = f.followKubelets(cluster, m, opts, streams.ErrOut); err != nil {
			return nil, nil, err
		}
	}
	m.WriteWarnings(streams.ErrOut)
	return cluster, m, nil
}

// followKubelets rebuilds m, read from files without --kube-version, for
// the version the nodes' kubelets give (kubeletProfile) when that is not
// the one modelled.
func (f *InputFlags) followKubelets(cluster *load.Cluster, m *model.Model, opts cache.Options, notes io.Writer) (*model.Model, error) {
	p, ok := f.kubeletProfile(cluster, m.Cache.Profile().Version, notes)
	if !ok {
		return m, nil
	}
	opts.Profile = &p
	return model.Build(cluster, opts)
}

// quietProfile is Profile when it needs nothing but the flags, or a live
// server's version that reads without error or warning.
func (f *InputFlags) quietProfile(ctx context.Context, streams genericiooptions.IOStreams) (cache.Profile, VersionChoice, bool) {
	if len(f.Filenames) == 0 {
		// The client Load will use, with its warnings going where Load's go.
		if _, _, err := f.client(streams.ErrOut); err != nil {
			return cache.Profile{}, VersionChoice{}, false
		}
	}
	var said bytes.Buffer
	p, choice, err := f.Profile(ctx, &said)
	if err != nil || said.Len() > 0 {
		return cache.Profile{}, VersionChoice{}, false
	}
	return p, choice, true
}

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
