package views

import (
	"math"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Spread, checked by hand: 0.2, 0.4, 0.9 have mean 0.5; deviations -0.3,
// -0.1, 0.4 square to 0.09, 0.01, 0.16, whose mean 0.26/3 has the square
// root 0.294392...
func TestSpread(t *testing.T) {
	cases := []struct {
		values        []float64
		mean, sd, max float64
	}{
		{nil, 0, 0, 0},
		{[]float64{0.75}, 0.75, 0, 0.75},
		{[]float64{0.5, 0.5}, 0.5, 0, 0.5},
		{[]float64{0.2, 0.4, 0.9}, 0.5, 0.29439202887759486, 0.9},
		{[]float64{0, 1}, 0.5, 0.5, 1},
	}
	for _, tc := range cases {
		mean, sd, mx := Spread(tc.values)
		if math.Abs(mean-tc.mean) > 1e-12 || math.Abs(sd-tc.sd) > 1e-12 || mx != tc.max {
			t.Errorf("Spread(%v) = %v, %v, %v; want %v, %v, %v", tc.values, mean, sd, mx, tc.mean, tc.sd, tc.max)
		}
	}
}

// Two schedulable nodes of 4 CPUs, 8Gi and 10 pods, and a cordoned one:
// a holds a 1-CPU 2Gi pod and a DaemonSet pod (1 CPU), b only a DaemonSet
// pod. cpu: a 2/4, b 1/4 (mean 0.375, sd 0.125, max 0.5); memory: a 2/8,
// b 0 (mean 0.125, sd 0.125); pods: a 2/10, b 1/10 (mean 0.15, sd 0.05).
// Only a is used: b's one pod is a DaemonSet's.
func TestNodeFill(t *testing.T) {
	c := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, name := range []string{"a", "b", "cordoned"} {
		n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
			v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("10")}}}
		n.Spec.Unschedulable = name == "cordoned"
		c.AddNode(n)
	}
	ds := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", UID: "ds", Controller: ptr.To(true)}}
	add := func(name, node, cpu, mem string, owners []metav1.OwnerReference) {
		req := v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu)}
		if mem != "" {
			req[v1.ResourceMemory] = resource.MustParse(mem)
		}
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID("uid-" + name), OwnerReferences: owners},
			Spec: v1.PodSpec{NodeName: node, Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: req}}}}}
		if err := c.AddPod(p); err != nil {
			t.Fatal(err)
		}
	}
	add("app", "a", "1", "2Gi", nil)
	add("ds-a", "a", "1", "", ds)
	add("ds-b", "b", "1", "", ds)
	add("app-cordoned", "cordoned", "1", "", nil)
	snap := cache.NewEmptySnapshot()
	if err := c.UpdateSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	schedulable, used, util := NodeFill(snap.List())
	if schedulable != 2 || used != 1 {
		t.Errorf("schedulable %d, used %d; want 2, 1", schedulable, used)
	}
	want := map[string][4]float64{"cpu": {2, 0.375, 0.125, 0.5}, "memory": {2, 0.125, 0.125, 0.25}, "pods": {2, 0.15, 0.05, 0.2}}
	if len(util) != 3 {
		t.Fatalf("util %+v", util)
	}
	for _, u := range util {
		w := want[u.Resource]
		if float64(u.Nodes) != w[0] || math.Abs(u.Mean-w[1]) > 1e-12 || math.Abs(u.StdDev-w[2]) > 1e-12 || math.Abs(u.Max-w[3]) > 1e-12 {
			t.Errorf("%s: %+v, want nodes %v mean %v sd %v max %v", u.Resource, u, w[0], w[1], w[2], w[3])
		}
	}
}
