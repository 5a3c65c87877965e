package cache

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	testingclock "k8s.io/utils/clock/testing"
)

// op is one step of a state-machine test: a cache call and the error it must
// return ("" = nil).
type op struct {
	do      func(c *cacheImpl) error
	wantErr string
}

func assume(p *v1.Pod) func(*cacheImpl) error {
	return func(c *cacheImpl) error { return c.AssumePod(p) }
}
func finish(p *v1.Pod) func(*cacheImpl) error {
	return func(c *cacheImpl) error { return c.FinishBinding(p) }
}
func forget(p *v1.Pod) func(*cacheImpl) error {
	return func(c *cacheImpl) error { return c.ForgetPod(p) }
}
func add(p *v1.Pod) func(*cacheImpl) error { return func(c *cacheImpl) error { return c.AddPod(p) } }
func remove(p *v1.Pod) func(*cacheImpl) error {
	return func(c *cacheImpl) error { return c.RemovePod(p) }
}
func update(o, n *v1.Pod) func(*cacheImpl) error {
	return func(c *cacheImpl) error { return c.UpdatePod(o, n) }
}
func get(p *v1.Pod) func(*cacheImpl) error {
	return func(c *cacheImpl) error { _, err := c.GetPod(p); return err }
}

// nodeSummary is what the pod tests compare per NodeInfo.
type nodeSummary struct {
	Pods      []string
	Requested Resource
	NonZero   Resource
	Ports     HostPortInfo
	PVCs      map[string]int
	HasNode   bool
}

func summarize(c *cacheImpl) map[string]nodeSummary {
	out := map[string]nodeSummary{}
	for name, ni := range c.Dump().Nodes {
		s := nodeSummary{Requested: *ni.Requested, NonZero: *ni.NonZeroRequested, Ports: ni.UsedPorts, PVCs: ni.PVCRefCounts, HasNode: ni.Node() != nil}
		for _, pi := range ni.Pods {
			s.Pods = append(s.Pods, pi.Pod.Name)
		}
		out[name] = s
	}
	return out
}

func ports(entries ...any) HostPortInfo {
	h := HostPortInfo{}
	for i := 0; i+2 < len(entries)+1; i += 3 {
		h.Add(entries[i].(string), entries[i+1].(string), int32(entries[i+2].(int)))
	}
	return h
}

