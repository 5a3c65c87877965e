package model

import (
	"testing"

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
