package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// Comparing configurations: "simulate --config A --config B …" and
// "why --pod-file F --config A --config B …" place the same pods, from the
// same loaded cluster state, once per configuration, and print a
// ConfigComparison: one row per configuration. With one --config the
// commands run as before.

// validateConfigs refuses what cannot be compared: a script names its own
// nodes, and --node places pods without the scheduler.
func (o *SimulateOptions) validateConfigs() error {
	switch {
	case len(o.ConfigFiles) < 2:
		return nil
	case o.Script != "":
		return errors.New("--script cannot be used with more than one --config: the script's steps name the nodes")
	case o.Node != "":
		return errors.New("--node cannot be used with more than one --config: it places every pod without the scheduler")
	}
	return nil
}

// validateConfigs: the comparison places --pod-file's replicas.
func (o *WhyOptions) validateConfigs() error {
	if len(o.ConfigFiles) > 1 && o.PodFile == "" {
		return errors.New("more than one --config needs --pod-file: the comparison places the file's replicas under each configuration")
	}
	return nil
}

// loadConfigs reads every --config before any work, so that a bad file
// fails first; names are the files' base names, or the paths as given
// when two base names are the same.
func loadConfigs(files []string) ([]*pipeline.Config, []string, error) {
	cfgs := make([]*pipeline.Config, len(files))
	names := make([]string, len(files))
	seen := map[string]int{}
	for i, f := range files {
		cfg, err := pipeline.LoadConfig(f)
		if err != nil {
			return nil, nil, err
		}
		cfgs[i], names[i] = cfg, filepath.Base(f)
		seen[names[i]]++
	}
	for i, f := range files {
		if seen[names[i]] > 1 {
			names[i] = f
		}
	}
	return cfgs, names, nil
}

func newConfigComparison(command string) *v1alpha1.ConfigComparison {
	out := &v1alpha1.ConfigComparison{Command: command, Configs: []v1alpha1.ConfigOutcome{}}
	v1alpha1.SetKind(out, "ConfigComparison")
	return out
}

// quietAfterFirst runs each configuration with the command's stderr for
// the first only: the input, and so its warnings, are the same for all.
func quietAfterFirst(errOut *io.Writer, n int, run func(i int) error) error {
	saved := *errOut
	defer func() { *errOut = saved }()
	for i := range n {
		if i > 0 {
			*errOut = io.Discard
		}
		if err := run(i); err != nil {
			return err
		}
	}
	return nil
}

// rereadableStdin makes "-" among files readable once per configuration:
// stdin is read once and handed out again from memory.
func rereadableStdin(in *io.Reader, files ...string) (func(), error) {
	if !slices.Contains(files, "-") {
		return func() {}, nil
	}
	data, err := io.ReadAll(*in)
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	return func() { *in = bytes.NewReader(data) }, nil
}

// compareConfigs is simulate with two or more --config files. It exits as
// the plain command does for its worst configuration: 1 when under some
// configuration a pod ends Unschedulable.
func (o *SimulateOptions) compareConfigs() error {
	cfgs, names, err := loadConfigs(o.ConfigFiles)
	if err != nil {
		return err
	}
	rewind, err := rereadableStdin(&o.In, o.PodFiles...)
	if err != nil {
		return err
	}
	// What-if edits apply to every configuration alike; the pods are
	// chosen again on each configuration's model.
	var notes pipeline.Notes
	var pending []*v1.Pod
	sr := o.request(nil, &pending)
	pick := sr.Pods
	sr.Pods = func(m *model.Model, notes *pipeline.Notes) ([]*v1.Pod, error) {
		rewind()
		return pick(m, notes)
	}
	rows, err := pipeline.CompareSimulations(o.context(), o.Input.request(o.IOStreams, o.WhatIf.pipelineEdits(), cache.Options{}), cfgs, sr, &notes)
	printNotes(o.ErrOut, &notes)
	if errors.Is(err, errNoPendingPods) {
		noResourcesFound(o.ErrOut, o.pendingNamespace())
		return nil
	}
	if err != nil {
		return pipelineError(err)
	}
	out := newConfigComparison("simulate")
	for i, r := range rows {
		row := r.Outcome
		row.Config, row.File, out.Source = names[i], o.ConfigFiles[i], r.Source
		if r.Unplaced {
			row.ExitCode = ExitError
		}
		out.Configs = append(out.Configs, row)
	}
	if err := printComparison(o.Output, o.Out, out); err != nil {
		return err
	}
	return comparisonOutcome(out)
}

// compareConfigs is why --pod-file with two or more --config files: the
// replicas placed under each. It exits 1 when under some configuration a
// replica does not fit (the plain command's exit for its worst case).
func (o *WhyOptions) compareConfigs(ctx context.Context) error {
	cfgs, names, err := loadConfigs(o.ConfigFiles)
	if err != nil {
		return err
	}
	var notes pipeline.Notes
	cluster, err := o.WhatIf.loadEdited(ctx, o.Input, o.IOStreams, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return err
	}
	w, err := readPodFile(o.PodFile, o.In, o.Input, o.ErrOut)
	if err != nil {
		return err
	}
	out := newConfigComparison("why")
	var lines []string
	err = quietAfterFirst(&o.ErrOut, len(cfgs), func(i int) error {
		m, err := o.Input.BuildModel(o.context(), cluster, cache.Options{}, &notes)
		printNotes(o.ErrOut, &notes)
		if err != nil {
			return err
		}
		report, err := o.replicasUnder(ctx, m, cluster.Objects, cfgs[i], w)
		if err != nil {
			return err
		}
		r := report.Replicas
		row, err := pipeline.ConfigOutcomeOf(r.Requested, r.Fit, len(r.Nodes), m.Cache)
		if err != nil {
			return err
		}
		row.Config, row.File = names[i], o.ConfigFiles[i]
		if r.Fit < r.Requested {
			row.ExitCode = ExitError
		}
		out.Source = m.Source
		out.Configs = append(out.Configs, row)
		// The replicas' messages are not printed here.
		line := strings.Replace(replicaLine(report), " does not: see its message above", " does not fit", 1)
		lines = append(lines, names[i]+": "+line)
		return nil
	})
	if err != nil {
		return err
	}
	if err := printComparison(o.Output, o.Out, out); err != nil {
		return err
	}
	for _, l := range lines {
		fmt.Fprintln(o.ErrOut, l)
	}
	return comparisonOutcome(out)
}

// comparisonOutcome is the exit status of a comparison: the plain
// command's for the worst configuration (1, silently, when some pod does
// not fit under one of them).
func comparisonOutcome(c *v1alpha1.ConfigComparison) error {
	for _, row := range c.Configs {
		if row.ExitCode != ExitOK {
			return &exitError{code: ExitError, err: errNotScheduled, silent: true}
		}
	}
	return nil
}

func printComparison(f *OutputFlags, out io.Writer, c *v1alpha1.ConfigComparison) error {
	return f.PrintTable(out, c, func(printers.TableOptions) (*printers.Table, error) { return printers.ConfigComparisonTable(c), nil }, nil)
}