func TestPodTransitions(t *testing.T) {
	p1 := pod("p1").on("n1").req("100m", "500").hostPort("127.0.0.1", v1.ProtocolTCP, 80).obj()
	p2 := pod("p2").on("n1").req("200m", "1Ki").hostPort("", "", 8080).obj()
	p1n2 := pod("p1").on("n2").req("200m", "").obj()
	p1upd := pod("p1").on("n1").req("300m", "").obj()
	noUID := pod("x").uid("").on("n1").obj()
	const uidErr = "cannot get cache key for pod with empty UID"

	tests := []struct {
		name    string
		ops     []op
		want    map[string]nodeSummary
		assumed []string
	}{
		{name: "assume two pods (upstream TestAssumePodScheduled)", ops: []op{{do: assume(p1)}, {do: assume(p2)}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1", "p2"},
				Requested: Resource{MilliCPU: 300, Memory: 1524}, NonZero: Resource{MilliCPU: 300, Memory: 1524},
				Ports: ports("127.0.0.1", "TCP", 80, "0.0.0.0", "TCP", 8080), PVCs: map[string]int{}}},
			assumed: []string{"p1", "p2"}},
		{name: "assume twice", ops: []op{{do: assume(p1)}, {do: assume(p1), wantErr: "pod p1(ns/p1) is in the cache, so can't be assumed"}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 100, Memory: 500},
				NonZero: Resource{MilliCPU: 100, Memory: 500}, Ports: ports("127.0.0.1", "TCP", 80), PVCs: map[string]int{}}},
			assumed: []string{"p1"}},
		{name: "forget assumed deletes the placeholder", ops: []op{{do: assume(p1)}, {do: forget(p1)}}, want: map[string]nodeSummary{}},
		{name: "forget twice and unknown: nil (v1.35+, upstream TestForgetPod)", ops: []op{{do: assume(p1)}, {do: forget(p1)}, {do: forget(p1)}, {do: forget(p2)}},
			want: map[string]nodeSummary{}},
		{name: "forget added", ops: []op{{do: add(p1)}, {do: forget(p1), wantErr: "pod p1(ns/p1) wasn't assumed so cannot be forgotten"}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 100, Memory: 500},
				NonZero: Resource{MilliCPU: 100, Memory: 500}, Ports: ports("127.0.0.1", "TCP", 80), PVCs: map[string]int{}}}},
		{name: "forget on another node", ops: []op{{do: assume(p1)}, {do: forget(p1n2), wantErr: "pod p1(ns/p1) was assumed on n2 but assigned to n1"}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 100, Memory: 500},
				NonZero: Resource{MilliCPU: 100, Memory: 500}, Ports: ports("127.0.0.1", "TCP", 80), PVCs: map[string]int{}}},
			assumed: []string{"p1"}},
		{name: "add assumed on another node moves it (upstream TestAddPodWillReplaceAssumed)", ops: []op{{do: assume(p1)}, {do: add(p1n2)}},
			want: map[string]nodeSummary{"n2": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 200},
				NonZero: Resource{MilliCPU: 200, Memory: 200 * mi}, Ports: HostPortInfo{}, PVCs: map[string]int{}}}},
		{name: "add twice", ops: []op{{do: add(p2)}, {do: add(p2), wantErr: "pod p2(ns/p2) was already in added state"}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p2"}, Requested: Resource{MilliCPU: 200, Memory: 1024},
				NonZero: Resource{MilliCPU: 200, Memory: 1024}, Ports: ports("0.0.0.0", "TCP", 8080), PVCs: map[string]int{}}}},
		{name: "update added re-accounts", ops: []op{{do: add(p1)}, {do: update(p1, p1upd)}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 300},
				NonZero: Resource{MilliCPU: 300, Memory: 200 * mi}, Ports: HostPortInfo{}, PVCs: map[string]int{}}}},
		{name: "update unknown", ops: []op{{do: update(p1, p1upd), wantErr: "pod p1(ns/p1) is not added to scheduler cache, so cannot be updated"}},
			want: map[string]nodeSummary{}},
		{name: "update assumed", ops: []op{{do: assume(p1)}, {do: update(p1, p1upd), wantErr: "assumed pod p1(ns/p1) should not be updated"}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 100, Memory: 500},
				NonZero: Resource{MilliCPU: 100, Memory: 500}, Ports: ports("127.0.0.1", "TCP", 80), PVCs: map[string]int{}}},
			assumed: []string{"p1"}},
		{name: "update onto another node", ops: []op{{do: add(p1)}, {do: update(p1, p1n2),
			wantErr: `pod p1(ns/p1) updated on a different node than previously added to (cached on "n1", update on "n2"): scheduler cache is corrupted, kube-scheduler would exit`}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 100, Memory: 500},
				NonZero: Resource{MilliCPU: 100, Memory: 500}, Ports: ports("127.0.0.1", "TCP", 80), PVCs: map[string]int{}}}},
		{name: "remove added and assumed (v1.20+)", ops: []op{{do: add(p1)}, {do: assume(p2)}, {do: remove(p1)}, {do: remove(p2)}},
			want: map[string]nodeSummary{}},
		{name: "remove unknown", ops: []op{{do: remove(p1), wantErr: "pod p1(ns/p1) is not found in scheduler cache, so cannot be removed from it"}},
			want: map[string]nodeSummary{}},
		{name: "remove from another node", ops: []op{{do: add(p1)}, {do: remove(p1n2),
			wantErr: `pod p1(ns/p1) was added to "n1" but removed from "n2": scheduler cache is corrupted, kube-scheduler would exit`}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 100, Memory: 500},
				NonZero: Resource{MilliCPU: 100, Memory: 500}, Ports: ports("127.0.0.1", "TCP", 80), PVCs: map[string]int{}}}},
		{name: "remove with empty node name (stale tombstone) removes the cached pod",
			ops: []op{{do: add(p1)}, {do: remove(pod("p1").obj())}}, want: map[string]nodeSummary{}},
		{name: "get", ops: []op{{do: get(p1), wantErr: "pod p1(ns/p1) does not exist in scheduler cache"}, {do: add(p1)}, {do: get(p1)}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"p1"}, Requested: Resource{MilliCPU: 100, Memory: 500},
				NonZero: Resource{MilliCPU: 100, Memory: 500}, Ports: ports("127.0.0.1", "TCP", 80), PVCs: map[string]int{}}}},
		{name: "empty UID", ops: []op{{do: assume(noUID), wantErr: uidErr}, {do: add(noUID), wantErr: uidErr}, {do: forget(noUID), wantErr: uidErr},
			{do: remove(noUID), wantErr: uidErr}, {do: update(noUID, noUID), wantErr: uidErr}, {do: finish(noUID), wantErr: uidErr}, {do: get(noUID), wantErr: uidErr}},
			want: map[string]nodeSummary{}},
		{name: "shared host port is a set, not a refcount (framework/types.go HostPortInfo)",
			ops: []op{{do: add(pod("a").on("n1").hostPort("", "", 80).obj())}, {do: add(pod("b").on("n1").hostPort("", "", 80).obj())},
				{do: remove(pod("a").on("n1").obj())}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"b"}, NonZero: Resource{MilliCPU: 100, Memory: 200 * mi}, Ports: HostPortInfo{}, PVCs: map[string]int{}}}},
		{name: "PVC ref counts", ops: []op{{do: add(pod("a").on("n1").pvc("data").obj())}, {do: add(pod("b").on("n1").pvc("data").pvc("logs").obj())},
			{do: remove(pod("b").on("n1").obj())}},
			want: map[string]nodeSummary{"n1": {Pods: []string{"a"}, NonZero: Resource{}, Ports: HostPortInfo{}, PVCs: map[string]int{"ns/data": 1}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestCache(Options{})
			for i, o := range tc.ops {
				err := o.do(c)
				if (err == nil) != (o.wantErr == "") || (err != nil && err.Error() != o.wantErr) {
					t.Fatalf("op %d: error %v, want %q", i, err, o.wantErr)
				}
			}
			if diff := cmp.Diff(tc.want, summarize(c)); diff != "" {
				t.Errorf("NodeInfos (-want,+got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.assumed, sortedKeys(c.assumedPods), cmpEmpty); diff != "" {
				t.Errorf("assumed pods (-want,+got):\n%s", diff)
			}
		})
	}
}

