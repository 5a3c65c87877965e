package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	apiversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/component-base/featuregate"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// VersionFlags hold --kube-version and --feature-gates: which kube-scheduler
// the cache model behaves as. Every data command has them (InputFlags
// registers them).
type VersionFlags struct {
	KubeVersion  string
	FeatureGates string

	// version is --kube-version parsed by Complete; nil when not given.
	version *cache.Version
}

// AddFlags registers --kube-version and --feature-gates.
func (f *VersionFlags) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.KubeVersion, "kube-version", f.KubeVersion,
		"kube-scheduler version to model, "+cache.SupportedRange+", e.g. v1.18 or v1.22.5 (default: the live API server's version; with -f, the version every node's kubelet reports, else v1.36)")
	cmd.Flags().StringVar(&f.FeatureGates, "feature-gates", f.FeatureGates,
		"kube-scheduler feature gates that change the cache's accounting, e.g. PodLevelResources=true,InPlacePodVerticalScaling=false (default: the version's defaults)")
	versions := make([]string, 0, cache.MaxMinor-cache.MinMinor+1)
	for _, v := range cache.Minors() {
		versions = append(versions, v.String())
	}
	_ = cmd.RegisterFlagCompletionFunc("kube-version", cobra.FixedCompletions(versions, cobra.ShellCompDirectiveNoFileComp))
}

// Complete parses --kube-version; version stays nil when it is not given.
func (f *VersionFlags) Complete() error {
	f.version = nil
	if f.KubeVersion == "" {
		return nil
	}
	v, err := cache.ParseVersion(f.KubeVersion)
	if err != nil {
		return fmt.Errorf("invalid --kube-version: %w", err)
	}
	f.version = &v
	return nil
}

// Validate checks --feature-gates against --kube-version (parsed by
// Complete), or against v1.36 when reading files; with a live cluster and
// no --kube-version the gates are checked once the server's version is
// known (InputFlags.Profile). It changes nothing.
func (f *VersionFlags) Validate(files bool) error {
	v := cache.Latest
	if f.version != nil {
		v = *f.version
	} else if !files {
		return nil
	}
	_, err := parseFeatureGates(f.FeatureGates, v)
	return err
}

// VersionChoice is the kube-scheduler version modelled and where it comes from.
type VersionChoice struct {
	Version cache.Version
	// Given is true for --kube-version and for the live server's version
	// (or the nearest supported one), false for the default (v1.36).
	Given bool
	// Why says how the version was chosen, for notes: "" for
	// --kube-version, "from the server version", "no --kube-version", or
	// why the server's version was not used.
	Why string
	// err is why the server's version could not be read, if it could not.
	err error
}

// chooseVersion picks the version: --kube-version, else for files v1.36,
// else the live server's (the nearest supported version, with a warning,
// when it is out of range; v1.36 with a warning when it cannot be read).
func (f *InputFlags) chooseVersion(ctx context.Context, warnings io.Writer) VersionChoice {
	if v := f.Version.version; v != nil {
		return VersionChoice{Version: *v, Given: true}
	}
	if len(f.Filenames) > 0 {
		return VersionChoice{Version: cache.Latest, Why: "no --kube-version"}
	}
	gitVersion, err := f.serverVersion(ctx)
	if err != nil {
		fmt.Fprintf(warnings, "warning: modelling kube-scheduler %s: the server version is unknown (%v); use --kube-version\n", cache.Latest, err)
		return VersionChoice{Version: cache.Latest, Why: "server version unknown: " + err.Error(), err: err}
	}
	v, err := cache.ParseVersion(gitVersion)
	if err == nil {
		return VersionChoice{Version: v, Given: true, Why: "from the server version"}
	}
	nearest := nearestVersion(gitVersion)
	fmt.Fprintf(warnings, "warning: modelling kube-scheduler %s: the server's version %s is outside %s; use --kube-version\n", nearest, gitVersion, cache.SupportedRange)
	return VersionChoice{Version: nearest, Given: true, Why: fmt.Sprintf("server version %q not supported", gitVersion)}
}

