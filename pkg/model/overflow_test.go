package model

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/load"
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
