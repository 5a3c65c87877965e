// Package loadtest gives benchmarks and tests the synthetic clusters of
// internal/gencluster: the `kubectl get nodes,pods -A -o json`-style List a
// cluster of the given size would export, written to a file.
package loadtest

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
)

// Large is the size the benchmarks measure: the published limits of a
// Kubernetes cluster (5,000 nodes, 150,000 pods).
const (
	LargeNodes = 5000
	LargePods  = 150000
)

// GenCluster writes nodes and pods of gencluster's default cluster (seed 1,
// so the same sizes always give the same bytes) into dir, and returns the
// file's path.
func GenCluster(tb testing.TB, dir string, nodes, pods int) string {
	tb.Helper()
	return GenClusterShape(tb, dir, nodes, pods, gencluster.ShapeDefault)
}

// GenClusterShape is GenCluster with the pods of shape (gencluster.Shape).
func GenClusterShape(tb testing.TB, dir string, nodes, pods int, shape gencluster.Shape) string {
	tb.Helper()
	cfg := gencluster.Default()
	cfg.Nodes, cfg.Pods, cfg.Seed, cfg.Shape = nodes, pods, 1, shape
	name := fmt.Sprintf("cluster-%dn-%dp.json", nodes, pods)
	if shape != gencluster.ShapeDefault {
		name = fmt.Sprintf("cluster-%dn-%dp-%s.json", nodes, pods, shape)
	}
	path := filepath.Join(dir, name)
	if err := gencluster.WriteFile(path, cfg); err != nil {
		tb.Fatalf("loadtest: gencluster: %v", err)
	}
	return path
}
