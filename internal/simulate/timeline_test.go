package simulate

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/simulate/script"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestRunOutcomes covers every binding outcome with a 30s TTL and with TTL
// 0 on one node: the timeline, the pod's final state and the node's
// requests at the end.
func TestRunOutcomes(t *testing.T) {
	tests := []struct {
		bind      Outcome
		ttl       time.Duration
		want      string
		state     cache.PodState
		detail    string
		cpuAfter  int64
		podsAfter int64
	}{
		{Confirm, 30 * time.Second, `+0s assume p n1 Initial→Assumed 1500m
+100ms finishBinding p n1 - 1500m
+100ms add p n1 Assumed→Added 1500m
`, cache.StateAdded, "Add event at +100ms", 1500, 2},
		{Confirm, 0, `+0s assume p n1 Initial→Assumed 1500m
+100ms finishBinding p n1 - 1500m
+100ms add p n1 Assumed→Added 1500m
`, cache.StateAdded, "Add event at +100ms", 1500, 2},
		{Fail, 30 * time.Second, `+0s assume p n1 Initial→Assumed 1500m
+100ms finishBinding p n1 - 1500m
+100ms forget p n1 Assumed→Initial 1
`, cache.StateInitial, "forgotten at +100ms", 1000, 1},
		{Fail, 0, `+0s assume p n1 Initial→Assumed 1500m
+100ms finishBinding p n1 - 1500m
+100ms forget p n1 Assumed→Initial 1
`, cache.StateInitial, "forgotten at +100ms", 1000, 1},
		// The deadline is +30.1s; the cleanup at +30s is not after it, the
		// one at +31s is.
		{Lost, 30 * time.Second, `+0s assume p n1 Initial→Assumed 1500m
+100ms finishBinding p n1 - 1500m
+31s expire p n1 Assumed→Expired 1
`, cache.StateExpired, "expired at +31s: requests freed", 1000, 1},
		// TTL 0: the pod holds its 500m for ever.
		{Lost, 0, `+0s assume p n1 Initial→Assumed 1500m
+100ms finishBinding p n1 - 1500m
`, cache.StateAssumed, "binding finished at +100ms, no Add event: never expires (TTL 0), holds its requests on n1", 1500, 2},
	}
	for _, tc := range tests {
		t.Run(string(tc.bind)+"/"+tc.ttl.String(), func(t *testing.T) {
			c := cluster([]*v1.Node{node("n1", "", "2", "4Gi", "10")}, pod("ns", "bound", "n1", "1", "1Gi"), pod("ns", "p", "", "500m", "1Gi"))
			s := newSim(t, c, Options{TTL: ttlFlag(tc.ttl), Bind: tc.bind, BindLatency: DefaultBindLatency})
			res, err := s.Run(s.Model().Pending)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, summary(res.Events)); diff != "" {
				t.Errorf("timeline (-want,+got):\n%s", diff)
			}
			if got := res.Pods[0]; got.State != string(tc.state) || got.Detail != tc.detail {
				t.Errorf("final state %s %q, want %s %q", got.State, got.Detail, tc.state, tc.detail)
			}
			n := res.Nodes[0]
			if n.Before.MilliCPU != 1000 || n.After.MilliCPU != tc.cpuAfter || n.After.Pods != tc.podsAfter {
				t.Errorf("node %s: cpu %d → %d, pods %d; want 1000 → %d, pods %d", n.Name, n.Before.MilliCPU, n.After.MilliCPU, n.After.Pods, tc.cpuAfter, tc.podsAfter)
			}
			if res.Settings.End != "1m0s" || res.Settings.EndMillis != 60000 {
				t.Errorf("end %s (%d ms), want the automatic 1m", res.Settings.End, res.Settings.EndMillis)
			}
		})
	}
}

// TestExpiryTiming: a pod expires at the first cleanup strictly after
// FinishBinding + TTL, and not before its binding finished.
func TestExpiryTiming(t *testing.T) {
	tests := []struct {
		name                 string
		latency, ttl, period time.Duration
		want                 time.Duration
	}{
		{"deadline on a tick expires one tick later", 0, 2 * time.Second, time.Second, 3 * time.Second},
		{"deadline between ticks", 1500 * time.Millisecond, time.Second, time.Second, 3 * time.Second},
		{"slow period", 100 * time.Millisecond, 30 * time.Second, 7 * time.Second, 35 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster([]*v1.Node{node("n1", "", "2", "4Gi", "10")}, pod("ns", "p", "", "500m", "1Gi"))
			s := newSim(t, c, Options{TTL: ttlFlag(tc.ttl), Bind: Lost, BindLatency: tc.latency, CleanupPeriod: tc.period})
			res, err := s.Run(s.Model().Pending)
			if err != nil {
				t.Fatal(err)
			}
			last := res.Events[len(res.Events)-1]
			if last.Event != EventExpire || last.At != tc.want.String() {
				t.Errorf("last event %s at %s, want expire at %s\n%s", last.Event, last.At, tc.want, summary(res.Events))
			}
		})
	}
}