// nearestVersion is v1.18 for a server older than that, else v1.36.
func nearestVersion(gitVersion string) cache.Version {
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(gitVersion, "v"), "%d.%d", &major, &minor); err == nil && major == 1 && minor < cache.MinMinor {
		return cache.Version{Minor: cache.MinMinor}
	}
	return cache.Latest
}

// serverVersion asks the live API server for its git version (GET /version),
// with ctx: Ctrl-C ends the request, also while it connects (client-go's
// Discovery().ServerVersion() takes no context).
func (f *InputFlags) serverVersion(ctx context.Context) (string, error) {
	client, _, err := f.client(io.Discard)
	if err != nil {
		return "", err
	}
	body, err := client.Discovery().RESTClient().Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return "", err
	}
	var info apiversion.Info
	if err := json.Unmarshal(body, &info); err != nil {
		return "", fmt.Errorf("unable to parse the server version: %v", err)
	}
	return info.GitVersion, nil
}

// Profile resolves the kube-scheduler version and feature gates modelled.
// A gate that does not fit the server's version is a usage error.
func (f *InputFlags) Profile(ctx context.Context, warnings io.Writer) (cache.Profile, VersionChoice, error) {
	choice := f.chooseVersion(ctx, warnings)
	gates, err := parseFeatureGates(f.Version.FeatureGates, choice.Version)
	if err != nil {
		return cache.Profile{}, choice, usageError(err)
	}
	return cache.NewProfile(choice.Version, &gates), choice, nil
}

// gateSpec converts a gate of pkg/cache to kube's feature spec.
func gateSpec(g cache.GateState) featuregate.FeatureSpec {
	spec := featuregate.FeatureSpec{Default: g.Default, LockToDefault: g.Locked, PreRelease: featuregate.GA}
	switch g.PreRelease {
	case cache.Alpha:
		spec.PreRelease = featuregate.Alpha
	case cache.Beta:
		spec.PreRelease = featuregate.Beta
	}
	return spec
}

// parseFeatureGates parses "Name=true,Other=false" with kube's own feature
// gate parser, knowing only the gates of v that the model reads, with v's
// defaults, locks and dependencies.
func parseFeatureGates(value string, v cache.Version) (cache.FeatureGates, error) {
	if value == "" {
		return cache.FeatureGatesFor(v), nil
	}
	known := cache.KnownGates(v)
	specs := map[featuregate.Feature]featuregate.FeatureSpec{}
	names := make([]string, 0, len(known))
	for _, g := range known {
		specs[featuregate.Feature(g.Name)] = gateSpec(g)
		names = append(names, g.Name)
	}
	fg := featuregate.NewFeatureGate()
	deps := map[featuregate.Feature][]featuregate.Feature{}
	for gate, needs := range cache.GateDependencies(v) {
		for _, n := range needs {
			deps[featuregate.Feature(gate)] = append(deps[featuregate.Feature(gate)], featuregate.Feature(n))
		}
	}
	if err := fg.Add(specs); err != nil {
		return cache.FeatureGates{}, err
	}
	if err := fg.AddDependencies(deps); err != nil {
		return cache.FeatureGates{}, err
	}
	// A discarding logger: kube's parser logs the gates it sets.
	if err := fg.SetWithLogger(logr.Discard(), value); err != nil {
		sort.Strings(names)
		list := strings.Join(names, ", ")
		if list == "" {
			list = "none"
		}
		return cache.FeatureGates{}, fmt.Errorf("invalid --feature-gates %q: %v (gates modelled for kube-scheduler %s: %s)", value, err, v, list)
	}
	set := map[string]bool{}
	for _, name := range names {
		set[name] = fg.Enabled(featuregate.Feature(name))
	}
	return cache.FeatureGatesWith(v, set), nil
}
