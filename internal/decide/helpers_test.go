package decide

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// cluster is a test cluster: nodes (in NodeTree insertion order), bound
// pods, pending pods and other objects.
type cluster struct {
	nodes   []*v1.Node
	bound   []*v1.Pod
	pending []*v1.Pod
	objects []k8sruntime.Object
	config  *Config
}

// evaluator builds our cache from the cluster, snapshots it and returns an
// Evaluator over it, closed when the test ends.
func (c cluster) evaluator(t *testing.T) *Evaluator {
	t.Helper()
	ch := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, n := range c.nodes {
		ch.AddNode(n)
	}
	for _, p := range c.bound {
		if err := ch.AddPod(p); err != nil {
			t.Fatalf("AddPod %s: %v", p.Name, err)
		}
	}
	snap := cache.NewEmptySnapshot()
	if err := ch.UpdateSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), Input{Snapshot: snap, Pending: c.pending, Objects: c.objects, Config: c.config})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(e.Close)
	return e
}

// evaluate runs Evaluate for pod and fails the test on an error.
func evaluate(t *testing.T, e *Evaluator, pod *v1.Pod) *Verdict {
	t.Helper()
	v, err := e.Evaluate(context.Background(), pod)
	if err != nil {
		t.Fatalf("Evaluate %s: %v", pod.Name, err)
	}
	return v
}