// TestUntilBeforeBinding: events after --until never happen.
func TestUntilBeforeBinding(t *testing.T) {
	c := cluster([]*v1.Node{node("n1", "", "2", "4Gi", "10")}, pod("ns", "p", "", "500m", "1Gi"))
	s := newSim(t, c, Options{TTL: ttlFlag(time.Second), BindLatency: time.Second, Until: 500 * time.Millisecond})
	res, err := s.Run(s.Model().Pending)
	if err != nil {
		t.Fatal(err)
	}
	if want := "+0s assume p n1 Initial→Assumed 500m\n"; summary(res.Events) != want {
		t.Errorf("timeline:\n%s\nwant:\n%s", summary(res.Events), want)
	}
	if p := res.Pods[0]; p.State != string(cache.StateAssumed) || p.Detail != "binding not finished" {
		t.Errorf("final %s %q", p.State, p.Detail)
	}
	if res.Settings.End != "500ms" {
		t.Errorf("end %s", res.Settings.End)
	}
}

// TestPlacement: pods go where kube-scheduler v1.36 puts them, against the
// cache including the pods assumed before them; a pod no node takes is not
// assumed. The NodeTree order is a-1, b-1, a-2 (zones z-a, z-b round robin).
func TestPlacement(t *testing.T) {
	nodes := []*v1.Node{
		node("a-1", "z-a", "2", "4Gi", "10"),
		node("b-1", "z-b", "2", "4Gi", "2"),
		node("a-2", "z-a", "4", "8Gi", "10"),
	}
	c := cluster(nodes,
		pod("ns", "run-a1", "a-1", "1500m", "1Gi"),
		pod("ns", "run-b1", "b-1", "500m", "512Mi"),
		pod("ns", "big", "", "3", "1Gi"),   // a-1, b-1 too small → a-2, the only feasible node
		pod("ns", "huge", "", "16", "1Gi"), // nowhere
		// Fits all three; b-1 is by far the least allocated (cpu 45%,
		// memory 19% used after placement, against 95%/31% on a-1 and
		// 85%/16% on a-2), and v1.36's BalancedAllocation, which scores the
		// change in balance, rates the three within 2 points.
		pod("ns", "w1", "", "400m", "256Mi"),
		// b-1 has no pod slot left; a-2 (95%/19% after) beats a-1 (95%/31%)
		// on LeastAllocated and on balance.
		pod("ns", "w2", "", "400m", "256Mi"),
		// a-2 has 600m left, a-1 500m, b-1 is full → nowhere.
		pod("ns", "w3", "", "1500m", "256Mi"),
	)
	s := newSim(t, c, Options{})
	defer s.Close()
	res, err := s.Run(s.Model().Pending)
	if err != nil {
		t.Fatal(err)
	}
	want := `+0s assume big a-2 Initial→Assumed 3
+0s unschedulable huge - - -
+0s assume w1 b-1 Initial→Assumed 900m
+0s assume w2 a-2 Initial→Assumed 3400m
+0s unschedulable w3 - - -
`
	if got := summary(res.Events[:5]); got != want {
		t.Errorf("placements:\n%s\nwant:\n%s", got, want)
	}
	if note := res.Events[0].Note; note != "kube-scheduler's choice: the only feasible node of 3" {
		t.Errorf("placement note %q", note)
	}
	// Every node rejects w3 with Unschedulable (preemption could help) but
	// no pod has a lower priority than w3's 0.
	if note := res.Events[4].Note; note != "0/3 nodes are available: 1 Too many pods, 3 Insufficient cpu. "+
		"no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod." {
		t.Errorf("unschedulable note %q", note)
	}
	w3 := res.Pods[4]
	wantReasons := []NodeReasons{
		{Node: "a-1", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}},
		{Node: "b-1", Plugin: "NodeResourcesFit", Reasons: []string{"Too many pods", "Insufficient cpu"}},
		{Node: "a-2", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}},
	}
	if w3.State != string(StateUnschedulable) || !cmp.Equal(w3.Unschedulable, wantReasons) {
		t.Errorf("w3: %s %v, want Unschedulable %v", w3.State, w3.Unschedulable, wantReasons)
	}
}

