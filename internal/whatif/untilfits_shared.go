package whatif

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Shared is the work several until-fits searches over one cluster and one
// set of pods share, whatever their template (scale-up runs one search
// per node group): the Evaluator, built once (at 5,000 nodes its
// frameworks and converted pods cost about a second), and the run with no
// copy, the same for every template. The searches must run one after the
// other, with the same Model, Objects, Config and Pods as NewShared's.
type Shared struct {
	e    *decide.Evaluator
	snap *cache.Snapshot
	// zero is the run with no copy, once made: its verdicts.
	zero *zeroRun
}

type zeroRun struct {
	verdicts []*decide.Verdict
}

// NewShared builds the Evaluator of m with objects and cfg. A template's
// CSINode is not copied for its copies, as a search of its own does
// (UntilFitsInput.Shared). Close releases it.
func NewShared(ctx context.Context, m *model.Model, objects []runtime.Object, cfg *decide.Config) (*Shared, error) {
	s := &Shared{snap: cache.NewEmptySnapshot()}
	if err := m.Cache.UpdateSnapshot(s.snap); err != nil {
		return nil, err
	}
	e, err := decide.New(ctx, decide.Input{Snapshot: s.snap, Pending: m.Pending, Objects: objects, Config: cfg})
	if err != nil {
		return nil, err
	}
	s.e = e
	return s, nil
}

// Close releases the Evaluator.
func (s *Shared) Close() { s.e.Close() }
