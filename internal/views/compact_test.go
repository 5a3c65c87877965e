package views_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// compactInputs are the inputs of the compaction tests: a generated
// cluster (whose replicas share the most), the shipped example and the
// edge cases.
func compactInputs(t *testing.T) []string {
	return []string{
		loadtest.GenCluster(t, t.TempDir(), 30, 900),
		"../../examples/cluster.yaml",
		"../../pkg/cmd/testdata/clusters/edge.yaml",
	}
}

// TestPlainReadChangesNoView builds every view from ReadFiles' compacted
// objects and from the same files read with FileOptions.Plain (client-go's
// decoder, nothing slimmed or shared), and expects the same JSON.
func TestPlainReadChangesNoView(t *testing.T) {
	for _, path := range compactInputs(t) {
		t.Run(path, func(t *testing.T) {
			compacted := readFiles(t, load.FileOptions{Filenames: []string{path}})
			plain := readFiles(t, load.FileOptions{Filenames: []string{path}, Plain: true})
			if diff := cmp.Diff(allViews(t, plain), allViews(t, compacted)); diff != "" {
				t.Errorf("views (-plain,+compacted):\n%s", diff)
			}
		})
	}
}

// TestViewsDoNotWriteSharedValues enforces the rule of the memory layer:
// shared values are never written. Every view runs over compacted objects,
// whose resource lists, maps, containers, statuses and conditions are
// shared between pods; afterwards every node and pod must equal the deep
// copy taken before. A view that wrote to one pod's shared value would
// also have changed the others, and fails here.
func TestViewsDoNotWriteSharedValues(t *testing.T) {
	for _, path := range compactInputs(t) {
		t.Run(path, func(t *testing.T) {
			c := readFiles(t, load.FileOptions{Filenames: []string{path}})
			nodes := make([]*corev1.Node, len(c.Nodes))
			for i, n := range c.Nodes {
				nodes[i] = n.DeepCopy()
			}
			pods := make([]*corev1.Pod, len(c.Pods))
			for i, p := range c.Pods {
				pods[i] = p.DeepCopy()
			}
			allViews(t, c)
			for i, n := range c.Nodes {
				if !equality.Semantic.DeepEqual(nodes[i], n) {
					t.Errorf("node %s changed by a view:\n%s", n.Name, cmp.Diff(nodes[i], n))
				}
			}
			for i, p := range c.Pods {
				if !equality.Semantic.DeepEqual(pods[i], p) {
					t.Errorf("pod %s/%s changed by a view:\n%s", p.Namespace, p.Name, cmp.Diff(pods[i], p))
				}
			}
		})
	}
}

func readFiles(t *testing.T, opts load.FileOptions) *load.Cluster {
	t.Helper()
	c, err := load.ReadFiles(opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