var cmpEmpty = cmp.Comparer(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })

// TestAddPodAlwaysUpdates mirrors upstream
// TestAddPodAlwaysUpdatesPodInfoInNodeInfo (v1.26+): the Add event's object
// replaces the assumed one in the NodeInfo.
func TestAddPodAlwaysUpdates(t *testing.T) {
	c := newTestCache(Options{})
	assumed := pod("p").on("n").req("100m", "500").hostPort("", "", 80).obj()
	added := assumed.DeepCopy()
	added.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionTrue}}
	mustNil(t, c.AssumePod(assumed))
	mustNil(t, c.AddPod(added))
	ni := c.Dump().Nodes["n"]
	if ni.Pods[0].Pod != added {
		t.Errorf("NodeInfo holds the assumed object, want the added one")
	}
	if diff := cmp.Diff(ports("0.0.0.0", "TCP", 80), ni.UsedPorts); diff != "" {
		t.Errorf("ports (-want,+got):\n%s", diff)
	}
	if ok, _ := c.IsAssumedPod(added); ok {
		t.Errorf("pod still assumed after AddPod")
	}
}

// TestSidecarPortsCounted: sidecars' host ports count (v1.33+,
// pkg/scheduler/util/utils.go GetHostPorts).
func TestSidecarPortsCounted(t *testing.T) {
	p := pod("p").on("n").hostPort("", "", 80).hostPort("10.0.0.1", v1.ProtocolUDP, 8080).obj()
	p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, v1.ContainerPort{ContainerPort: 9090})
	always := v1.ContainerRestartPolicyAlways
	p.Spec.InitContainers = []v1.Container{
		{Name: "side", RestartPolicy: &always, Ports: []v1.ContainerPort{{HostPort: 81}}},
		{Name: "init", Ports: []v1.ContainerPort{{HostPort: 82}}},
	}
	c := newTestCache(Options{})
	mustNil(t, c.AddPod(p))
	want := ports("0.0.0.0", "TCP", 80, "0.0.0.0", "TCP", 81, "10.0.0.1", "UDP", 8080)
	if diff := cmp.Diff(want, c.Dump().Nodes["n"].UsedPorts); diff != "" {
		t.Errorf("ports (-want,+got):\n%s", diff)
	}
}

