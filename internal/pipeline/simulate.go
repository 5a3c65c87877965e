package pipeline

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/simulate"
	"github.com/schedcache/kubectl-schedcache/internal/simulate/script"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// The simulation's defaults (simulate.DefaultBindLatency,
// simulate.DefaultCleanupPeriod: kube-scheduler's cleanup period).
const (
	DefaultBindLatency   = simulate.DefaultBindLatency
	DefaultCleanupPeriod = simulate.DefaultCleanupPeriod
)

// Timeline are simulate's timeline flags: the assumed-pod TTL (nil: the
// modelled version's default), the binding outcomes, --node, and the
// durations (0 Until: long enough for every TTL to run out).
type Timeline struct {
	TTL           *time.Duration
	Bind          script.Outcome
	BindFor       map[string]script.Outcome
	Node          string
	BindLatency   time.Duration
	CleanupPeriod time.Duration
	Until         time.Duration
}

// options are the simulator's options for ttl, profile p and cfg.
func (t Timeline) options(ctx context.Context, ttl simulate.TTLChoice, p *cache.Profile, cfg *Config) simulate.Options {
	return simulate.Options{
		TTL: ttl, Profile: p, Bind: t.Bind, BindFor: t.BindFor, Node: t.Node,
		BindLatency: t.BindLatency, CleanupPeriod: t.CleanupPeriod, Until: t.Until,
		SchedulerConfig: cfg, Context: ctx,
	}
}

// Check refuses a timeline with too many cleanup ticks for the TTL in
// force under profile p (--ttl, else p's default), before any input is
// read; Simulate checks again once the version is chosen.
func (t Timeline) Check(p *cache.Profile) error {
	ttl := p.DefaultTTL
	if t.TTL != nil {
		ttl = *t.TTL
	}
	return t.check(ttl, p)
}

// check is Check for ttl; the error names the flags.
func (t Timeline) check(ttl time.Duration, p *cache.Profile) error {
	if err := t.options(context.Background(), simulate.TTLChoice{TTL: ttl}, p, nil).Validate(); err != nil {
		return fmt.Errorf("--until/--cleanup-period: %w", err)
	}
	return nil
}

// PodPicker chooses the pods to simulate on the model (the --pod-file
// pods and the selected pending ones), its notes on notes. Its error ends
// the run unchanged.
type PodPicker func(m *model.Model, notes *Notes) ([]*v1.Pod, error)

// SimulateRequest is what simulate asks beyond the input: the timeline,
// the script's steps (nil: a placement run of the pods in the scheduler's
// queue order) and the pods.
type SimulateRequest struct {
	Timeline Timeline
	Script   []script.Step
	Pods     PodPicker
}

// Simulate opens req's input (Open: the version chosen once, the what-if
// edits applied, the model built while the input is read) into a
// simulator whose TTL and timeline follow the version chosen, and runs
// sr's script, or places sr's pods one after another with kube-scheduler
// v1.36's cycle under cfg along the timeline (simulate.Simulator). The
// result carries the edits in WhatIf. Notes: the input's, the decision
// version's, the pods', the TTL in force, what the pods refer to that the
// input lacks (unless --node places them). Errors: Open's; a timeline
// the version's TTL makes too long, a bad step or pod name (*UsageError).
func Simulate(ctx context.Context, req Request, cfg *Config, sr SimulateRequest, notes *Notes) (*v1alpha1.Simulation, error) {
	var ttl simulate.TTLChoice
	var profile cache.Profile
	req.Configure = func(c Choice, opts *cache.Options) error {
		t, err := simulate.ResolveTTL(sr.Timeline.TTL, &c.Profile.Behavior, c.Given, c.Why)
		if err != nil {
			return err
		}
		if err := sr.Timeline.check(t.TTL, &c.Profile); err != nil {
			return &UsageError{Err: err}
		}
		ttl, profile, opts.TTL = t, c.Profile, t.TTL
		return nil
	}
	var in *Input
	sim, err := simulate.New(sr.Timeline.options(ctx, simulate.TTLChoice{}, nil, cfg), func(opts cache.Options) (*model.Model, []runtime.Object, error) {
		opts.Profile = nil // chosen by Open, for this input
		req.Options = opts
		var err error
		if in, err = Open(ctx, req, notes); err != nil {
			return nil, nil, err
		}
		return in.Model, in.Cluster.Objects, nil
	})
	if err != nil {
		return nil, err
	}
	defer sim.Close()
	sim.SetVersion(ttl, &profile)
	NoteDecisionVersion(notes, profile.Version)
	pods, err := sr.Pods(sim.Model(), notes)
	if err != nil {
		return nil, err
	}
	notes.add(parseNote(ttl.Note()))
	if sr.Timeline.Node == "" {
		WarnMissing(notes, pods, in.Cluster.Objects)
	}
	var out *simulate.Result
	if sr.Script != nil {
		out, err = sim.RunScript(sr.Script, pods)
	} else {
		out, err = sim.Run(QueueOrder(pods))
	}
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return views.Simulation(out, in.WhatIf()), nil
}

