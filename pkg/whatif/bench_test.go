package whatif

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/load"
	"github.com/schedcache/kubectl-schedcache/pkg/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
)

// BenchmarkUntilFits5kNodes150kPods measures why --until-fits after
// loading, on the generated 5,000-node / 150,000-pod cluster: the search
// for the number of copies of an untainted, schedulable m5.4xlarge node
// (16 cores) that schedules 100 of its pending pods (those that are not
// gated), each count placed in full. It reports the count found and the
// counts tried. Target (2 cores): ≤ 30 s per search (make bench-until-fits).
func BenchmarkUntilFits5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}, Objects: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		b.Fatal(err)
	}
	tmpl := benchTemplate(c.Nodes)
	if tmpl == nil {
		b.Fatal("no untainted, schedulable m5.4xlarge node in the generated cluster")
	}
	var pods []*v1.Pod
	for _, p := range m.Pending {
		if len(p.Spec.SchedulingGates) == 0 && p.DeletionTimestamp == nil && len(pods) < 100 {
			pods = append(pods, p)
		}
	}
	in := UntilFitsInput{Model: m, Objects: c.Objects, Template: tmpl, Bound: NodeBoundPods(c.Pods, tmpl.Name), Pods: pods}
	b.Logf("%d nodes, %d pods, %d pending; template %s; %d pods to place", len(c.Nodes), len(c.Pods), len(m.Pending), tmpl.Name, len(pods))
	var res *UntilFitsResult
	for b.Loop() {
		if res, err = UntilFits(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
	scheduled := 0
	for _, v := range res.Verdicts {
		if v.Result == decide.Scheduled {
			scheduled++
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/search")
	b.ReportMetric(float64(res.API.Count), "copies")
	b.ReportMetric(float64(len(res.API.Trials)), "trials")
	b.Logf("count %d, trials %v, %d never fit, %d of %d scheduled at the count", res.API.Count, res.API.Trials, len(res.API.NeverFit), scheduled, len(pods))
}

func benchTemplate(nodes []*v1.Node) *v1.Node {
	for _, n := range nodes {
		if n.Labels[v1.LabelInstanceTypeStable] == "m5.4xlarge" && len(n.Spec.Taints) == 0 && !n.Spec.Unschedulable {
			return n
		}
	}
	return nil
}
