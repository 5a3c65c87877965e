package decide

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
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
// the same result, node, message, preemption and counts, for the first pod
// of a template and for the replicas reusing its cycle.
func TestOmitNodesKeepsThePodLevelVerdict(t *testing.T) {
	c := cluster{
		nodes: nodes(node("a"), node("b").Taints(taint("t", v1.TaintEffectNoSchedule))),
		bound: pods(bound("low", "a").Priority(0).Req(cpu("1500m"))),
	}
	cases := []*v1.Pod{
		pod("fits-1").Label("app", "fits").Req(cpu("100m")).Obj(),
		pod("fits-2").Label("app", "fits").Req(cpu("100m")).Obj(),
		pod("preempts").Priority(100).Req(cpu("1")).Obj(),
		pod("never").Req(cpu("64")).Obj(),
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
