package pipeline

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Config is a kube-scheduler configuration (profiles, plugin weights and
// arguments): the default, or a KubeSchedulerConfiguration v1 file.
type Config = decide.Config

// LoadConfig reads the configuration of file, or kube-scheduler v1.36's
// default profile for "". Errors name the file.
func LoadConfig(file string) (*Config, error) {
	if file == "" {
		return decide.DefaultConfig()
	}
	return decide.LoadConfigFile(file)
}

// Detail is how much of each verdict Evaluate keeps.
type Detail struct {
	// OmitNodes drops the per-node results (decide.Input.OmitNodes).
	OmitNodes bool
	// NearMisses is how many near misses an unschedulable pod's verdict
	// keeps: 0 none, negative all (decide.Input.NearMisses).
	NearMisses int
	// EvaluateEach runs every replica of a template's own cycle
	// (decide.Input.EvaluateEach).
	EvaluateEach bool
}

// Evaluate runs kube-scheduler v1.36's scheduling cycle for each target
// over m (each as if it were the next pod the scheduler takes, the
// cluster unchanged between them) with cfg, and returns one verdict per
// target, in order. Notes: the extenders not called, the objects the
// targets refer to that the input lacks, a target that is not pending.
// Errors: the engine's, named by pod; ctx's when it is done.
func Evaluate(ctx context.Context, m *model.Model, objects []runtime.Object, cfg *Config, targets []*v1.Pod, d Detail, notes *Notes) ([]*decide.Verdict, error) {
	snap := cache.NewEmptySnapshot()
	if err := m.Cache.UpdateSnapshot(snap); err != nil {
		return nil, err
	}
	if cfg.HasExtenders() {
		notes.Add(SeverityWarning, "the configuration names scheduler extenders, which are not called: their filters and scores are missing")
	}
	WarnMissing(notes, targets, objects)
	e, err := decide.New(ctx, decide.Input{Snapshot: snap, Pending: m.Pending, Objects: objects, Config: cfg,
		OmitNodes: d.OmitNodes, NearMisses: d.NearMisses, EvaluateEach: d.EvaluateEach, Cycles: len(targets)})
	if err != nil {
		return nil, err
	}
	defer e.Close()
	out := make([]*decide.Verdict, 0, len(targets))
	for _, p := range targets {
		if err := ctx.Err(); err != nil { // a reused verdict runs no cycle to notice
			return nil, err
		}
		v, err := e.Evaluate(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("pod %s: %w", termtext.Line(p.Namespace+"/"+p.Name), err)
		}
		if p.Spec.NodeName != "" {
			ns, name := termtext.Line(p.Namespace), termtext.Line(p.Name)
			notes.Add(SeverityNote, "pod %s/%s is not pending: it is bound to node %s ('requested --pod %s/%s' checks it as if it were pending)",
				ns, name, termtext.Line(p.Spec.NodeName), ns, name)
		}
		out = append(out, v)
	}
	return out, nil
}
