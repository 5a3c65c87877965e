package cache

import (
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// benchCluster builds nodes in 3 zones and realistic pods: 2–3 containers
// with requests, every 4th pod with an init container, every 5th with a
// native sidecar, every 10th with overhead.
func benchCluster(numNodes, numPods int) ([]*v1.Node, []*v1.Pod) {
	nodes := make([]*v1.Node, numNodes)
	for i := range nodes {
		nodes[i] = withAlloc(zoned(fmt.Sprintf("node-%05d", i), "r", fmt.Sprintf("z%d", i%3)),
			v1.ResourceList{v1.ResourceCPU: resource.MustParse("32"), v1.ResourceMemory: resource.MustParse("128Gi"), v1.ResourcePods: resource.MustParse("110")})
	}
	pods := make([]*v1.Pod, numPods)
	for i := range pods {
		b := pod(fmt.Sprintf("pod-%06d", i)).uid(fmt.Sprintf("uid-%06d", i)).on(nodes[i%numNodes].Name).req("100m", "128Mi").req("250m", "256Mi")
		if i%2 == 0 {
			b.req("50m", "")
		}
		if i%4 == 0 {
			b.init("500m", "64Mi", false)
		}
		if i%5 == 0 {
			b.init("20m", "32Mi", true)
		}
		if i%10 == 0 {
			b.p.Spec.Overhead = rl("10m", "16Mi")
		}
		pods[i] = b.obj()
	}
	return nodes, pods
}

func buildCache(nodes []*v1.Node, pods []*v1.Pod) Cache {
	c := New(Options{Generations: &GenerationCounter{}})
	for _, n := range nodes {
		c.AddNode(n)
	}
	for _, p := range pods {
		_ = c.AddPod(p)
	}
	return c
}

// BenchmarkCacheBuildByVersion builds the same 1,000-node cache as each
// request algorithm: v1.18 (per container), v1.28 (api/v1 PodRequests),
// v1.32 (component-helpers v0.32 rules), v1.36 (component-helpers). Compare
// with BenchmarkCacheBuild/1000Nodes30000Pods (v1.36) of the same run.
func BenchmarkCacheBuildByVersion(b *testing.B) {
	nodes, pods := benchCluster(1000, 30000)
	for _, minor := range []int{18, 28, 32, 36} {
		p := NewProfile(Version{Minor: minor}, nil)
		b.Run(fmt.Sprintf("v1.%d", minor), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := New(Options{Generations: &GenerationCounter{}, Profile: &p})
				for _, n := range nodes {
					c.AddNode(n)
				}
				for _, pod := range pods {
					_ = c.AddPod(pod)
				}
			}
		})
	}
}

func BenchmarkCacheBuild(b *testing.B) {
	for _, size := range []struct{ nodes, pods int }{{1000, 30000}, {5000, 150000}} {
		nodes, pods := benchCluster(size.nodes, size.pods)
		b.Run(fmt.Sprintf("%dNodes%dPods", size.nodes, size.pods), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buildCache(nodes, pods)
			}
		})
	}
}

// BenchmarkUpdateSnapshot compares a full snapshot (a new empty snapshot, as
// upstream's BenchmarkUpdate1kNodes30kPods) with an incremental one after a
// single node changed, at 5k nodes / 150k pods.
func BenchmarkUpdateSnapshot(b *testing.B) {
	nodes, pods := benchCluster(5000, 150000)
	c := buildCache(nodes, pods)
	b.Run("Full5kNodes", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := c.UpdateSnapshot(NewEmptySnapshot()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("OneChangedNode5kNodes", func(b *testing.B) {
		s := NewEmptySnapshot()
		if err := c.UpdateSnapshot(s); err != nil {
			b.Fatal(err)
		}
		p := pod("extra").uid("extra").on(nodes[42].Name).req("1m", "").obj()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			// Alternate add and remove so the node changes every iteration.
			if i%2 == 0 {
				_ = c.AddPod(p)
			} else {
				_ = c.RemovePod(p)
			}
			if err := c.UpdateSnapshot(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkNodeTree5kNodes3Zones(b *testing.B) {
	nodes, _ := benchCluster(5000, 0)
	nt := NewNodeTree(nodes)
	b.Run("List", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := nt.List(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Next", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nt.Next()
		}
	})
}
