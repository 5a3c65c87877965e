package whatif

import (
	"context"
	"fmt"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestUntilFits: testdata/scaleup.yaml's header works the numbers out.
func TestUntilFits(t *testing.T) {
	c, m := scaleUpFixture(t)
	podsBefore, _ := m.Cache.PodCount()
	res, err := UntilFits(context.Background(), UntilFitsInput{
		Model: m, Objects: c.Objects, Template: c.Nodes[0], Bound: NodeBoundPods(c.Pods, "n1"), Pods: m.Pending,
	})
	if err != nil {
		t.Fatal(err)
	}
	u := res.Estimate
	if u.Count != 3 || u.MaxTried != 3 {
		t.Errorf("count %d, max tried %d; want 3, 3", u.Count, u.MaxTried)
	}
	// No copy: 3 pending. The bound (lowerBound): n1's 500m holds no
	// 1000m pod and a copy's 1500m holds one, so 3 pods need 3 copies (the
	// cpu sum alone, (3000m - 500m) / 1500m, would say 2); 1 and 2 copies
	// are not tried. The guess (3 x 1000m / 1500m = 2) is below it: 3
	// copies, one run, fit.
	if u.Bound != 3 {
		t.Errorf("bound %d, want 3", u.Bound)
	}
	if got := fmt.Sprint(u.Trials); got != "[{0 false 3} {3 true 0}]" {
		t.Errorf("trials %s", got)
	}
	if got := fmt.Sprint(u.NeverFit); got != "[{default/big NodeResourcesFit [Insufficient cpu]} {default/picky NodeAffinity [node(s) didn't match Pod's node affinity/selector]} "+
		"{default/claim VolumeRestrictions [persistentvolumeclaim \"missing\" not found]} {default/gated gated [SchedulingGates: waiting for scheduling gates: [example.com/wait]]}]" {
		t.Errorf("never fit %s", got)
	}
	// The placement at 3 copies: one pod per copy, in queue order.
	var placed []string
	for _, v := range res.Verdicts {
		placed = append(placed, v.Pod.Name+"="+string(v.Result)+":"+v.Node)
	}
	if got := fmt.Sprint(placed); got != "[p1=scheduled:n1-whatif-1 p2=scheduled:n1-whatif-2 p3=scheduled:n1-whatif-3 big=unschedulable: picky=unschedulable: claim=unschedulable: gated=gated:]" {
		t.Errorf("placement %s", got)
	}
	// The cache is as it was: no copy, no assumed pod left.
	if n, _ := m.Cache.PodCount(); n != podsBefore || m.Cache.NodeCount() != 1 {
		t.Errorf("cache not restored: %d pods (was %d), %d nodes", n, podsBefore, m.Cache.NodeCount())
	}
}

// TestUntilFitsNone: the pods that fit one copy already fit the cluster.
func TestUntilFitsNone(t *testing.T) {
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{"testdata/scaleup.yaml"}, Objects: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Without app, n1 has 1500m free: p1 fits, then p2 and p3 do not.
	c.Pods = append(c.Pods[:0:0], c.Pods[1:]...)
	m, _ := model.Build(c, cache.Options{})
	res, err := UntilFits(context.Background(), UntilFitsInput{Model: m, Objects: c.Objects, Template: c.Nodes[0], Bound: NodeBoundPods(c.Pods, "n1"), Pods: m.Pending[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if res.Estimate.Count != 0 || fmt.Sprint(res.Estimate.Trials) != "[{0 true 0}]" || res.Verdicts[0].Result != decide.Scheduled {
		t.Errorf("got %+v", res.Estimate)
	}
}

// TestUntilFitsNoCount: solo-a and solo-b each refuse a pod of the other in
// their zone (required anti-affinity on topology.kubernetes.io/zone), and
// n1 and every copy are in zone z1. solo-a (first in the queue) fits n1;
// solo-b fits an empty copy alone, but once solo-a runs in z1 no count of
// copies helps it: 1 and then 2 copies (one per pod, the cap) fail.
func TestUntilFitsNoCount(t *testing.T) {
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{"testdata/scaleup.yaml"}, Objects: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pods []*v1.Pod
	for i, name := range []string{"solo-a", "solo-b"} {
		p := c.Pods[2].DeepCopy() // p1, made a 100m pod
		p.Name, p.UID = name, types.UID(name)
		p.CreationTimestamp.Time = p.CreationTimestamp.Add(time.Duration(i) * time.Hour)
		p.Labels = map[string]string{"app": "solo"}
		p.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")}
		p.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "solo"}}, TopologyKey: v1.LabelTopologyZone,
		}}}}
		pods = append(pods, p)
	}
	c.Pods = append(c.Pods[:2:2], pods...) // app and proxy-n1 stay
	m, _ := model.Build(c, cache.Options{})
	res, err := UntilFits(context.Background(), UntilFitsInput{Model: m, Objects: c.Objects, Template: c.Nodes[0], Bound: NodeBoundPods(c.Pods, "n1"), Pods: m.Pending})
	if err != nil {
		t.Fatal(err)
	}
	u := res.Estimate
	if u.Count != -1 || u.MaxTried != 2 || fmt.Sprint(u.StillPending) != "[default/solo-b]" || len(u.NeverFit) != 0 {
		t.Errorf("got %+v", u)
	}
	if got := fmt.Sprint(u.Trials); got != "[{0 false 1} {1 false 0} {2 false 1}]" {
		t.Errorf("trials %s", got)
	}
}

// scaleUpFixture loads testdata/scaleup.yaml (its header works the numbers
// out) and builds its model.
func scaleUpFixture(t *testing.T) (*load.Cluster, *model.Model) {
	t.Helper()
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{"testdata/scaleup.yaml"}, Objects: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}