// TestNodeOptionSkipsFitCheck: --node assumes even an over-committing pod.
func TestNodeOptionSkipsFitCheck(t *testing.T) {
	c := cluster([]*v1.Node{node("n1", "", "2", "4Gi", "10")}, pod("ns", "huge", "", "16", "1Gi"))
	s := newSim(t, c, Options{Node: "n1"})
	res, err := s.Run(s.Model().Pending)
	if err != nil {
		t.Fatal(err)
	}
	if e := res.Events[0]; e.Event != EventAssume || e.Node != "n1" || e.Requested.MilliCPU != 16000 || e.Note != "no fit check: Insufficient cpu" {
		t.Errorf("first event %+v", e)
	}
}

// TestCleanupUsagePerExpiry: one cleanup expiring two pods of one node
// shows the node after each expiry, not only after both.
func TestCleanupUsagePerExpiry(t *testing.T) {
	c := cluster([]*v1.Node{node("n1", "", "4", "4Gi", "10")}, pod("ns", "p1", "", "1", "1Gi"), pod("ns", "p2", "", "2", "1Gi"))
	s := newSim(t, c, Options{TTL: ttlFlag(time.Second), Bind: Lost})
	res, err := s.Run(s.Model().Pending)
	if err != nil {
		t.Fatal(err)
	}
	want := `+0s assume p1 n1 Initial→Assumed 1
+0s assume p2 n1 Initial→Assumed 3
+0s finishBinding p1 n1 - 3
+0s finishBinding p2 n1 - 3
+2s expire p1 n1 Assumed→Expired 2
+2s expire p2 n1 Assumed→Expired 0
`
	if diff := cmp.Diff(want, summary(res.Events)); diff != "" {
		t.Errorf("(-want,+got):\n%s", diff)
	}
}

// TestBindFor overrides the outcome of one pod.
func TestBindFor(t *testing.T) {
	c := cluster([]*v1.Node{node("n1", "", "4", "4Gi", "10")}, pod("ns", "p1", "", "1", "1Gi"), pod("ns", "p2", "", "1", "1Gi"))
	s := newSim(t, c, Options{Bind: Confirm, BindFor: map[string]Outcome{"ns/p2": Fail}})
	res, err := s.Run(s.Model().Pending)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pods[0].State != string(cache.StateAdded) || res.Pods[1].State != string(cache.StateInitial) {
		t.Errorf("states %s, %s; want Added, Initial", res.Pods[0].State, res.Pods[1].State)
	}
}

