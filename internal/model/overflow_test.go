package model

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

func requesting(name string, requests v1.ResourceList) *v1.Pod {
	p := pod(name, "n1", "")
	p.Spec.Containers = []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: requests}}}
	return p
}

// TestOverflowWarnings: the numbers of the issue keep the scheduler's
// wrapped values (checked by hand: 1e30 millicores mod 2^64 is 0; 9.3e18
// cores in millicores likewise 0; three 4Ei sum to 3×2^62, which wraps to
// -2^62), and a warning names each one, object and field.
func TestOverflowWarnings(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("9.3e18"), v1.ResourceMemory: resource.MustParse("16Gi"), v1.ResourcePods: resource.MustParse("110"),
	}}}
	big := requesting("big", v1.ResourceList{v1.ResourceCPU: resource.MustParse("1e30"), v1.ResourceMemory: resource.MustParse("4Ei")})
	big.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: resource.MustParse("1e30")}
	c := &load.Cluster{Nodes: []*v1.Node{node}, Pods: []*v1.Pod{
		big,
		requesting("m2", v1.ResourceList{v1.ResourceMemory: resource.MustParse("4Ei")}),
		requesting("m3", v1.ResourceList{v1.ResourceMemory: resource.MustParse("4Ei")}),
	}}
	m, err := Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Cache.Dump().Nodes["n1"].Requested.Memory; got != -1<<62 {
		t.Errorf("requested memory %d, want the wrapped -2^62", got)
	}
	var w strings.Builder
	m.WriteWarnings(&w)
	want := "warning: node n1: status.allocatable.cpu is 9300e15, beyond the int64 kube-scheduler counts in; it wraps to 0m, in kube-scheduler as here\n" +
		"warning: pod ns/big: spec.containers[0].resources.requests.cpu is 1e30, beyond the int64 kube-scheduler counts in; it wraps to 0m, in kube-scheduler as here\n" +
		"warning: pod ns/big: spec.overhead.cpu is 1e30, beyond the int64 kube-scheduler counts in; it wraps to 0m, in kube-scheduler as here\n" +
		"warning: node n1: requested memory is 13835058055282163712, beyond the int64 kube-scheduler counts in; it wraps to -4611686018427387904, in kube-scheduler as here\n"
	if w.String() != want {
		t.Errorf("warnings:\n got %q\nwant %q", w.String(), want)
	}
	if got := m.OverflowsByNode(); len(got) != 1 || strings.Join(got["n1"], ",") != "cpu,memory" {
		t.Errorf("overflows by node %v, want n1: cpu, memory", got)
	}
}

// TestNoOverflowNoWarning: the largest numbers that fit warn of nothing.
func TestNoOverflowNoWarning(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: *resource.NewMilliQuantity(1<<63-1, resource.DecimalSI), v1.ResourceMemory: *resource.NewQuantity(1<<63-1, resource.BinarySI),
	}}}
	c := &load.Cluster{Nodes: []*v1.Node{node}, Pods: []*v1.Pod{
		requesting("a", v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(1<<62, resource.BinarySI)}),
		requesting("b", v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(1<<62-1, resource.BinarySI)}),
	}}
	m, err := Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := m.Overflows(); len(o) != 0 {
		t.Errorf("overflows %v, want none", o)
	}
}

