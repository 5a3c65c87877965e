package scaledown

import (
	"context"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BenchmarkScaleDown5kNodes150kPods measures "scale-down" after the load
// on the generated 5,000-node / 150,000-pod cluster: eligibility,
// drainability, the scheduler's frameworks built and every examined
// candidate's pods placed. The model is rebuilt (not timed) before each
// run, which changes it.
//
//   - defaults: the command's (cluster-autoscaler's: threshold 0.5, a pool
//     of max(ceil(5000 × 0.1), 50) = 500 non-empty candidates, a 30 s time
//     budget);
//   - every-candidate: --scale-down-simulation-timeout 0
//     --scale-down-candidates-pool-ratio 1, every candidate examined.
//
// cpu-s/op is the CPU time of a run (every goroutine, GC included): on a
// shared machine, wall time depends on the other processes, and with the
// defaults the budget bounds the wall time and the load sets how many
// candidates fit in it.
//
// Target (2 cores): ≤ 60 s after the load.
func BenchmarkScaleDown5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}, Objects: true, KeepEmptyDir: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	every := DefaultOptions()
	every.Timeout, every.PoolRatio = 0, 1
	for _, bc := range []struct {
		name string
		opts Options
	}{{"defaults", DefaultOptions()}, {"every-candidate", every}} {
		b.Run(bc.name, func(b *testing.B) {
			var out *Outcome
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				m, err := model.Build(c, cache.Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				began := loadtest.ProcessCPU()
				out, err = Plan(context.Background(), Input{Model: m, Objects: c.Objects, Options: bc.opts, Clock: time.Now})
				if err != nil {
					b.Fatal(err)
				}
				cpu += loadtest.ProcessCPU() - began
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			report(b, out)
		})
	}
}

func report(b *testing.B, out *Outcome) {
	count := map[Result]int{}
	moved := 0
	for _, n := range out.Nodes {
		count[n.Result]++
		moved += len(n.Moves)
	}
	b.ReportMetric(float64(out.Candidates), "candidates")
	b.ReportMetric(float64(out.Examined), "examined")
	b.ReportMetric(float64(out.NotExamined), "not-examined")
	b.ReportMetric(float64(len(out.Removable)), "removable")
	b.ReportMetric(float64(count[Blocked]), "blocked")
	b.ReportMetric(float64(count[NoPlace]), "no-place")
	b.ReportMetric(float64(out.Cycles), "cycles")
	b.ReportMetric(float64(moved), "moved")
	if out.TimedOut {
		b.ReportMetric(1, "timed-out")
	}
}
