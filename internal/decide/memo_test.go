package decide

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
)

// Replicas of one template share a cycle; each verdict equals what a fresh
// Evaluator computes for that pod alone. A different priority, or a
// nominated pod, is evaluated on its own.
func TestEvaluateReusesVerdictsOfIdenticalPods(t *testing.T) {
	c := cluster{
		nodes: nodes(node("a").Label("zone", "x"), node("b"), node("c").Taints(taint("t", v1.TaintEffectNoSchedule))),
		bound: pods(bound("low", "a").Priority(0).Req(cpu("1500m"))),
	}
	replica := func(name string, prio int32, req string) *v1.Pod {
		return pod(name).Label("app", "web").Priority(prio).Req(cpu(req)).Obj()
	}
	cases := []*v1.Pod{
		replica("web-1", 0, "1"), replica("web-2", 0, "1"), replica("web-3", 0, "1"),
		replica("big-1", 100, "3"), replica("big-2", 100, "3"), replica("big-3", 0, "3"),
		replica("fits-1", 0, "100m"), replica("fits-2", 0, "100m"),
	}
	nominated := replica("web-4", 0, "1")
	nominated.Status.NominatedNodeName = "b"
	cases = append(cases, nominated)
	shared := c.evaluator(t)
	for _, p := range cases {
		got := evaluate(t, shared, p)
		want := evaluate(t, c.evaluator(t), p)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: shared evaluator differs from a fresh one (-fresh +shared):\n%s", p.Name, diff)
		}
	}
	keys := map[string]bool{}
	for k := range shared.memo {
		keys[k] = true
	}
	// web, big at priority 100, big at priority 0, fits: four cycles
	// remembered; the nominated pod was not.
	if len(keys) != 4 {
		t.Errorf("%d remembered cycles, want 4: %v", len(keys), keys)
	}
}

// With OmitNodes a verdict is the full one without its per-node results:
// the same result, node, message, preemption, counts, RejectedBy and
// TopNodes, for the first pod of a template and for the replicas reusing
// its cycle; whether rejections come from Filter, a PreFilter rejection or
// a PreFilter's node subset, and with more scored nodes than TopNodes keeps
// (ties included).
func TestOmitNodesKeepsThePodLevelVerdict(t *testing.T) {
	c := cluster{
		nodes: nodes(node("a"), node("b").Taints(taint("t", v1.TaintEffectNoSchedule)),
			node("c"), node("d"), node("e"), node("f").Unschedulable(true)),
		bound: pods(bound("low", "a").Priority(0).Req(cpu("1500m")), bound("mid", "c").Priority(0).Req(cpu("500m"))),
	}
	cases := []*v1.Pod{
		pod("fits-1").Label("app", "fits").Req(cpu("100m")).Obj(),
		pod("fits-2").Label("app", "fits").Req(cpu("100m")).Obj(),
		pod("preempts").Priority(100).Req(cpu("1900m")).Obj(),
		pod("never").Req(cpu("64")).Obj(),
		pod("no-claim").PVC("missing").Obj(),
		pod("named").NodeAffinityIn("metadata.name", []string{"c", "d"}, st.NodeSelectorTypeMatchFields).Obj(),
		pod("named-none").NodeAffinityIn("metadata.name", []string{"b", "f"}, st.NodeSelectorTypeMatchFields).Obj(),
		pod("nominated").Req(cpu("100m")).NominatedNodeName("e").Obj(),
	}
	omitting := c.evaluator(t)
	omitting.omitNodes = true
	for _, p := range cases {
		got := evaluate(t, omitting, p)
		want := evaluate(t, c.evaluator(t), p)
		if len(want.Nodes) == 0 {
			t.Fatalf("%s: the full verdict has no per-node results; the case shows nothing", p.Name)
		}
		if got.Nodes != nil {
			t.Errorf("%s: %d per-node results kept, want none", p.Name, len(got.Nodes))
		}
		want.Nodes = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: pod-level verdict differs (-full +omitted):\n%s", p.Name, diff)
		}
	}
}

// The same on a generated cluster of 300 nodes and its pending pods: every
// pod's verdict with OmitNodes is the full one without Nodes, with and
// without near misses (why -A -o json keeps five). The generated pending
// pods that fit nowhere lack a claim (a PreFilter rejection, no near
// misses), so a pod too large for any node is added.
func TestOmitNodesKeepsTheVerdictsOfAGeneratedCluster(t *testing.T) {
	cl, m, snap := generated(t, 300, 6000)
	targets := append(slices.Clip(m.Pending), pod("too-large").Req(cpu("1000")).Obj())
	for _, near := range []int{0, 5} {
		in := Input{Snapshot: snap, Pending: m.Pending, Objects: cl.Objects, NearMisses: near}
		full, err := New(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		defer full.Close()
		in.OmitNodes = true
		omitting, err := New(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		defer omitting.Close()
		results, misses := map[Result]int{}, 0
		for _, p := range targets {
			want, got := evaluate(t, full, p), evaluate(t, omitting, p)
			want.Nodes = nil
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("near misses %d, %s/%s: pod-level verdict differs (-full +omitted):\n%s", near, p.Namespace, p.Name, diff)
			}
			results[want.Result]++
			misses += len(want.NearMisses)
		}
		if results[Scheduled] == 0 || results[Unschedulable] == 0 || (near > 0) != (misses > 0) {
			t.Fatalf("near misses %d: verdicts %v, %d near misses: the cluster shows both kinds of pod and near misses when asked, or the test shows nothing", near, results, misses)
		}
	}
}

// A cycle run under a done context (Ctrl-C) fails with its error, in every
// entry point, and leaves no verdict to reuse: the framework skips the
// parallel work left once the context is done, so such a verdict would not
// be the scheduler's.
func TestCyclesStopWhenTheContextIsDone(t *testing.T) {
	c := cluster{nodes: nodes(node("a"), node("b"))}
	e := c.evaluator(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := pod("web").Req(cpu("100m")).Obj()
	entries := map[string]func() (*Verdict, error){
		"Evaluate":  func() (*Verdict, error) { return e.Evaluate(ctx, p) },
		"FilterAll": func() (*Verdict, error) { return e.FilterAll(ctx, p) },
		"Schedule":  func() (*Verdict, error) { return e.Schedule(ctx, p) },
	}
	for name, run := range entries {
		if _, err := run(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s under a cancelled context: %v, want context.Canceled", name, err)
		}
	}
	if len(e.memo) != 0 {
		t.Errorf("%d verdicts remembered from interrupted cycles, want none", len(e.memo))
	}
	if v := evaluate(t, e, p); v.Result != Scheduled {
		t.Errorf("after the interruption, Evaluate = %s, want scheduled", v.Result)
	}
}
