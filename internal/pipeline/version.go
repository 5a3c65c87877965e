package pipeline

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// VersionSpec is what the command line says of the kube-scheduler version
// to model: --kube-version (Given, nil when not given) and --feature-gates.
type VersionSpec struct {
	Given        *cache.Version
	FeatureGates string
}

// Choice is the kube-scheduler version modelled, its feature gates, and
// where it comes from. One Choice is made per input, before the model is
// built, and every command of that input models it.
type Choice struct {
	Profile cache.Profile
	// Given is true for --kube-version, the live server's version (or the
	// nearest supported one) and the version every node's kubelet runs;
	// false for the default (v1.36).
	Given bool
	// Why says how the version was chosen, for notes: "" for
	// --kube-version, "from the server version", "from the kubelets",
	// "no --kube-version", or why the server's version was not used.
	Why string
	// ServerErr is why the live server's version could not be read (then
	// v1.36 is modelled, with a warning); nil otherwise.
	ServerErr error
}

// Version is the modelled version.
func (c Choice) Version() cache.Version { return c.Profile.Version }

// withGates is the Choice of v with spec's feature gates parsed against v.
// An error is a *UsageError: a gate that v does not know or allow.
func withGates(spec VersionSpec, v cache.Version, given bool, why string) (Choice, error) {
	gates, err := ParseFeatureGates(spec.FeatureGates, v)
	if err != nil {
		return Choice{}, &UsageError{Err: err}
	}
	return Choice{Profile: cache.NewProfile(v, &gates), Given: given, Why: why}, nil
}

// chooseGiven is the Choice of --kube-version; ok is false without it.
func chooseGiven(spec VersionSpec) (Choice, bool, error) {
	if spec.Given == nil {
		return Choice{}, false, nil
	}
	c, err := withGates(spec, *spec.Given, true, "")
	return c, true, err
}

// ServerVersion returns the live API server's git version (GET /version).
type ServerVersion func(ctx context.Context) (string, error)

// chooseLive is the Choice for a live cluster without --kube-version: the
// server's version, the nearest supported one when it is out of range
// (with a warning), v1.36 when it cannot be read (with a warning; quiet is
// then false, so that the caller lists first and a listing's own error is
// said alone).
func chooseLive(ctx context.Context, spec VersionSpec, server ServerVersion, notes *Notes) (c Choice, quiet bool, err error) {
	gitVersion, err := server(ctx)
	if err != nil {
		c, gerr := withGates(spec, cache.Latest, false, "server version unknown: "+err.Error())
		c.ServerErr = err
		notes.Add(SeverityWarning, "modelling kube-scheduler %s: the server version is unknown (%v); use --kube-version", cache.Latest, err)
		return c, false, gerr
	}
	if v, err := cache.ParseVersion(gitVersion); err == nil {
		c, err := withGates(spec, v, true, "from the server version")
		return c, true, err
	}
	nearest := nearestVersion(gitVersion)
	notes.Add(SeverityWarning, "modelling kube-scheduler %s: the server's version %s is outside %s; use --kube-version", nearest, gitVersion, cache.SupportedRange)
	c, err = withGates(spec, nearest, true, fmt.Sprintf("server version %q not supported", gitVersion))
	return c, true, err
}

// nearestVersion is v1.18 for a server older than that, else v1.36.
func nearestVersion(gitVersion string) cache.Version {
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(gitVersion, "v"), "%d.%d", &major, &minor); err == nil && major == 1 && minor < cache.MinMinor {
		return cache.Version{Minor: cache.MinMinor}
	}
	return cache.Latest
}

// chooseFromNodes is the Choice for files read without --kube-version,
// from the nodes' status.nodeInfo.kubeletVersion (FromKubelets), with its
// one note. With --feature-gates, read against v1.36, v1.36 stays and the
// note says why.
func chooseFromNodes(spec VersionSpec, nodes []*v1.Node) (c Choice, said []Note, err error) {
	var notes Notes
	defer func() { said = notes.List() }()
	kc := FromKubelets(nodes)
	if spec.FeatureGates != "" && kc.Version.Minor != cache.Latest.Minor {
		notes.Add(SeverityNote, "modelling kube-scheduler %s, which --feature-gates were read against, though every node's kubelet is %s; --kube-version %s models that",
			cache.Latest, kc.Version, kc.Version)
		c, err = withGates(spec, cache.Latest, false, "no --kube-version")
		return c, nil, err
	}
	if kc.Note != "" {
		notes.Add(SeverityNote, "%s", kc.Note)
	}
	if kc.Version.Minor != cache.Latest.Minor {
		c, err = withGates(spec, kc.Version, true, "from the kubelets")
		return c, nil, err
	}
	c, err = withGates(spec, cache.Latest, false, "no --kube-version")
	return c, nil, err
}

// NoteDecisionVersion adds, for the commands that decide, that the
// decisions come from kube-scheduler v1.36's framework whatever version
// the cache models, when that version is older.
func NoteDecisionVersion(notes *Notes, modelled cache.Version) {
	if modelled.Minor >= cache.MaxMinor {
		return
	}
	notes.Add(SeverityNote, "decisions follow kube-scheduler %s's framework and plugins, not %s's (only the cache's accounting is %s's): verdicts and messages may differ from that scheduler's",
		cache.Latest, modelled, modelled)
}

// UsageError is an error of the command line's values found while the
// pipeline runs (a feature gate the server's version does not know, an
// unknown node or pod named by a what-if edit): pkg/cmd maps it to its
// usage exit code.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }
