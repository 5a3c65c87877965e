package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
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

	edits pipeline.EditList // without the --add-node-file templates, read by load
	files []nodeFile
	// whatIf is what the edits did (the reports' whatIf field), set by
	// load; nil without edits.
	whatIf *v1alpha1.WhatIf
}

// nodeFile is one --add-node-file FILE[=COUNT].
type nodeFile struct {
	name  string
	count int
	given bool
}

// whatIfInput is the input of a decision command with the edits applied
// (the pipeline's Input).
type whatIfInput = pipeline.Input

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
	w.edits = pipeline.EditList{Cordon: w.Cordon, Uncordon: w.Uncordon, RemoveNodes: w.RemoveNodes}
	for _, s := range w.AddNodes {
		name, n, _, err := pipeline.ParseCopies(s)
		if err != nil {
			return fmt.Errorf("--add-node %w", err)
		}
		w.edits.AddNodes = append(w.edits.AddNodes, pipeline.NodeCopies{Template: name, Count: n})
	}
	w.files = nil
	for _, s := range w.AddNodeFiles {
		name, n, given, err := pipeline.ParseCopies(s)
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

// pipelineEdits are the edits for the pipeline; nil without any.
func (w *WhatIfFlags) pipelineEdits() *pipeline.Edits {
	if !w.Given() {
		return nil
	}
	e := &pipeline.Edits{Edits: w.edits, UntilFits: w.UntilFits}
	for _, f := range w.files {
		e.Files = append(e.Files, pipeline.NodeFile{Name: f.name, Count: f.count})
	}
	return e
}

// load opens the input through the pipeline with the edits applied (its
// notes added to notes); without edits the model is built while the input
// is read.
func (w *WhatIfFlags) load(ctx context.Context, in *InputFlags, streams genericiooptions.IOStreams, notes *pipeline.Notes) (*whatIfInput, error) {
	input, err := in.open(ctx, streams, w.pipelineEdits(), cache.Options{}, notes)
	if err != nil {
		return nil, err
	}
	w.whatIf = input.WhatIf()
	return input, nil
}

// report is the whatIf field of a report: what apply did, nil without
// edits.
func (w *WhatIfFlags) report() *v1alpha1.WhatIf {
	return w.whatIf
}

// loadEdited loads the input and applies the edits (without any, exactly
// in.Load), without a model; its notes are added to notes.
func (w *WhatIfFlags) loadEdited(ctx context.Context, in *InputFlags, streams genericiooptions.IOStreams, notes *pipeline.Notes) (*load.Cluster, error) {
	if !w.Given() {
		return in.Load(ctx, streams, notes)
	}
	input, err := w.load(ctx, in, streams, notes)
	if err != nil {
		return nil, err
	}
	return input.Cluster, nil
}
