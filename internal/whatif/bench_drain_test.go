package whatif

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BenchmarkDrain5kNodes150kPods measures "drain NODE" after the load, on
// the generated 5,000-node / 150,000-pod cluster: kubectl's rules for the
// node's pods, the cordon, the scheduler's frameworks built (decide.New)
// and every replacement placed, for the node whose pod count is nearest
// 30 (the cluster's average), with --force --ignore-daemonsets
// --delete-emptydir-data so that every pod kubectl may evict is.
// The model is rebuilt (not timed) before each drain, which changes it.
//
// first-ms is the first drain of the process, which also pays the
// scheduler framework's one-time initialisation, as the command does;
// cpu-ms/op the CPU time a drain takes (on a shared machine, wall time
// depends on the other processes).
// Target (2 cores): ≤ 2 s per drain.
func BenchmarkDrain5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}, Objects: true, KeepEmptyDir: true,
		ExtraKinds: []schema.GroupKind{{Group: "apps", Kind: "DaemonSet"}}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	count := map[string]int{}
	for _, p := range c.Pods {
		count[p.Spec.NodeName]++
	}
	node, best := "", -1
	for _, n := range c.Nodes {
		if d := abs(count[n.Name] - 30); best < 0 || d < best {
			node, best = n.Name, d
		}
	}
	rules := DrainRules{Force: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true}
	var placed, blocked int
	var first time.Duration // the process's first drain: one-time initialisation included, as in the command
	var cpu time.Duration   // CPU time of the drains (all goroutines, GC included)
	for b.Loop() {
		b.StopTimer()
		m, err := model.Build(c, cache.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		began, cpuBegan := time.Now(), loadtest.ProcessCPU()
		o, err := Drain(context.Background(), DrainInput{Model: m, Objects: c.Objects, Nodes: []string{node}, Rules: rules, Now: time.Unix(0, 0)})
		if err != nil {
			b.Fatal(err)
		}
		if first == 0 {
			first = time.Since(began)
		}
		cpu += loadtest.ProcessCPU() - cpuBegan
		placed, blocked = 0, 0
		for _, p := range o.Pods {
			switch p.Result {
			case DrainScheduled, DrainUnschedulable:
				placed++
			case DrainBlocked:
				blocked++
			}
		}
	}
	b.ReportMetric(float64(first.Milliseconds()), "first-ms")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(count[node]), "pods")
	b.ReportMetric(float64(placed), "placed")
	b.ReportMetric(float64(blocked), "blocked")
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
