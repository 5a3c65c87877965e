package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/diff"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

var diffExample = `  # What changed in the scheduler's view between two points in time
  kubectl schedcache dump -o json > before.json
  kubectl schedcache dump -o json > after.json
  kubectl schedcache diff before.json after.json

  # A saved snapshot against the cluster now (or against -f files)
  kubectl schedcache diff snapshot-before.yaml
  kubectl schedcache diff snapshot-before.yaml -f export.yaml -o json`

// DiffOptions drive "diff".
type DiffOptions struct {
	Input  *InputFlags
	Output *OutputFlags
	// From and To are the saved outputs ("-" for stdin); To empty means the
	// cluster (or -f files) now.
	From, To string
	genericiooptions.IOStreams
	runContext
}

// NewDiffOptions returns DiffOptions with defaults.
func NewDiffOptions(streams genericiooptions.IOStreams) *DiffOptions {
	return &DiffOptions{Input: NewInputFlags().withoutNamespace(), Output: NewOutputFlags(), IOStreams: streams}
}

// NewCmdDiff returns the "diff" subcommand.
func NewCmdDiff(streams genericiooptions.IOStreams) *cobra.Command {
	o := NewDiffOptions(streams)
	cmd := newDataCommand(&cobra.Command{
		Use:   "diff SAVED [SAVED2]",
		Short: "Compare two saved dump or snapshot outputs, or one with the cluster now",
		Long: `Compare two outputs of "dump -o json|yaml" (kind CacheDump) or of "snapshot -o
json|yaml" (kind Snapshot), or one of them with the same view of the cluster now (or
of -f files): nodes added and removed, and per node what changed: requested,
non-zero requested and allocatable resources, pods added, removed or changed (by
UID), nominated pods, host ports, PVC counts; for snapshots the generation, each
node's pod count and position in the scan order, and the affinity and PVC lists.

Generations are reported (with -o wide, and in JSON) but not counted: a cache built
afresh numbers them in input order, so between two runs a node's generation moves
whenever a node listed before it changed.

Exit codes: 0 identical, 3 different, 1 error, 2 usage error.`,
		Example: diffExample,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usageError(fmt.Errorf("%q takes one or two saved outputs, got %d arguments; see '%s --help'", c.CommandPath(), len(args), c.CommandPath()))
			}
			return nil
		},
	}, o.Input, o.Output, o)
	return cmd
}

// Complete takes SAVED (and SAVED2) from args and derives the input
// settings; f gives the live connection.
func (o *DiffOptions) Complete(f genericclioptions.RESTClientGetter, cmd *cobra.Command, args []string) error {
	o.From, o.To = "", ""
	if len(args) > 0 {
		o.From = args[0]
	}
	if len(args) > 1 {
		o.To = args[1]
	}
	return completeIO(&o.runContext, o.Input, f, cmd)
}

// Validate checks flag combinations; it changes nothing.
func (o *DiffOptions) Validate() error {
	if err := validateIO(o.Input, o.Output); err != nil {
		return err
	}
	if o.To != "" && (len(o.Input.Filenames) > 0) {
		return errors.New("-f reads the cluster to compare SAVED with; with two saved outputs there is nothing to read")
	}
	stdin := 0
	for _, f := range append([]string{o.From, o.To}, o.Input.Filenames...) {
		if f == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return errors.New("only one input can be read from stdin (-)")
	}
	return nil
}

// Run reads both sides and prints their differences; ExitDiffer when any.
func (o *DiffOptions) Run() error {
	from, err := o.readSaved(o.From)
	if err != nil {
		return err
	}
	var to *saved
	if o.To != "" {
		if to, err = o.readSaved(o.To); err != nil {
			return err
		}
	} else if to, err = o.now(o.context(), from.kind); err != nil {
		return err
	}
	if from.kind != to.kind {
		return fmt.Errorf("%s is a %s and %s a %s: compare outputs of the same command", from.name, from.kind, to.name, to.kind)
	}
	var d *v1alpha1.CacheDiff
	if from.kind == "CacheDump" {
		d = diff.Dumps(from.dump, to.dump, from.describe(), to.describe())
	} else {
		d = diff.Snapshots(from.snapshot, to.snapshot, from.describe(), to.describe())
	}
	if err := o.Output.Print(o.Out, d, func(t printers.TableOptions) error { return printers.PrintDiff(o.Out, d, t) }); err != nil {
		return err
	}
	if !d.Identical {
		return differError(d.Differences)
	}
	return nil
}

// saved is one side: a CacheDump or a Snapshot.
type saved struct {
	name, kind, source string
	dump               *v1alpha1.CacheDump
	snapshot           *v1alpha1.Snapshot
}

func (s *saved) describe() string {
	if s.source == "" || s.name == s.source {
		return s.name
	}
	return fmt.Sprintf("%s (%s)", s.name, s.source)
}

// readSaved reads a saved "dump -o json|yaml" or "snapshot -o json|yaml".
func (o *DiffOptions) readSaved(path string) (*saved, error) {
	var (
		data []byte
		err  error
	)
	name := path
	if path == "-" {
		name = "stdin"
		data, err = io.ReadAll(o.In)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || trimmed[0] != '{' {
		if data, err = yaml.YAMLToJSON(data); err != nil {
			return nil, fmt.Errorf("%s: not JSON or YAML: %w", name, err)
		}
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Source     string `json:"source"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := &saved{name: name, kind: head.Kind, source: head.Source}
	if head.APIVersion != v1alpha1.SchemeGroupVersion.String() || (head.Kind != "CacheDump" && head.Kind != "Snapshot") {
		return nil, fmt.Errorf("%s holds apiVersion %q kind %q; want the %s CacheDump or Snapshot that \"dump -o json\" or \"snapshot -o json\" print",
			name, head.APIVersion, head.Kind, v1alpha1.SchemeGroupVersion)
	}
	var target any = &s.snapshot
	if head.Kind == "CacheDump" {
		target = &s.dump
	}
	if err := json.Unmarshal(data, target); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// now builds the same view of the cluster (or -f files) as kind.
func (o *DiffOptions) now(ctx context.Context, kind string) (*saved, error) {
	var notes pipeline.Notes
	m, err := o.Input.LoadModel(ctx, o.IOStreams, cache.Options{}, &notes)
	printNotes(o.ErrOut, &notes)
	if err != nil {
		return nil, err
	}
	s := &saved{name: m.Source, kind: kind}
	if kind == "CacheDump" {
		s.dump, err = views.Dump(m, nil)
	} else {
		s.snapshot, err = views.Snapshot(m)
	}
	return s, err
}
