package whatif

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BenchmarkUntilFits5kNodes150kPods measures why --until-fits after
// loading, on the generated 5,000-node / 150,000-pod cluster: a node pool
// scale-up. One untainted, schedulable m5.4xlarge node (16 cores) is
// labelled as the pool's only node, and 100 of the pending pods (plain
// ones: no gate, no volume, the default scheduler) select the pool with a
// nodeSelector and ask for at least 1 cpu and 2Gi (their first container's
// requests), so that they need several new nodes like it; the search finds how
// many, each count tried placed in full. It reports the count and the
// counts tried, and the CPU time of a search (every goroutine, GC
// included: on a shared machine the wall time is the load's). Target
// (2 cores): <= 30 s per search (make bench-until-fits).
func BenchmarkUntilFits5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}, Objects: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	tmpl := benchPool(c)
	if tmpl == nil {
		b.Fatal("no untainted, schedulable m5.4xlarge node in the generated cluster")
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var pods []*v1.Pod
	for _, p := range m.Pending {
		if p.Spec.NodeSelector[benchPoolLabel] != "" {
			pods = append(pods, p)
		}
	}
	in := UntilFitsInput{Model: m, Objects: c.Objects, Template: tmpl, Bound: NodeBoundPods(c.Pods, tmpl.Name), Pods: pods}
	b.Logf("%d nodes, %d pods, %d pending; template %s; %d pods to place", len(c.Nodes), len(c.Pods), len(m.Pending), tmpl.Name, len(pods))
	var res *UntilFitsResult
	began := loadtest.ProcessCPU()
	for b.Loop() {
		if res, err = UntilFits(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((loadtest.ProcessCPU()-began).Seconds()/float64(b.N), "cpu-s/search")
	scheduled := 0
	for _, v := range res.Verdicts {
		if v.Result == decide.Scheduled {
			scheduled++
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/search")
	b.ReportMetric(float64(res.Estimate.Count), "copies")
	b.ReportMetric(float64(len(res.Estimate.Trials)), "trials")
	b.Logf("count %d, trials %v, %d never fit, %d of %d scheduled at the count", res.Estimate.Count, res.Estimate.Trials, len(res.Estimate.NeverFit), scheduled, len(pods))
}

const benchPoolLabel = "bench.schedcache.io/pool"

// benchPool labels the first untainted, schedulable m5.4xlarge node as the
// pool, and has 100 plain pending pods select it (copies replace the
// objects in c). It returns the pool's node.
func benchPool(c *load.Cluster) *v1.Node {
	var tmpl *v1.Node
	for i, n := range c.Nodes {
		if n.Labels[v1.LabelInstanceTypeStable] == "m5.4xlarge" && len(n.Spec.Taints) == 0 && !n.Spec.Unschedulable {
			tmpl = n.DeepCopy()
			tmpl.Labels[benchPoolLabel] = "scale"
			c.Nodes[i] = tmpl
			break
		}
	}
	// Big enough that the pool needs several new nodes.
	loadtest.SelectPending(c.Pods, 100, map[string]string{benchPoolLabel: "scale"})
	return tmpl
}