func TestAffinityLists(t *testing.T) {
	anti := &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{TopologyKey: "x"}}}}
	preferred := &v1.Affinity{PodAffinity: &v1.PodAffinity{}}
	c := newTestCache(Options{})
	mustNil(t, c.AddPod(pod("a").on("n").affinity(anti).obj()))
	mustNil(t, c.AddPod(pod("b").on("n").affinity(preferred).obj()))
	mustNil(t, c.AddPod(pod("c").on("n").obj()))
	ni := c.Dump().Nodes["n"]
	if len(ni.PodsWithAffinity) != 2 || len(ni.PodsWithRequiredAntiAffinity) != 1 {
		t.Fatalf("affinity %d, required anti-affinity %d; want 2 and 1", len(ni.PodsWithAffinity), len(ni.PodsWithRequiredAntiAffinity))
	}
	mustNil(t, c.RemovePod(pod("a").on("n").affinity(anti).obj()))
	ni = c.Dump().Nodes["n"]
	if len(ni.PodsWithAffinity) != 1 || ni.PodsWithRequiredAntiAffinity != nil {
		t.Errorf("after removal: affinity %d, required anti-affinity %v", len(ni.PodsWithAffinity), ni.PodsWithRequiredAntiAffinity)
	}
}

// TestExpiry covers FinishBinding, the TTL deadline and Cleanup (v1.18–v1.35).
func TestExpiry(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := pod("p").on("ghost").req("100m", "").obj()
	bound := pod("q").on("n").req("100m", "").obj()

	t.Run("expires after TTL once binding finished", func(t *testing.T) {
		clk := testingclock.NewFakePassiveClock(start)
		var seen []Transition
		c := newTestCache(Options{TTL: 30 * time.Second, Clock: clk, Observer: func(tr Transition) { seen = append(seen, tr) }})
		mustNil(t, c.AssumePod(p))
		if got := c.Cleanup(start.Add(time.Hour)); len(got) != 0 {
			t.Fatalf("expired before FinishBinding: %v", got)
		}
		clk.SetTime(start.Add(5 * time.Second))
		mustNil(t, c.FinishBinding(p))
		if got := c.Cleanup(start.Add(35 * time.Second)); len(got) != 0 {
			t.Fatalf("expired at the deadline itself (must be strictly after): %v", got)
		}
		if got := c.Cleanup(start.Add(35*time.Second + 1)); len(got) != 1 {
			t.Fatalf("not expired after the deadline")
		}
		if c.NodeCount() != 0 {
			t.Errorf("placeholder node not deleted after expiry: NodeCount %d", c.NodeCount())
		}
		want := []Transition{{Pod: p, Node: "ghost", From: StateInitial, To: StateAssumed, Cause: "AssumePod"},
			{Pod: p, Node: "ghost", From: StateAssumed, To: StateExpired, Cause: "Cleanup"}}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("transitions (-want,+got):\n%s", diff)
		}
		mustNil(t, c.AddPod(p)) // an expired pod's Add event re-adds it as a fresh pod
	})
	t.Run("TTL 0 never expires", func(t *testing.T) {
		c := newTestCache(Options{Clock: testingclock.NewFakePassiveClock(start)})
		mustNil(t, c.AssumePod(p))
		mustNil(t, c.FinishBinding(p))
		if got := c.Cleanup(start.Add(1000 * time.Hour)); len(got) != 0 {
			t.Errorf("expired with TTL 0")
		}
		if ok, _ := c.IsAssumedPod(p); !ok {
			t.Errorf("pod no longer assumed")
		}
	})
	t.Run("FinishBinding of an added pod is a no-op", func(t *testing.T) {
		c := newTestCache(Options{TTL: time.Second, Clock: testingclock.NewFakePassiveClock(start)})
		mustNil(t, c.AddPod(bound))
		mustNil(t, c.FinishBinding(bound))
		if got := c.Cleanup(start.Add(time.Hour)); len(got) != 0 {
			t.Errorf("added pod expired")
		}
	})
}

