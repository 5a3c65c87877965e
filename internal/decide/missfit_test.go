package decide

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
)

// The near misses' shortfalls from the pod's requests probed once
// (podAsks) equal noderesources.Fits' (v1.36.3) on each node: Requested
// the pod's request, Free the node's Capacity − Used, for every reason
// Fits gives. Pods: the generated cluster's pending ones and five with
// what it lacks (an extended resource, ephemeral storage, init
// containers larger than the containers, overhead, no request at all);
// nodes: its 300 (full, over-committed, with room), a full node with
// room for no pod, and a node offering the extended resource.
func TestPodAsksShortfallsAreFits(t *testing.T) {
	cl, m, snap := generated(t, 300, 6000)
	e := cluster{
		nodes: nodes(node("gpu", "example.com/gpu", "2"), node("full", "pods", "1")),
		bound: pods(bound("b", "full").Req(cpu("1500m"))),
	}.evaluator(t)
	g, err := New(context.Background(), Input{Snapshot: snap, Pending: m.Pending, Objects: cl.Objects})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	infos := append(slices.Clone(g.lister.list), e.lister.list...)
	gpu := pod("gpu").Req(map[v1.ResourceName]string{v1.ResourceCPU: "100m", "example.com/gpu": "3"}).Obj()
	eph := pod("eph").Req(map[v1.ResourceName]string{v1.ResourceEphemeralStorage: "900Gi", v1.ResourceMemory: "1Gi"}).Obj()
	initBig := pod("init").Req(cpu("100m")).InitReq(map[v1.ResourceName]string{v1.ResourceCPU: "3", v1.ResourceMemory: "5Gi"}).Obj()
	overhead := pod("overhead").Req(cpu("1")).Obj()
	overhead.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: resource.MustParse("1500m")}
	targets := append([]*v1.Pod{gpu, eph, initBig, overhead, pod("empty").Obj()}, m.Pending...)
	opts := fitsOptions()
	compared := sets.New[string]()
	for _, p := range targets {
		asks := newPodAsks(p)
		for _, ni := range infos {
			var reasons []string
			var want []Shortfall
			for _, ir := range noderesources.Fits(p, ni, nil, opts) {
				reasons = append(reasons, ir.Reason)
				want = append(want, Shortfall{Resource: string(ir.ResourceName), Requested: ir.Requested, Free: ir.Capacity - ir.Used})
				compared.Insert(string(ir.ResourceName))
			}
			if diff := cmp.Diff(want, asks.shortfalls(ni, reasons)); diff != "" {
				t.Fatalf("%s on %s: shortfalls differ from Fits' (-Fits +podAsks):\n%s", p.Name, ni.Node().Name, diff)
			}
		}
	}
	for _, r := range []string{"pods", "cpu", "memory", "ephemeral-storage", "example.com/gpu"} {
		if !compared.Has(r) {
			t.Errorf("no shortfall of %s compared: the test shows nothing for it", r)
		}
	}
	if got := newPodAsks(pod("x").Obj()).shortfalls(infos[0], []string{"node(s) had untolerated taint(s)"}); got != nil {
		t.Errorf("a reason that is not a resource's: %v, want none", got)
	}
}
