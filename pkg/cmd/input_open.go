package cmd

import (
	"context"
	"errors"
	"io"

	v1 "k8s.io/api/core/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"

	// Auth provider plugins (OIDC, …) for kubeconfigs that use them; exec
	// credential plugins work without an import.
	_ "k8s.io/client-go/plugin/pkg/client/auth"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// What the input flags open (input.go holds the flags): the pipeline's
// Source and Request, the live client, and the few thin calls of the
// pipeline the commands share. Each adds the pipeline's notes to the
// caller's Notes, as data: the command prints them at its own print points
// (printNotes), also when the call fails.

// PlainReadEnv is the environment variable that, set to anything, makes -f
// read without the memory layer (pipeline.PlainReadEnv).
const PlainReadEnv = pipeline.PlainReadEnv

// source is what the flags open: the files of -f, or the live cluster of
// the connection flags (its client made on first use), with progress on
// streams.ErrOut's terminal.
func (f *InputFlags) source(streams genericiooptions.IOStreams) pipeline.Source {
	return pipeline.Source{
		Files: f.Filenames, Recursive: f.Recursive, Stdin: streams.In, Limits: f.limits, Namespace: f.PodNamespace(),
		Client: f.client, ChunkSize: f.ChunkSize,
		Objects: f.Objects, ExtraKinds: f.ExtraKinds, KeepEmptyDir: f.KeepEmptyDir,
		Progress: progressOut(streams.ErrOut), Memory: f.memory,
	}
}

// versionSpec is what --kube-version and --feature-gates say.
func (f *InputFlags) versionSpec() pipeline.VersionSpec {
	return pipeline.VersionSpec{Given: f.Version.version, FeatureGates: f.Version.FeatureGates}
}

// request is the pipeline's request of the flags, with edits (nil: none)
// and the cache options opts; a profile set in opts is modelled as if
// --kube-version gave its version (compare: the log's).
func (f *InputFlags) request(streams genericiooptions.IOStreams, edits *pipeline.Edits, opts cache.Options) pipeline.Request {
	spec := f.versionSpec()
	if opts.Profile != nil {
		v := opts.Profile.Version
		spec.Given = &v
	}
	return pipeline.Request{Source: f.source(streams), Version: spec, Edits: edits, Options: opts, Order: f.SchedulerLog.nodeOrder()}
}

// open runs the pipeline's Open (load, version, edits, model), its notes
// added to notes, also when it fails.
func (f *InputFlags) open(ctx context.Context, streams genericiooptions.IOStreams, edits *pipeline.Edits, opts cache.Options, notes *pipeline.Notes) (*pipeline.Input, error) {
	in, err := pipeline.Open(ctx, f.request(streams, edits, opts), notes)
	return in, pipelineError(err)
}

// Load reads the cluster from files or lists it live, its warnings added
// to notes; progress goes to streams.ErrOut's terminal.
func (f *InputFlags) Load(ctx context.Context, streams genericiooptions.IOStreams, notes *pipeline.Notes) (*load.Cluster, error) {
	src := f.source(streams)
	return src.Load(ctx, nil, notes)
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

// Choose is the kube-scheduler version of cluster (loaded with Load), by
// the pipeline's one rule, its notes added to notes.
func (f *InputFlags) Choose(ctx context.Context, streams genericiooptions.IOStreams, cluster *load.Cluster, notes *pipeline.Notes) (pipeline.Choice, error) {
	var nodes []*v1.Node
	if cluster != nil {
		nodes = cluster.Nodes
	}
	choice, err := pipeline.Choose(ctx, f.request(streams, nil, cache.Options{}), nodes, notes)
	return choice, pipelineError(err)
}

// BuildModel builds the cache model of cluster (loaded with Load) with opts,
// modelling the version Choose gives unless opts sets a profile; the
// version's notes and the warnings of the pods the cache refused are added
// to notes.
func (f *InputFlags) BuildModel(ctx context.Context, cluster *load.Cluster, opts cache.Options, notes *pipeline.Notes) (*model.Model, error) {
	if opts.Profile == nil {
		choice, err := pipeline.Choose(ctx, f.request(genericiooptions.IOStreams{ErrOut: io.Discard}, nil, opts), cluster.Nodes, notes)
		if err != nil {
			return nil, pipelineError(err)
		}
		opts.Profile = &choice.Profile
	}
	m, err := model.Build(cluster, opts)
	if err != nil {
		return nil, err
	}
	m.WriteWarnings(notes.Writer())
	f.SchedulerLog.nodeOrder().Apply(m, notes)
	return m, nil
}

// LoadModel loads the input and builds the cache model from it (the
// pipeline's Open), modelling the version chosen for the input unless
// opts sets a profile; its notes and warnings are added to notes.
func (f *InputFlags) LoadModel(ctx context.Context, streams genericiooptions.IOStreams, opts cache.Options, notes *pipeline.Notes) (*model.Model, error) {
	_, m, err := f.LoadWithModel(ctx, streams, opts, notes)
	return m, err
}

// LoadWithModel is LoadModel returning the loaded cluster too.
func (f *InputFlags) LoadWithModel(ctx context.Context, streams genericiooptions.IOStreams, opts cache.Options, notes *pipeline.Notes) (*load.Cluster, *model.Model, error) {
	in, err := f.open(ctx, streams, nil, opts, notes)
	if err != nil {
		return nil, nil, err
	}
	return in.Cluster, in.Model, nil
}

// printNotes writes notes, one line each, to w (stderr) and forgets them:
// the one way a command says the pipeline's notes, at its print points.
func printNotes(w io.Writer, notes *pipeline.Notes) {
	_, _ = notes.WriteTo(w)
}

// pipelineError maps the pipeline's usage errors to exit code 2.
func pipelineError(err error) error {
	var ue *pipeline.UsageError
	if errors.As(err, &ue) {
		return usageError(err)
	}
	return err
}
