package simulate

import (
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// benchSimCluster is numNodes nodes in 3 zones holding numPods bound pods
// round robin, plus numPending pending pods that all fit.
func benchSimCluster(numNodes, numPods, numPending int) *load.Cluster {
	nodes := make([]*v1.Node, numNodes)
	for i := range nodes {
		nodes[i] = node(fmt.Sprintf("node-%05d", i), fmt.Sprintf("z%d", i%3), "32", "128Gi", "110")
	}
	pods := make([]*v1.Pod, 0, numPods+numPending)
	for i := 0; i < numPods; i++ {
		pods = append(pods, pod("bound", fmt.Sprintf("p-%06d", i), nodes[i%numNodes].Name, "100m", "128Mi"))
	}
	for i := 0; i < numPending; i++ {
		pods = append(pods, pod("pending", fmt.Sprintf("q-%06d", i), "", "200m", "256Mi"))
	}
	return cluster(nodes, pods...)
}

// BenchmarkRunTimeline runs the default timeline (assume, finishBinding,
// add) for the pending pods of a 1,000-node / 30,000-pod cluster: on one
// node given (--node: no placement, so the cost is the simulator's own
// bookkeeping, one NodeInfo lookup per event), and placed by the
// scheduler framework. The model is built outside the timer.
func BenchmarkRunTimeline(b *testing.B) {
	c := benchSimCluster(1000, 30000, 100)
	for _, bc := range []struct {
		name string
		node string
	}{{"node", "node-00007"}, {"placed", ""}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s := newSim(b, c, Options{Node: bc.node})
				b.StartTimer()
				res, err := s.Run(s.Model().Pending)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Pods) != 100 || res.Pods[99].State != string(cache.StateAdded) {
					b.Fatalf("last pod %+v", res.Pods[99])
				}
				s.Close()
			}
		})
	}
}