func TestRunErrors(t *testing.T) {
	c := func() *Simulator {
		return newSim(t, cluster([]*v1.Node{node("n1", "", "4", "4Gi", "10")}, pod("ns", "p", "", "1", "1Gi")), Options{BindFor: map[string]Outcome{"ns/zz": Lost, "ns/aa": Fail}})
	}
	if _, err := c().Run(nil); err == nil || !strings.Contains(err.Error(), "pod ns/aa, which is not among the pods to simulate") {
		t.Errorf("unknown --bind-for pod: %v", err)
	}
	p := pod("ns", "p", "", "1", "1Gi")
	if _, err := newSim(t, cluster(nil), Options{}).Run([]*v1.Pod{p, p}); err == nil || err.Error() != "pod ns/p is given twice" {
		t.Errorf("duplicate pod: %v", err)
	}
	s := newSim(t, cluster(nil), Options{})
	if _, err := s.Run(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(nil); err != errRanTwice {
		t.Errorf("second run: %v", err)
	}
}

// TestDeterministic: the same input gives byte-identical output.
func TestDeterministic(t *testing.T) {
	render := func() string {
		nodes := []*v1.Node{node("a-1", "z-a", "2", "4Gi", "10"), node("b-1", "z-b", "2", "4Gi", "2"), node("a-2", "z-a", "4", "8Gi", "10")}
		var pods []*v1.Pod
		for _, n := range []string{"p1", "p2", "p3", "p4", "p5", "p6"} {
			pods = append(pods, pod("ns", n, "", "700m", "1Gi"))
		}
		s := newSim(t, cluster(nodes, pods...), Options{TTL: ttlFlag(5 * time.Second), Bind: Lost, BindFor: map[string]Outcome{"ns/p2": Fail, "ns/p3": Confirm}})
		res, err := s.Run(s.Model().Pending)
		if err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	first := render()
	for i := 0; i < 5; i++ {
		if got := render(); got != first {
			t.Fatalf("run %d differs:\n%s\n%s", i, first, got)
		}
	}
}

// TestQueued: the queue placement sees holds the pending pods the cache
// does not: p1 (its bind failed: forgotten) and p3 (never simulated), not
// p2 (confirmed: Added); then the pod to place, then the simulated pods
// that are not input pending pods (p4, given as with --pod-file, forgotten
// too), each once.
func TestQueued(t *testing.T) {
	p1, p2, p3 := pod("ns", "p1", "", "1", "1Gi"), pod("ns", "p2", "", "1", "1Gi"), pod("ns", "p3", "", "1", "1Gi")
	p4, p5 := pod("ns", "p4", "", "1", "1Gi"), pod("ns", "p5", "", "1", "1Gi")
	s := newSim(t, cluster([]*v1.Node{node("n1", "", "4", "4Gi", "10")}, p1, p2, p3), Options{BindFor: map[string]Outcome{"ns/p1": Fail, "ns/p4": Fail}})
	if _, err := s.Run([]*v1.Pod{p1, p4, p2}); err != nil {
		t.Fatal(err)
	}
	pl, err := s.placer()
	if err != nil {
		t.Fatal(err)
	}
	// Each case twice: a call reuses the buffers of the one before.
	for _, c := range []struct {
		next *v1.Pod
		want []string
	}{
		{p3, []string{"p1", "p3", "p4"}},
		{p3, []string{"p1", "p3", "p4"}},
		{p5, []string{"p1", "p3", "p5", "p4"}},
		{p5, []string{"p1", "p3", "p5", "p4"}},
		{p4, []string{"p1", "p3", "p4"}},
		{p4, []string{"p1", "p3", "p4"}},
	} {
		var got []string
		for _, p := range s.queued(pl, c.next) {
			got = append(got, p.Name)
		}
		if !cmp.Equal(got, c.want) {
			t.Errorf("queued(%s) = %v, want %v", c.next.Name, got, c.want)
		}
	}
}

// TestPlacementTie: three identical empty nodes give a pod the same total
// score; kube-scheduler v1.36.3 (schedule_one.go: the score heap breaks
// equal totals by a Randomizer that stays 0 without extenders, so the
// order its parallel filters finished in decides) may bind it to any of
// them. The note says so and the event lists the others.
func TestPlacementTie(t *testing.T) {
	c := cluster([]*v1.Node{
		node("n1", "", "4", "8Gi", "10"),
		node("n2", "", "4", "8Gi", "10"),
		node("n3", "", "4", "8Gi", "10"),
	}, pod("ns", "p", "", "1", "1Gi"))
	s := newSim(t, c, Options{})
	defer s.Close()
	res, err := s.Run(s.Model().Pending)
	if err != nil {
		t.Fatal(err)
	}
	e := res.Events[0]
	if e.Event != EventAssume || e.Node != "n1" {
		t.Fatalf("first event %+v", e)
	}
	if !strings.HasSuffix(e.Note, "highest of 3 feasible nodes, tied with 2 nodes (n2, n3); kube-scheduler may pick any of them") {
		t.Errorf("note %q", e.Note)
	}
	if !cmp.Equal(e.TiedNodes, []string{"n2", "n3"}) {
		t.Errorf("tiedNodes %v, want [n2 n3]", e.TiedNodes)
	}
}

// Ctrl-C (a done Options.Context) ends a run with the context's error and
// no result, timeline and script alike: a placement cut short would read
// as a pod never assumed.
func TestRunStopsWhenTheContextIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := cluster([]*v1.Node{node("n1", "", "2", "4Gi", "10")}, pod("ns", "p", "", "500m", "1Gi"))
	s := newSim(t, c, Options{Context: ctx})
	if res, err := s.Run(s.Model().Pending); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("Run under a cancelled context: %v (result %v), want context.Canceled and none", err, res != nil)
	}
	steps, err := script.Parse([]byte("- {op: advance, duration: 1s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := newSim(t, scriptCluster(), Options{Context: ctx}).RunScript(steps, nil); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("RunScript under a cancelled context: %v (result %v), want context.Canceled and none", err, res != nil)
	}
}
