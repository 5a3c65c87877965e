package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
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
// known (the pipeline's version choice). It changes nothing.
func (f *VersionFlags) Validate(files bool) error {
	v := cache.Latest
	if f.version != nil {
		v = *f.version
	} else if !files {
		return nil
	}
	_, err := pipeline.ParseFeatureGates(f.FeatureGates, v)
	return err
}

// noteDecisionVersion says on w, for the commands that decide, that the
// decisions come from kube-scheduler v1.36's framework whatever version
// the cache models, when that version is older
// (pipeline.NoteDecisionVersion).
func noteDecisionVersion(w io.Writer, modelled cache.Version) {
	var notes pipeline.Notes
	pipeline.NoteDecisionVersion(&notes, modelled)
	printNotes(w, &notes)
}
