package scaleup

import (
	"context"
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

const benchLabel = "bench.schedcache.io/scale-up"

// BenchmarkScaleUp10Groups5kNodes150kPods measures why --scale-up after
// loading, on the generated 5,000-node / 150,000-pod cluster: 10 node
// groups, each made of one untainted, schedulable node (the first ten of
// the generated cluster, labelled pool bench-0..9 and with a common
// label), and 100 plain pending pods that select the common label
// (loadtest.SelectPending: their first container asks for 1 cpu and 2Gi),
// so that every group needs several new nodes. The templates, the ten
// searches (sharing one Evaluator and the run with no new node) and
// least-waste are timed. Target (2 cores): <= 10 s per answer.
func BenchmarkScaleUp10Groups5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}, Objects: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	nodes := benchGroups(c, 10)
	if len(nodes) != 10 {
		b.Fatalf("%d untainted, schedulable nodes, want 10", len(nodes))
	}
	pods := loadtest.SelectPending(c.Pods, 100, map[string]string{benchLabel: "yes"})
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var pending []*v1.Pod
	for _, p := range m.Pending {
		if p.Spec.NodeSelector[benchLabel] != "" {
			pending = append(pending, p)
		}
	}
	b.Logf("%d nodes, %d pods, %d pending; %d groups, %d pods to place (%d selected)", len(c.Nodes), len(c.Pods), len(m.Pending), len(nodes), len(pending), pods)
	var out *Outcome
	for b.Loop() {
		groups := Templates(nodes, c.Pods, c.Objects)
		if out, err = Run(context.Background(), Input{Model: m, Objects: c.Objects, Groups: groups, Pods: pending}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/answer")
	// One line for every group: testing keeps only the first ten lines of
	// a benchmark's log.
	var groups []string
	for _, g := range out.Groups {
		e := g.Search.Estimate
		groups = append(groups, fmt.Sprintf("%s (%s): %s, %d nodes, bound %d, trials %v, %d cycles, waste %+v", g.Group.Name, g.Group.Template.Name, g.Result, g.Count, e.Bound, e.Trials, e.Cycles, g.Waste))
	}
	b.Logf("groups: %s; least-waste: %v", strings.Join(groups, "; "), out.Chosen)
}

// benchGroups labels the first n untainted, schedulable nodes as n node
// groups sharing benchLabel (copies replace the objects in c) and returns
// them.
func benchGroups(c *load.Cluster, n int) []*v1.Node {
	var out []*v1.Node
	for i, node := range c.Nodes {
		if len(out) == n {
			break
		}
		if len(node.Spec.Taints) > 0 || node.Spec.Unschedulable {
			continue
		}
		cp := node.DeepCopy()
		cp.Labels["cloud.google.com/gke-nodepool"] = fmt.Sprintf("bench-%d", len(out))
		cp.Labels[benchLabel] = "yes"
		c.Nodes[i] = cp
		out = append(out, cp)
	}
	return out
}