func TestObserverSeesEveryTransition(t *testing.T) {
	var seen []string
	c := newTestCache(Options{Observer: func(tr Transition) {
		seen = append(seen, tr.Cause+":"+string(tr.From)+"->"+string(tr.To)+"@"+tr.Node)
	}})
	p := pod("p").on("n1").obj()
	mustNil(t, c.AssumePod(p))
	mustNil(t, c.AddPod(pod("p").on("n2").obj()))
	mustNil(t, c.UpdatePod(pod("p").on("n2").obj(), pod("p").on("n2").obj()))
	mustNil(t, c.RemovePod(pod("p").on("n2").obj()))
	mustNil(t, c.AssumePod(p))
	mustNil(t, c.ForgetPod(p))
	want := []string{"AssumePod:Initial->Assumed@n1", "AddPod:Assumed->Added@n2", "UpdatePod:Added->Added@n2",
		"RemovePod:Added->Deleted@n2", "AssumePod:Initial->Assumed@n1", "ForgetPod:Assumed->Initial@n1"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("transitions (-want,+got):\n%s", diff)
	}
}

// TestConcurrentUse exercises the lock under the race detector: writers,
// readers and snapshots at once.
func TestConcurrentUse(t *testing.T) {
	c := newTestCache(Options{})
	c.AddNode(node("n"))
	done := make(chan struct{})
	for w := 0; w < 4; w++ {
		go func(w int) {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 200; i++ {
				p := pod(fmt.Sprintf("p%d-%d", w, i)).on("n").req("10m", "").obj()
				_ = c.AssumePod(p)
				_ = c.FinishBinding(p)
				_ = c.AddPod(p)
				_, _ = c.PodCount()
				_ = c.Dump()
				_ = c.UpdateSnapshot(NewEmptySnapshot())
				_ = c.RemovePod(p)
			}
		}(w)
	}
	for w := 0; w < 4; w++ {
		<-done
	}
	if n, _ := c.PodCount(); n != 0 {
		t.Errorf("PodCount %d after all removals", n)
	}
}

// TestAddPodWillReplaceAssumed mirrors upstream TestAddPodWillReplaceAssumed
// (v1.36.3 backend/cache/cache_test.go).
func TestAddPodWillReplaceAssumed(t *testing.T) {
	c := newTestCache(Options{})
	assumed := pod("p").on("assumed-node-1").req("100m", "500").hostPort("", "", 80).obj()
	added := pod("p").on("actual-node").req("100m", "500").hostPort("", "", 80).obj()
	updated := pod("p").on("actual-node").req("200m", "500").hostPort("", "", 90).obj()
	mustNil(t, c.AssumePod(assumed))
	mustNil(t, c.AddPod(added))
	mustNil(t, c.UpdatePod(added, updated))
	want := map[string]nodeSummary{"actual-node": {Pods: []string{"p"}, Requested: Resource{MilliCPU: 200, Memory: 500},
		NonZero: Resource{MilliCPU: 200, Memory: 500}, Ports: ports("0.0.0.0", "TCP", 90), PVCs: map[string]int{}}}
	if diff := cmp.Diff(want, summarize(c)); diff != "" {
		t.Errorf("NodeInfos (-want,+got):\n%s", diff)
	}
}