// TestPodSumOverflow: no single quantity is beyond int64, but a pod's sum
// is: two containers of 5e15 cores are 10^19 millicores, 2^64 more than
// int64; resource.Quantity's MilliValue, which kube-scheduler calls, gives
// 0 for it (the node's requested cpu is then the other pod's 1000m); an init container of 4Ei (the larger of
// it and the containers' 0) plus an overhead of 4Ei is 2^63, which wraps
// to -2^63. The warning names the pod and the sum; the mark rule
// (PodOverflows, NodeOverflows) lists both resources, and a pod that fits
// lists none.
func TestPodSumOverflow(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("16Gi"), v1.ResourcePods: resource.MustParse("110"),
	}}}
	p := pod("two", "n1", "")
	cpu := v1.ResourceList{v1.ResourceCPU: resource.MustParse("5e15")}
	p.Spec.Containers = []v1.Container{{Name: "a", Resources: v1.ResourceRequirements{Requests: cpu}}, {Name: "b", Resources: v1.ResourceRequirements{Requests: cpu}}}
	p.Spec.InitContainers = []v1.Container{{Name: "i", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceMemory: resource.MustParse("4Ei")}}}}
	p.Spec.Overhead = v1.ResourceList{v1.ResourceMemory: resource.MustParse("4Ei")}
	small := requesting("small", v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")})
	m, err := Build(&load.Cluster{Nodes: []*v1.Node{node}, Pods: []*v1.Pod{p, small}}, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var w strings.Builder
	m.WriteWarnings(&w)
	want := "warning: pod ns/two: the sum of its cpu requests (containers, init containers, overhead) is 10e15, beyond the int64 kube-scheduler counts in; it wraps to 0m, in kube-scheduler as here\n" +
		"warning: pod ns/two: the sum of its memory requests (containers, init containers, overhead) is 8Ei, beyond the int64 kube-scheduler counts in; it wraps to -9223372036854775808, in kube-scheduler as here\n"
	if w.String() != want {
		t.Errorf("warnings:\n got %q\nwant %q", w.String(), want)
	}
	if got := strings.Join(PodOverflows(p), ","); got != "cpu,memory" {
		t.Errorf("PodOverflows %q, want cpu,memory", got)
	}
	if got := PodOverflows(small); len(got) != 0 {
		t.Errorf("PodOverflows of a small pod %q, want none", got)
	}
	ni, _ := m.Cache.GetNodeInfo("n1")
	if ni.Requested.MilliCPU != 1000 || ni.Requested.Memory != -1<<63 {
		t.Errorf("requested cpu %dm, memory %d; want the wrapped 1000m (0 + 1000) and -2^63", ni.Requested.MilliCPU, ni.Requested.Memory)
	}
	if got := strings.Join(NodeOverflows(ni), ","); got != "cpu,memory" {
		t.Errorf("NodeOverflows %q, want cpu,memory", got)
	}
	if got := strings.Join(m.OverflowsByNode()["n1"], ","); got != "cpu,memory" {
		t.Errorf("OverflowsByNode %q, want cpu,memory", got)
	}
}

// TestMayOverflowBound: MayOverflow flags a pod whose own quantities wrap
// (1e30 cores counts as 0 millicores) or that counts 2^46 or more of a
// resource, and nothing below; below it, 2^16 pods cannot sum past int64
// (2^16 × (2^46 − 1) < 2^62), so PodsOverflows is empty.
func TestMayOverflowBound(t *testing.T) {
	p := cache.DefaultProfile()
	may := func(rl v1.ResourceList) bool {
		pod := requesting("p", rl)
		return MayOverflow(pod, p.PodResource(pod).Resource)
	}
	for _, tc := range []struct {
		requests v1.ResourceList
		want     bool
	}{
		{v1.ResourceList{v1.ResourceCPU: resource.MustParse("500m"), v1.ResourceMemory: resource.MustParse("1Ti")}, false},
		{v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(1<<46-1, resource.BinarySI)}, false},
		{v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(1<<46, resource.BinarySI)}, true},
		{v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(-(1 << 46), resource.BinarySI)}, true},
		{v1.ResourceList{"example.com/gpu": *resource.NewQuantity(1<<46, resource.DecimalSI)}, true},
		{v1.ResourceList{v1.ResourceCPU: resource.MustParse("1e30")}, true},
	} {
		if got := may(tc.requests); got != tc.want {
			t.Errorf("%v: MayOverflow %v, want %v", tc.requests, got, tc.want)
		}
	}
	pod := requesting("p", v1.ResourceList{v1.ResourceMemory: *resource.NewQuantity(1<<46-1, resource.BinarySI)})
	pods := make([]*cache.PodInfo, safePods-1)
	for i := range pods {
		pods[i] = &cache.PodInfo{Pod: pod, Resource: p.PodResource(pod)}
	}
	if got := PodsOverflows(nil, pods); len(got) != 0 || TooManyPodsToBeSafe(len(pods)) {
		t.Errorf("%d pods of 2^46-1 bytes: overflows %v", len(pods), got)
	}
}

