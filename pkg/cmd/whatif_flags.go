package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// WhatIfFlags are the what-if edits of the decision commands (why,
// simulate, requested --pod, drain): nodes cordoned, uncordoned, removed
// or added, pods evicted, applied to the input before the model is built.
type WhatIfFlags struct {
	Cordon       []string
	Uncordon     []string
	RemoveNodes  []string
	AddNodes     []string
	AddNodeFiles []string
	Evict        []string
	// UntilFits (why only, see addUntilFits): the smallest count of the one
	// --add-node template with which the pending pods fit.
	UntilFits bool

	edits whatif.Edits // without the --add-node-file templates, read by load
	files []nodeFile
	// template is, with --until-fits, the one --add-node or --add-node-file
	// (not applied: the search adds its copies), set by load.
	template *whatif.NodeCopies
	// applied is what apply did.
	applied *whatif.Applied
}

// nodeFile is one --add-node-file FILE[=COUNT].
type nodeFile struct {
	name  string
	count int
	given bool
}

// whatIfInput is the input of a decision command with the edits applied.
type whatIfInput struct {
	// Cluster and Model are the edited ones (the input's without edits).
	Cluster *load.Cluster
	Model   *model.Model
	// Applied and Original (the unedited input) are nil without edits.
	Applied  *whatif.Applied
	Original *load.Cluster
}

// NewWhatIfFlags returns WhatIfFlags without edits.
func NewWhatIfFlags() *WhatIfFlags { return &WhatIfFlags{} }

// AddFlags registers the edit flags on cmd; in gives node and pod name
// completion.
func (w *WhatIfFlags) AddFlags(cmd *cobra.Command, in *InputFlags) {
	f := cmd.Flags()
	f.StringArrayVar(&w.Cordon, "cordon", w.Cordon, "What if: this node is cordoned (repeatable)")
	f.StringArrayVar(&w.Uncordon, "uncordon", w.Uncordon, "What if: this node is uncordoned (repeatable)")
	f.StringArrayVar(&w.RemoveNodes, "remove-node", w.RemoveNodes, "What if: this node is gone, as after a node failure; its pods that a controller recreates come back pending (repeatable)")
	f.StringArrayVar(&w.AddNodes, "add-node", w.AddNodes, "What if: COUNT (default 1) new nodes like this one, TEMPLATE[=COUNT]: labels, taints, allocatable, zone, DaemonSet pods; named TEMPLATE-whatif-1..COUNT (repeatable)")
	f.StringArrayVar(&w.AddNodeFiles, "add-node-file", w.AddNodeFiles, "What if: COUNT (default 1) new nodes like each Node of this manifest, FILE[=COUNT] (repeatable)")
	f.StringArrayVar(&w.Evict, "evict", w.Evict, "What if: this pod (NAMESPACE/NAME, or NAME in the current namespace) is evicted; its controller's replacement is pending (repeatable)")
	for _, name := range []string{"cordon", "uncordon", "remove-node", "add-node"} {
		_ = cmd.RegisterFlagCompletionFunc(name, completeNodeNames(in))
	}
	_ = cmd.RegisterFlagCompletionFunc("evict", completePodNames(in))
	if ns := f.Lookup("namespace"); ns != nil && ns.Usage == namespaceIgnored {
		ns.Usage += "; the namespace of an --evict pod named without one"
	}
}

// addUntilFits registers --until-fits (why).
func (w *WhatIfFlags) addUntilFits(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&w.UntilFits, "until-fits", w.UntilFits, "With one --add-node TEMPLATE (or --add-node-file FILE) without COUNT: the smallest number of such nodes with which every selected pending pod that fits one alone is scheduled")
}

// Given reports whether any edit flag was given.
func (w *WhatIfFlags) Given() bool {
	return len(w.Cordon)+len(w.Uncordon)+len(w.RemoveNodes)+len(w.AddNodes)+len(w.AddNodeFiles)+len(w.Evict) > 0
}

// Complete parses the counts and resolves the --evict pods' namespace
// (podNamespace: -n, else the kubeconfig context's). Errors name the value
// that does not parse.
func (w *WhatIfFlags) Complete(podNamespace string) error {
	w.edits = whatif.Edits{Cordon: w.Cordon, Uncordon: w.Uncordon, RemoveNodes: w.RemoveNodes}
	for _, s := range w.AddNodes {
		name, n, _, err := whatif.ParseCopies(s)
		if err != nil {
			return fmt.Errorf("--add-node %w", err)
		}
		w.edits.AddNodes = append(w.edits.AddNodes, whatif.NodeCopies{Template: name, Count: n})
	}
	w.files = nil
	for _, s := range w.AddNodeFiles {
		name, n, given, err := whatif.ParseCopies(s)
		if err != nil {
			return fmt.Errorf("--add-node-file %w", err)
		}
		w.files = append(w.files, nodeFile{name: name, count: n, given: given})
	}
	for _, s := range w.Evict {
		ns, name := podNamespace, s
		if before, after, ok := strings.Cut(s, "/"); ok {
			ns, name = before, after
		}
		if ns == "" || name == "" {
			return fmt.Errorf("--evict %q: want NAMESPACE/NAME or NAME", s)
		}
		w.edits.Evict = append(w.edits.Evict, types.NamespacedName{Namespace: ns, Name: name})
	}
	return nil
}

