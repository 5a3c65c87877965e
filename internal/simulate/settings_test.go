package simulate

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
)

func TestSimulationTimelineSettings(t *testing.T) {
	c := cluster([]*v1.Node{node("n1", "", "2", "4Gi", "10")}, pod("ns", "p", "", "500m", "1Gi"), pod("ns", "q", "", "8", "1Gi"))
	// v1.21.14's default is 30s; the choice is given as is, 2m.
	ttl, _ := ResolveTTL(nil, behavior(t, "v1.21.14"), true, "from the server version")
	ttl.TTL = 2 * time.Minute
	opts := Options{TTL: ttl, Bind: Lost, BindFor: map[string]Outcome{"ns/q": Fail, "ns/p": Confirm}, BindLatency: 250 * time.Millisecond}
	s := newSim(t, c, opts)
	out, err := s.Run(s.Model().Pending)
	if err != nil {
		t.Fatal(err)
	}
	if out.Source != "test" {
		t.Errorf("source %q", out.Source)
	}
	want := Settings{
		Mode: "timeline", Start: "2026-01-01T00:00:00Z",
		TTL: "2m0s", TTLMillis: 120000, TTLSource: "kube-scheduler v1.21.14 default", KubeVersion: "v1.21.14",
		End: "2m1s", EndMillis: 121000,
		Timeline: &TimelineSettings{
			Bind:        "lost",
			BindFor:     []BindOverride{{Pod: "ns/p", Outcome: "confirm"}, {Pod: "ns/q", Outcome: "fail"}},
			BindLatency: "250ms", BindLatencyMillis: 250,
			CleanupPeriod: "1s", CleanupPeriodMillis: 1000,
			Until: "2m1s", UntilMillis: 121000,
		},
	}
	if diff := cmp.Diff(want, out.Settings); diff != "" {
		t.Errorf("settings (-want,+got):\n%s", diff)
	}
	unsched := out.Events[1]
	if unsched.Event != EventUnschedulable || unsched.Requested != nil || unsched.Node != "" || unsched.Pod.UID != "uid-ns-q" {
		t.Errorf("unschedulable event %+v", unsched)
	}
	q := out.Pods[1]
	if q.State != "Unschedulable" || !cmp.Equal(q.Requested, Usage{MilliCPU: 8000, Memory: 1 << 30, Pods: 1}) ||
		!cmp.Equal(q.Unschedulable, []NodeReasons{{Node: "n1", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}}) {
		t.Errorf("pod q %+v", q)
	}
	n := out.Nodes[0]
	if !cmp.Equal(n.Allocatable, Usage{MilliCPU: 2000, Memory: 4 << 30, Pods: 10}) || n.Before.MilliCPU != 0 || n.After.MilliCPU != 500 {
		t.Errorf("node %+v", n)
	}
}

func TestSimulationScript(t *testing.T) {
	ttl, _ := ResolveTTL(nil, latest, false, "no --kube-version")
	_, out := runScript(t, "- {op: assume, pod: apps/web-1, node: a-1}\n- {op: assume, pod: apps/web-1, node: a-1}\n- {op: removeNode, node: a-2}\n- {op: advance, duration: 1500ms}", Options{TTL: ttl})
	if out.Settings.Mode != "script" || out.Settings.Timeline != nil || out.Settings.End != "1.5s" || out.Settings.EndMillis != 1500 {
		t.Errorf("settings %+v", out.Settings)
	}
	if e := out.Events[1]; e.Step != 2 || e.Error == "" || e.From != "" || e.Requested == nil {
		t.Errorf("assume-twice event %+v", e)
	}
	if e := out.Events[2]; e.Requested != nil || e.Pod != nil {
		t.Errorf("a-2 is gone after removeNode: %+v", e)
	}
	if e := out.Events[3]; e.At != "1.5s" || e.AtMillis != 1500 || e.Note != "clock +1.5s" {
		t.Errorf("advance %+v", e)
	}
	if len(out.Nodes) != 2 || out.Nodes[1].Name != "a-2" || out.Nodes[1].After != nil || out.Nodes[1].Allocatable.MilliCPU != 4000 {
		t.Errorf("nodes %+v", out.Nodes)
	}
}