// exactSum against sums worked out by hand: 2^63-1 + 1 = 2^63 (wraps to
// -2^63), -2^63 + -2^63 = -2^64 (wraps to 0), and sums that leave int64 and
// come back fit again.
func TestExactSum(t *testing.T) {
	for _, c := range []struct {
		terms   []int64
		fits    bool
		exact   string
		wrapped int64
	}{
		{[]int64{math.MaxInt64, 1}, false, "9223372036854775808", math.MinInt64},
		{[]int64{math.MinInt64, math.MinInt64}, false, "-18446744073709551616", 0},
		{[]int64{math.MaxInt64, math.MaxInt64, math.MaxInt64}, false, "27670116110564327421", math.MaxInt64 - 2},
		{[]int64{math.MaxInt64, 1, -2}, true, "9223372036854775806", math.MaxInt64 - 1},
		{[]int64{math.MinInt64, -1, 1}, true, "-9223372036854775808", math.MinInt64},
		{[]int64{-5, 3}, true, "-2", -2},
		{nil, true, "0", 0},
	} {
		var s exactSum
		for _, v := range c.terms {
			s.add(v)
		}
		if s.fits() != c.fits || s.big().String() != c.exact || s.wrapped() != c.wrapped {
			t.Errorf("%v: fits %v, exact %s, wrapped %d; want %v, %s, %d", c.terms, s.fits(), s.big(), s.wrapped(), c.fits, c.exact, c.wrapped)
		}
	}
}

// TestSumCannotOverflowWithStatusResources: a pod of a v1.33+ kubelet
// reports resources in every container status (in-place resize); ordinary
// values keep it on the short path (PodRequests not computed again), and
// status values whose sum passes int64 still warn (v1.36's PodRequests
// with UseStatusResources takes, per container, the larger of the spec's
// requests and the status's).
func TestSumCannotOverflowWithStatusResources(t *testing.T) {
	ordinary := v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("1Gi")}
	p := pod("resized", "n1", "")
	p.Spec.Containers = []v1.Container{{Name: "a", Resources: v1.ResourceRequirements{Requests: ordinary}}, {Name: "b", Resources: v1.ResourceRequirements{Requests: ordinary}}}
	p.Status.ContainerStatuses = []v1.ContainerStatus{
		{Name: "a", Resources: &v1.ResourceRequirements{Requests: ordinary}, AllocatedResources: ordinary},
		{Name: "b", Resources: &v1.ResourceRequirements{Requests: ordinary}, AllocatedResources: ordinary},
	}
	if !sumCannotOverflow(p) {
		t.Error("ordinary status resources: sumCannotOverflow false, want true (the short path)")
	}
	huge := v1.ResourceList{v1.ResourceMemory: resource.MustParse("5e18")}
	for i := range p.Status.ContainerStatuses {
		p.Status.ContainerStatuses[i].Resources.Requests = huge
		p.Status.ContainerStatuses[i].AllocatedResources = huge
	}
	if sumCannotOverflow(p) {
		t.Error("5e18 in two statuses: sumCannotOverflow true, want false")
	}
	if got := strings.Join(PodOverflows(p), ","); got != "memory" {
		t.Errorf("PodOverflows %q, want memory (5e18 + 5e18 passes int64)", got)
	}
}

// TestMayOverflowInPieces: among 10,000 pods checked in pieces on several
// goroutines, the pods that may overflow come back in their order, each
// once, the others not at all.
func TestMayOverflowInPieces(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	pods := make([]*v1.Pod, 10_000)
	var want []*v1.Pod
	for i := range pods {
		q := "1"
		if i == 0 || i == 4999 || i == 5000 || i%3001 == 7 || i == len(pods)-1 {
			q = "4Ei"
		}
		pods[i] = requesting(fmt.Sprint("p", i), v1.ResourceList{v1.ResourceMemory: resource.MustParse(q)})
		if q != "1" {
			want = append(want, pods[i])
		}
	}
	got := mayOverflow(pods)
	if len(got) != len(want) {
		t.Fatalf("%d pods may overflow, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("pod %d is %s, want %s", i, got[i].Name, want[i].Name)
		}
	}
}
