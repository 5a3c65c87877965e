package decide

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BenchmarkWhy5kNodes150kPods measures "why" after loading, on the
// generated 5,000-node / 150,000-pod cluster (about 1,500 pending pods):
//
//   - New: building the Evaluator (frameworks, informers, and our
//     NodeInfos converted for the framework), once per command;
//   - OnePod: one pending pod's scheduling cycle ("why POD");
//   - AllPending: every pending pod's cycle, keeping every node's result
//     ("why -A -o wide"), reported per pod, with the number of distinct
//     cycles run (identical pods share one);
//   - AllPendingOmitNodes: the same as "why -A" and report run them:
//     without per-node results, the cycles announced (Input.Cycles).
//
// Targets (2 cores): OnePod ≤ 50 ms, AllPending ≤ 30 ms per pod.
func BenchmarkWhy5kNodes150kPods(b *testing.B) {
	c, m, snap := generated(b, loadtest.LargeNodes, loadtest.LargePods)
	in := Input{Snapshot: snap, Pending: m.Pending, Objects: c.Objects}
	ctx := context.Background()
	b.Logf("%d nodes, %d pods, %d pending", len(c.Nodes), len(c.Pods), len(m.Pending))
	b.Run("New", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e, err := New(ctx, in)
			if err != nil {
				b.Fatal(err)
			}
			e.Close()
		}
	})
	e, err := New(ctx, in)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	b.Run("OnePod", func(b *testing.B) {
		b.ReportAllocs()
		p := m.Pending[len(m.Pending)/2]
		for b.Loop() {
			e.forget() // a cycle, not a reused verdict or result
			evaluateOrFail(b, e, p)
		}
	})
	b.Run("AllPending", func(b *testing.B) {
		allPending(b, e, m.Pending)
		b.ReportMetric(float64(len(e.memo)), "cycles")
	})
	in.OmitNodes, in.Cycles = true, len(m.Pending)
	omitting, err := New(ctx, in)
	if err != nil {
		b.Fatal(err)
	}
	defer omitting.Close()
	b.Run("AllPendingOmitNodes", func(b *testing.B) { allPending(b, omitting, m.Pending) })
}

// allPending runs every pending pod's cycle per iteration, none reused
// from the iteration before, and reports the time per pod.
func allPending(b *testing.B, e *Evaluator, pending []*v1.Pod) {
	b.ReportAllocs()
	for b.Loop() {
		e.forget()
		for _, p := range pending {
			evaluateOrFail(b, e, p)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(pending)), "ms/pod")
}

// generated loads hack/gen-cluster's cluster of the given size (seed 1)
// into a model and takes its snapshot.
func generated(tb testing.TB, nodes, pods int) (*load.Cluster, *model.Model, *cache.Snapshot) {
	tb.Helper()
	path := loadtest.GenCluster(tb, tb.TempDir(), nodes, pods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	snap := cache.NewEmptySnapshot()
	if err := m.Cache.UpdateSnapshot(snap); err != nil {
		tb.Fatal(err)
	}
	return c, m, snap
}

func evaluateOrFail(b *testing.B, e *Evaluator, p *v1.Pod) {
	if _, err := e.Evaluate(context.Background(), p); err != nil {
		b.Fatal(err)
	}
}
