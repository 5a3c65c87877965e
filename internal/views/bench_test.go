package views

import (
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BenchmarkViews5kNodes150kPods builds each command's view of one model of
// hack/gen-cluster's 5,000 nodes and 150,000 pods (loaded and built once):
// dump (every node, and one node in detail), requested (sorted by cpu%,
// and with a pod to fit), next-nodes (one Next() per node, and 10
// scheduling cycles) and snapshot.
func BenchmarkViews5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		b.Fatal(err)
	}
	node := c.Nodes[len(c.Nodes)/2].Name

	b.Run("Dump", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Dump(m, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DumpNode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Dump(m, []string{node}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Requested", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Requested(m, RequestedOptions{Selector: labels.Everything()})
		}
	})
	b.Run("NextNodes", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NodeOrder(c.Source, c.Nodes, NodeOrderOptions{})
		}
	})
	b.Run("NextNodesCycles", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NodeOrder(c.Source, c.Nodes, NodeOrderOptions{Cycles: 10})
		}
	})
	b.Run("Snapshot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Snapshot(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
