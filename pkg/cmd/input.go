package cmd

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"

	// Auth provider plugins (OIDC, …) for kubeconfigs that use them; exec
	// credential plugins work without an import.
	_ "k8s.io/client-go/plugin/pkg/client/auth"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/load"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
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

	// clientForTest replaces the live client in tests (client-go fake).
	clientForTest kubernetes.Interface
}

// NewInputFlags returns InputFlags with kubectl's defaults.
func NewInputFlags() *InputFlags {
	return &InputFlags{ConfigFlags: genericclioptions.NewConfigFlags(true), ChunkSize: load.DefaultPageSize, Version: &VersionFlags{}}
}

// withoutNamespace drops -n/--namespace, for commands where -n means
// something else and the namespace does not matter (nodes are cluster-wide).
func (f *InputFlags) withoutNamespace() *InputFlags {
	f.ConfigFlags.Namespace = nil
	return f
}

// AddFlags registers the connection and file flags on cmd.
func (f *InputFlags) AddFlags(cmd *cobra.Command) {
	f.ConfigFlags.AddFlags(cmd.Flags())
	cmd.Flags().StringSliceVarP(&f.Filenames, "filename", "f", f.Filenames,
		"Read nodes and pods from files, directories or - (stdin) instead of the cluster (kubectl get -o yaml|json output, manifests, v1 Lists)")
	cmd.Flags().BoolVarP(&f.Recursive, "recursive", "R", f.Recursive, "Process the directories given with -f recursively")
	cmd.Flags().Int64Var(&f.ChunkSize, "chunk-size", f.ChunkSize, "List nodes and pods in pages of this many objects")
	f.Version.AddFlags(cmd)
}

// Validate checks the input flags.
func (f *InputFlags) Validate() error {
	if f.ChunkSize <= 0 {
		return fmt.Errorf("--chunk-size must be positive, got %d", f.ChunkSize)
	}
	if f.Recursive && len(f.Filenames) == 0 {
		return fmt.Errorf("-R/--recursive needs -f/--filename")
	}
	return f.Version.Validate(len(f.Filenames) > 0)
}

// Load reads the cluster from files or lists it live. Warnings and progress
// go to streams.ErrOut; progress only when ErrOut is a terminal.
func (f *InputFlags) Load(ctx context.Context, streams genericiooptions.IOStreams) (*load.Cluster, error) {
	if len(f.Filenames) > 0 {
		return load.ReadFiles(load.FileOptions{Filenames: f.Filenames, Recursive: f.Recursive, Stdin: streams.In}, streams.ErrOut)
	}
	client, host, err := f.client(streams.ErrOut)
	if err != nil {
		return nil, err
	}
	opts := load.ListOptions{PageSize: f.ChunkSize, Host: host}
	if isTerminal(streams.ErrOut) {
		opts.Progress = streams.ErrOut
	}
	return load.List(ctx, client, opts)
}

func (f *InputFlags) client(warnings io.Writer) (kubernetes.Interface, string, error) {
	if f.clientForTest != nil {
		return f.clientForTest, "fake", nil
	}
	cfg, err := f.ConfigFlags.ToRESTConfig()
	if err != nil {
		return nil, "", err
	}
	load.ConfigureClient(cfg, warnings)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, "", err
	}
	return client, cfg.Host, nil
}

// BuildModel builds the cache model of cluster (loaded with Load) as the
// kube-scheduler version and gates of Profile.
func (f *InputFlags) BuildModel(cluster *load.Cluster, warnings io.Writer) (*model.Model, error) {
	p, _, err := f.Profile(warnings)
	if err != nil {
		return nil, err
	}
	return model.Build(cluster, cache.Options{Profile: &p})
}

// LoadModel loads the input and builds the cache model from it, modelling
// the kube-scheduler version and gates of Profile unless opts sets a profile.
// A live server's version is read after the listing, so that a cluster that
// cannot be reached or refuses the user is reported by the listing's own
// error alone.
func (f *InputFlags) LoadModel(ctx context.Context, streams genericiooptions.IOStreams, opts cache.Options) (*model.Model, error) {
	cluster, err := f.Load(ctx, streams)
	if err != nil {
		return nil, err
	}
	if opts.Profile == nil {
		p, _, err := f.Profile(streams.ErrOut)
		if err != nil {
			return nil, err
		}
		opts.Profile = &p
	}
	return model.Build(cluster, opts)
}

// isTerminal reports whether w is a terminal (for progress and colour).
func isTerminal(w io.Writer) bool {
	f, ok := unwrapQuiet(w).(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