// Unplaced reports whether some pod of a placement run ended
// Unschedulable (no node took it): the plain command's exit code 1.
func Unplaced(s *v1alpha1.Simulation) bool {
	for _, p := range s.Pods {
		if p.State == string(simulate.StateUnschedulable) {
			return true
		}
	}
	return false
}

// CompareSimulations places the same pods, from the same loaded input
// (edits applied once), once per configuration of cfgs along the same
// timeline (the TTL of the one version chosen), each over a model built
// afresh, and returns one row per configuration, in order: the pods, how
// many were placed and on how many nodes, the nodes' fill after, and
// whether some pod stayed Unschedulable (Unplaced). The notes are the
// first configuration's (the input, and so its notes, are the same for
// all). Errors: as Simulate's.
func CompareSimulations(ctx context.Context, req Request, cfgs []*Config, sr SimulateRequest, notes *Notes) ([]ComparedConfig, error) {
	cluster, choice, err := loadOnce(ctx, req, notes)
	if err != nil {
		return nil, err
	}
	profile := choice.Profile
	ttl, err := simulate.ResolveTTL(sr.Timeline.TTL, &profile.Behavior, choice.Given, choice.Why)
	if err != nil {
		return nil, err
	}
	if err := sr.Timeline.check(ttl.TTL, &profile); err != nil {
		return nil, &UsageError{Err: err}
	}
	out := make([]ComparedConfig, 0, len(cfgs))
	for i, cfg := range cfgs {
		said := notes
		if i > 0 {
			said = &Notes{}
		}
		row, err := simulateUnder(ctx, req, cfg, cluster, ttl, &profile, sr, said, i == 0)
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

// ComparedConfig is one configuration's row of a comparison, with the
// source of its result and whether some pod stayed pending under it.
type ComparedConfig struct {
	Outcome  v1alpha1.ConfigOutcome
	Source   string
	Unplaced bool
}

// loadOnce loads req's input with its edits applied, and the version
// chosen for it (without a model when there is no edit).
func loadOnce(ctx context.Context, req Request, notes *Notes) (*load.Cluster, Choice, error) {
	if req.Edits.Given() {
		in, err := Open(ctx, req, notes)
		if err != nil {
			return nil, Choice{}, err
		}
		return in.Cluster, in.Choice, nil
	}
	cluster, err := req.Source.Load(ctx, nil, notes)
	if err != nil {
		return nil, Choice{}, err
	}
	choice, err := Choose(ctx, req, cluster.Nodes, notes)
	return cluster, choice, err
}

// simulateUnder runs the plain timeline under cfg over a model of cluster
// built afresh.
func simulateUnder(ctx context.Context, req Request, cfg *Config, cluster *load.Cluster, ttl simulate.TTLChoice, profile *cache.Profile, sr SimulateRequest, notes *Notes, first bool) (ComparedConfig, error) {
	sim, err := simulate.New(sr.Timeline.options(ctx, ttl, profile, cfg), func(opts cache.Options) (*model.Model, []runtime.Object, error) {
		return Rebuild(cluster, req, opts, notes), cluster.Objects, nil
	})
	if err != nil {
		return ComparedConfig{}, err
	}
	defer sim.Close()
	pods, err := sr.Pods(sim.Model(), notes)
	if err != nil {
		return ComparedConfig{}, err
	}
	if first {
		notes.add(parseNote(ttl.Note()))
	}
	WarnMissing(notes, pods, cluster.Objects)
	res, err := sim.Run(QueueOrder(pods))
	if err != nil {
		return ComparedConfig{}, &UsageError{Err: err}
	}
	tally := simulate.TallyOf(res.Pods)
	row, err := ConfigOutcomeOf(len(res.Pods), tally.Placed, tally.Nodes, sim.Model().Cache)
	return ComparedConfig{Outcome: row, Source: res.Source, Unplaced: tally.Unschedulable > 0}, err
}

// Rebuild builds the model of cluster, loaded once, with opts (whose
// Profile is the version chosen for it) as Open would: the warnings of
// the pods the cache refused and req's node order on notes.
func Rebuild(cluster *load.Cluster, req Request, opts cache.Options, notes *Notes) *model.Model {
	m, _ := model.Build(cluster, opts)
	m.WriteWarnings(notes.Writer())
	req.Order.Apply(m, notes)
	return m
}

// ConfigOutcomeOf is one configuration's row of a comparison: pods, how
// many were placed and on how many distinct nodes (placedNodes), and the
// nodes' fill read from c after placement. Its Config, File and ExitCode
// are the caller's.
func ConfigOutcomeOf(pods, placed, placedNodes int, c cache.Cache) (v1alpha1.ConfigOutcome, error) {
	snap := cache.NewEmptySnapshot()
	if err := c.UpdateSnapshot(snap); err != nil {
		return v1alpha1.ConfigOutcome{}, err
	}
	out := v1alpha1.ConfigOutcome{Pods: pods, Placed: placed, Pending: pods - placed, PlacedNodes: placedNodes}
	out.SchedulableNodes, out.NodesUsed, out.Utilisation = views.NodeFill(snap.List())
	return out, nil
}
