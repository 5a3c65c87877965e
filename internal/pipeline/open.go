package pipeline

import (
	"context"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Request is what a command asks of the input: where it comes from, the
// version flags, the what-if edits, and the cache options of its model.
type Request struct {
	Source  Source
	Version VersionSpec
	// Edits are the what-if edits (nil: none).
	Edits *Edits
	// Options are the cache's options (a clock, an observer…); their
	// Profile is ignored: the version is chosen by Open.
	Options cache.Options
	// Configure, when not nil, is called once the version is chosen and
	// before the cache is made, to set what depends on the version (a
	// simulation's TTL) in the options; its error ends Open.
	Configure func(Choice, *cache.Options) error
	// Order, when not nil, is the running scheduler's node order every
	// model keeps (--scheduler-log).
	Order *NodeOrder
}

// options are the cache options of the model for choice.
func (r *Request) options(choice Choice) (cache.Options, error) {
	opts := r.Options
	opts.Profile = &choice.Profile
	if r.Configure != nil {
		if err := r.Configure(choice, &opts); err != nil {
			return opts, err
		}
	}
	return opts, nil
}

// Input is the input of a command: the cluster (edited), its model, the
// one version chosen for it, and what the edits did.
type Input struct {
	Cluster *load.Cluster
	Model   *model.Model
	Choice  Choice
	// Applied and Original (the unedited cluster) are nil without edits;
	// Template is --until-fits' template node (not applied).
	Applied  *whatif.Applied
	Original *load.Cluster
	Template *whatif.NodeCopies
	// order is the Request's Order, for the models built later from the
	// same input (the unedited one of Changes).
	order *NodeOrder
	// source is where the input came from, for what a scenario reads
	// beside it (cluster-autoscaler's status ConfigMap).
	source Source
}

// WhatIf is the whatIf field of a report: what the edits did; nil
// without edits.
func (in *Input) WhatIf() *v1alpha1.WhatIf { return views.WhatIf(in.Applied) }

// Open reads or lists the input, chooses the kube-scheduler version once
// (Choose's rules: --kube-version; a live server's version, asked before
// the listing; for files, the nodes' kubelets, decided at the first pod),
// applies the edits and builds the model. The model is built while the
// input is read (load.Sink), one model for one version, with the edits
// made at the first pod (editingSink) when there are any; from the whole
// edited cluster when that cannot be (the version known only after a live
// listing, --add-node-file, a node after a pod). Notes and warnings go
// to notes, in order; nothing is printed. Errors: load's (*load.Error), a
// *UsageError for a flag value the input refutes.
func Open(ctx context.Context, req Request, notes *Notes) (*Input, error) {
	if req.Edits.Given() {
		return openEdited(ctx, req, notes)
	}
	chooser, err := newChooser(ctx, req, notes)
	if err != nil {
		return nil, err
	}
	var sink load.Sink
	if chooser.streams() {
		sink = chooser.builder
	}
	cluster, err := req.Source.Load(ctx, sink, notes)
	if err != nil {
		return nil, err
	}
	m, choice, err := chooser.finish(cluster, notes)
	if err != nil {
		return nil, err
	}
	m.WriteWarnings(notes.Writer())
	req.Order.Apply(m, notes)
	return &Input{Cluster: cluster, Model: m, Choice: choice, order: req.Order, source: req.Source}, nil
}

// openEdited is Open with edits: load, choose the version from the
// unedited input, apply the edits, build the edited cluster's model.
// When the version is known by the first pod and no --add-node-file is
// read, the model is built while reading (editingSink); else, or when the
// streamed cluster is not the edited one, from the whole edited cluster.
func openEdited(ctx context.Context, req Request, notes *Notes) (*Input, error) {
	chooser, err := newChooser(ctx, req, notes)
	if err != nil {
		return nil, err
	}
	var sink *editingSink
	var loadSink load.Sink
	if chooser.streams() && len(req.Edits.Files) == 0 {
		sink = newEditingSink(req.Edits, chooser.builder)
		loadSink = sink
	}
	orig, err := req.Source.Load(ctx, loadSink, notes)
	if err != nil {
		return nil, err
	}
	if sink != nil {
		if in, ok, err := finishStreamed(req, chooser, sink, orig, notes); ok {
			return in, err
		}
	}
	return editLoaded(req, chooser, orig, notes)
}

// finishStreamed is openEdited's end when the model was built while
// reading: the edits applied to orig (for the edited cluster and what
// they did) and the model finished with the pods Apply appends; false
// when the streamed cluster is not Apply's (editLoaded then builds the
// model, and says any error, from orig).
func finishStreamed(req Request, chooser *chooser, sink *editingSink, orig *load.Cluster, notes *Notes) (*Input, bool, error) {
	var said Notes // the edits' note, after the version's
	edited, applied, template, err := req.Edits.apply(orig, req.Source.Stdin, req.Source.Limits, &said)
	if err != nil || !sink.complete(edited) {
		return nil, false, nil
	}
	m, choice, err := chooser.finish(edited, notes)
	if err != nil {
		return nil, true, err
	}
	notes.AddAll(said.List())
	m.WriteWarnings(notes.Writer())
	req.Order.Apply(m, notes)
	return &Input{Cluster: edited, Model: m, Choice: choice, Applied: applied, Original: orig, Template: template, order: req.Order, source: req.Source}, true, nil
}

// editLoaded is openEdited's end from the whole loaded cluster orig:
// choose the version, apply the edits, build the edited cluster's model.
func editLoaded(req Request, chooser *chooser, orig *load.Cluster, notes *Notes) (*Input, error) {
	choice, err := chooser.choose(orig.Nodes, notes)
	if err != nil {
		return nil, err
	}
	edited, applied, template, err := req.Edits.apply(orig, req.Source.Stdin, req.Source.Limits, notes)
	if err != nil {
		return nil, err
	}
	opts, err := req.options(choice)
	if err != nil {
		return nil, err
	}
	m, _ := model.Build(edited, opts)
	m.WriteWarnings(notes.Writer())
	req.Order.Apply(m, notes)
	return &Input{Cluster: edited, Model: m, Choice: choice, Applied: applied, Original: orig, Template: template, order: req.Order, source: req.Source}, nil
}

// Build builds the model of cluster with choice's profile and opts (the
// unedited input of a what-if, a simulation's own cache), with the
// warnings of the pods the cache refused on notes.
func Build(cluster *load.Cluster, choice Choice, opts cache.Options, notes *Notes) *model.Model {
	m := build(cluster, choice, opts)
	m.WriteWarnings(notes.Writer())
	return m
}

func build(cluster *load.Cluster, choice Choice, opts cache.Options) *model.Model {
	opts.Profile = &choice.Profile
	m, _ := model.Build(cluster, opts)
	return m
}

// Choose is the version of an input already loaded, whose nodes are
// nodes, by Open's rules, with its notes; for a command that loads the
// input and builds its own model (a simulation's cache).
func Choose(ctx context.Context, req Request, nodes []*v1.Node, notes *Notes) (Choice, error) {
	c, err := newChooser(ctx, req, notes)
	if err != nil {
		return Choice{}, err
	}
	if c.asked != nil && c.choice == nil {
		// The server was asked once; its answer (and warning) stands.
		notes.AddAll(c.later)
		return *c.asked, nil
	}
	return c.choose(nodes, notes)
}

// chooser holds the version choice of one Open: made before the load
// (given, live), or by a decidingBuilder at the first pod (files).
type chooser struct {
	ctx     context.Context
	req     Request
	choice  *Choice // nil until chosen
	later   []Note  // a live choice's warnings, said after the listing
	quiet   bool    // a live choice made without a word
	asked   *Choice // the live server's answer, when asked before the load
	builder load.Sink
	decide  *decidingBuilder
}

// newChooser chooses what can be chosen before the load.
func newChooser(ctx context.Context, req Request, notes *Notes) (*chooser, error) {
	c := &chooser{ctx: ctx, req: req}
	if given, ok, err := chooseGiven(req.Version); ok {
		if err != nil {
			return nil, err
		}
		c.choice, c.quiet = &given, true
	} else if req.Source.IsFiles() {
		c.decide = newDecidingBuilder(req.options, func(nodes []*v1.Node) (Choice, []Note, error) {
			return chooseFromNodes(req.Version, nodes)
		})
		c.builder = c.decide
		return c, nil
	} else if err := c.chooseLive(ctx, notes); err != nil {
		return nil, err
	}
	if c.quiet {
		opts, err := req.options(*c.choice)
		if err != nil {
			return nil, err
		}
		c.builder = model.NewBuilder(opts)
	}
	return c, nil
}

// chooseLive asks the live server's version before the listing; when
// that says anything (the version cannot be read, the server cannot be
// reached), the warnings wait for the listing, whose own error comes
// first.
func (c *chooser) chooseLive(ctx context.Context, notes *Notes) error {
	if _, _, err := c.req.Source.Client(notes.Writer()); err != nil {
		return nil // the listing says it
	}
	var said Notes
	choice, quiet, err := chooseLive(ctx, c.req.Version, c.req.Source.ServerVersion, &said)
	if err != nil && quiet {
		return err
	}
	c.later = said.List()
	if err == nil {
		c.asked = &choice
	}
	if quiet && len(c.later) == 0 {
		c.choice, c.quiet = &choice, true
	}
	return nil
}

// streams reports whether the model is built while the input is read.
func (c *chooser) streams() bool { return c.builder != nil }

// choose is the version for the input whose nodes are nodes: the one
// chosen before the load, else from the nodes (files), else the live
// server's asked again now that the listing worked.
func (c *chooser) choose(nodes []*v1.Node, notes *Notes) (Choice, error) {
	switch {
	case c.choice != nil:
		notes.AddAll(c.later)
		return *c.choice, nil
	case c.decide != nil:
		choice, said, err := chooseFromNodes(c.req.Version, nodes)
		notes.AddAll(said)
		return choice, err
	}
	choice, _, err := chooseLive(c.ctx, c.req.Version, c.req.Source.ServerVersion, notes)
	return choice, err
}

// finish returns the model of cluster, loaded with the chooser's sink.
func (c *chooser) finish(cluster *load.Cluster, notes *Notes) (*model.Model, Choice, error) {
	switch {
	case c.decide != nil:
		m, choice, said, err := c.decide.Finish(cluster)
		notes.AddAll(said)
		return m, choice, err
	case c.quiet:
		return c.builder.(*model.Builder).Finish(cluster), *c.choice, nil
	}
	choice, err := c.choose(cluster.Nodes, notes)
	if err != nil {
		return nil, choice, err
	}
	opts, err := c.req.options(choice)
	if err != nil {
		return nil, choice, err
	}
	m, _ := model.Build(cluster, opts)
	return m, choice, nil
}
