package model

import (
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BenchmarkBuild5kNodes150kPods feeds hack/gen-cluster's 5,000 nodes and
// 150,000 pods (read once) into a new cache: every node, then every
// assigned pod, as the commands do after loading.
func BenchmarkBuild5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(c, cache.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(c.Pods)), "pods")
}

// BenchmarkLoadAndBuild5kNodes150kPods reads hack/gen-cluster's 5,000 nodes
// and 150,000 pods with a Builder as the load's sink, as the commands read
// -f: the load and the model together, per shape (default: 5 KB pods;
// small: about 690 bytes a pod, where the cost per object, not decoding,
// sets the time). It reports the CPU time per object read.
func BenchmarkLoadAndBuild5kNodes150kPods(b *testing.B) {
	for _, shape := range []gencluster.Shape{gencluster.ShapeSmall, gencluster.ShapeDefault} {
		name := string(shape)
		if name == "" {
			name = "default"
		}
		b.Run(name, func(b *testing.B) {
			path := loadtest.GenClusterShape(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods, shape)
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				start := loadtest.ProcessCPU()
				builder := NewBuilder(cache.Options{})
				c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}, Sink: builder}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if m := builder.Finish(c); len(m.Nodes) != loadtest.LargeNodes {
					b.Fatalf("%d nodes, want %d", len(m.Nodes), loadtest.LargeNodes)
				}
				cpu += loadtest.ProcessCPU() - start
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N)/(loadtest.LargeNodes+loadtest.LargePods), "cpu-µs/object")
		})
	}
}