// Validate checks --until-fits: exactly one template, without a count.
func (w *WhatIfFlags) Validate() error {
	if !w.UntilFits {
		return nil
	}
	if len(w.AddNodes)+len(w.AddNodeFiles) != 1 {
		return errors.New("--until-fits needs exactly one --add-node TEMPLATE or --add-node-file FILE")
	}
	if strings.Contains(strings.Join(append(w.AddNodes, w.AddNodeFiles...), ""), "=") {
		return errors.New("--until-fits finds the count itself: give --add-node TEMPLATE (or --add-node-file FILE) without =COUNT")
	}
	return nil
}

// load loads the input, applies the edits and builds the model; without
// edits it is exactly in.LoadWithModel. The applied edits are noted once
// on stderr.
func (w *WhatIfFlags) load(ctx context.Context, in *InputFlags, streams genericiooptions.IOStreams) (*whatIfInput, error) {
	if !w.Given() {
		c, m, err := in.LoadWithModel(ctx, streams, cache.Options{})
		return &whatIfInput{Cluster: c, Model: m}, err
	}
	orig, err := in.Load(ctx, streams)
	if err != nil {
		return nil, err
	}
	edited, applied, err := w.apply(orig, in, streams)
	if err != nil {
		return nil, err
	}
	m, err := in.BuildModel(ctx, edited, cache.Options{}, streams.ErrOut)
	if err != nil {
		return nil, err
	}
	return &whatIfInput{Cluster: edited, Model: m, Applied: applied, Original: orig}, nil
}

// apply reads the --add-node-file templates and applies the edits to c,
// noting them on stderr. Mistakes (an unknown node or pod, a bad file) are
// usage errors.
func (w *WhatIfFlags) apply(c *load.Cluster, in *InputFlags, streams genericiooptions.IOStreams) (*load.Cluster, *whatif.Applied, error) {
	edits := w.edits
	edits.AddNodes = append([]whatif.NodeCopies(nil), edits.AddNodes...)
	for _, f := range w.files {
		nodes, err := readNodeFile(f.name, streams.In, in.Limits(), streams.ErrOut)
		if err != nil {
			return nil, nil, usageError(err)
		}
		for _, n := range nodes {
			edits.AddNodes = append(edits.AddNodes, whatif.NodeCopies{Template: n.Name, Node: n, File: f.name, Count: f.count})
		}
	}
	if w.UntilFits && len(edits.AddNodes) != 1 {
		return nil, nil, usageError(fmt.Errorf("--until-fits needs one template node, --add-node-file %s holds %d", oneLine(w.files[0].name), len(edits.AddNodes)))
	}
	if w.UntilFits {
		t := edits.AddNodes[0]
		if t.Node == nil {
			for _, n := range c.Nodes {
				if n.Name == t.Template {
					t.Node = n
				}
			}
			if t.Node == nil {
				return nil, nil, usageError(fmt.Errorf("--add-node %s: no such node in the input", oneLine(t.Template)))
			}
			t.File = ""
		}
		w.template, edits.AddNodes = &t, nil
	}
	edited, applied, err := whatif.Apply(c, edits)
	if err != nil {
		return nil, nil, usageError(err)
	}
	noteWhatIf(streams.ErrOut, applied)
	w.applied = applied
	return edited, applied, nil
}

// report is the whatIf field of a report: what apply did, nil without
// edits.
func (w *WhatIfFlags) report() *v1alpha1.WhatIf {
	if w.applied == nil {
		return nil
	}
	api := w.applied.API
	return &api
}

// loadEdited loads the input and applies the edits (without any, exactly
// in.Load).
func (w *WhatIfFlags) loadEdited(ctx context.Context, in *InputFlags, streams genericiooptions.IOStreams) (*load.Cluster, error) {
	c, err := in.Load(ctx, streams)
	if err != nil || !w.Given() {
		return c, err
	}
	edited, _, err := w.apply(c, in, streams)
	return edited, err
}

func noteWhatIf(w io.Writer, a *whatif.Applied) {
	if s := a.Summary(); s != "" {
		fmt.Fprintf(w, "note: what-if: %s\n", oneLine(s))
	}
}

// readNodeFile reads the Nodes of an --add-node-file (with the reader and
// limits of -f); an error names the file when it holds none.
func readNodeFile(name string, stdin io.Reader, limits load.Limits, warnings io.Writer) ([]*v1.Node, error) {
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{name}, Stdin: stdin, Limits: limits}, warnings)
	if err != nil {
		return nil, fmt.Errorf("--add-node-file %s: %w", oneLine(name), err)
	}
	if len(c.Nodes) == 0 {
		return nil, fmt.Errorf("--add-node-file %s: no Node in the file", oneLine(name))
	}
	return c.Nodes, nil
}
