package decide

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
)

// Plugin results shared between pods (sharedResults) change no verdict: on
// a generated cluster of 300 nodes, every pending pod, a copy of it in
// another class with the same requests and images (shared by both
// plugins), and a copy with a larger memory request (shared by
// ImageLocality only) get, with every node's result, score and near miss,
// the verdicts of an Evaluator that runs every plugin on every node; and
// FilterAll answers alike. The memos must have served results, or the test
// shows nothing.
func TestSharedPluginResultsAreExact(t *testing.T) {
	cl, m, snap := generated(t, 300, 6000)
	in := Input{Snapshot: snap, Pending: m.Pending, Objects: cl.Objects, NearMisses: -1}
	sharing, err := New(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	defer sharing.Close()
	in.withoutSharedResults = true
	each, err := New(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	defer each.Close()
	var targets []*v1.Pod
	for i, p := range m.Pending {
		other := p.DeepCopy()
		other.Name += "-other-class"
		other.Labels = map[string]string{"shared-results-test": fmt.Sprint(i)}
		larger := p.DeepCopy()
		larger.Name += "-larger"
		for j := range larger.Spec.Containers {
			c := &larger.Spec.Containers[j]
			if c.Resources.Requests == nil {
				c.Resources.Requests = v1.ResourceList{}
			}
			mem := c.Resources.Requests[v1.ResourceMemory]
			mem.Add(resource.MustParse("3Gi"))
			c.Resources.Requests[v1.ResourceMemory] = mem
		}
		targets = append(targets, p, other, larger)
	}
	results := map[Result]int{}
	for _, p := range targets {
		want, got := evaluate(t, each, p), evaluate(t, sharing, p)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s/%s: verdict with shared plugin results differs (-each +shared):\n%s", p.Namespace, p.Name, diff)
		}
		results[want.Result]++
	}
	for _, p := range targets[:30] {
		want, err := each.FilterAll(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sharing.FilterAll(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s/%s: FilterAll with shared plugin results differs (-each +shared):\n%s", p.Namespace, p.Name, diff)
		}
	}
	served := map[string]int64{
		"NodeResourcesFit Filter":               memoOf[filterResult](t, sharing, names.NodeResourcesFit).hits.Load(),
		"NodeResourcesFit Score":                memoOf[scoreResult](t, sharing, names.NodeResourcesFit).hits.Load(),
		"NodeResourcesBalancedAllocation Score": memoOf[scoreResult](t, sharing, names.NodeResourcesBalancedAllocation).hits.Load(),
		"ImageLocality Score":                   memoOf[scoreResult](t, sharing, names.ImageLocality).hits.Load(),
	}
	t.Logf("verdicts %v; results served: %v", results, served)
	if results[Scheduled] == 0 || results[Unschedulable] == 0 {
		t.Fatal("the test shows nothing: it needs scheduled and unschedulable pods")
	}
	for what, n := range served {
		if n == 0 {
			t.Errorf("the test shows nothing of %s: no result served", what)
		}
	}
	if h := memoOf[filterResult](t, each, names.NodeResourcesFit).hits.Load(); h != 0 {
		t.Errorf("withoutSharedResults served %d results", h)
	}
}

// memoOf is e's memo of results R of plugin (the default profile has one
// framework; NodeResourcesFit shares filterResults and scoreResults,
// NodeResourcesBalancedAllocation and ImageLocality scoreResults).
func memoOf[R any](t *testing.T, e *Evaluator, plugin string) *memo[R] {
	t.Helper()
	for _, m := range e.shared.memos {
		if p, ok := m.(*memo[R]); ok && p.plugin == plugin {
			return p
		}
	}
	t.Fatalf("no memo of %T for %s", *new(R), plugin)
	return nil
}

// Only the lister's own NodeInfos are served from the memos: a pod of
// priority 100 fits on n1, whose nominated pod (priority 50, 1500m) it
// need not yield to; one of priority 0 with the same request must count
// that pod (the framework's copy of n1 with it added) and goes to n2; and
// one of priority 100 asking for 2500m preempts n2's low-priority pod
// (DefaultPreemption filters copies of n2 without its victims) after an
// equal request was rejected on the real n1 and n2. Hand-worked: n1 has 2
// CPUs, n2 3 with 2 requested; kube-scheduler v1.36.3 adds nominated pods
// of equal or higher priority only (addGENominatedPods).
func TestSharedPluginResultsServeOnlyTheListersNodes(t *testing.T) {
	c := cluster{
		nodes:   nodes(node("n1"), node("n2", "cpu", "3")),
		bound:   pods(bound("low", "n2").Priority(0).Req(cpu("2"))),
		pending: pods(pod("held").Priority(50).Req(cpu("1500m")).NominatedNodeName("n1")),
	}
	e := c.evaluator(t)
	e.carried.off = true // whole outcomes carried would serve n1 and n2 before the memo
	first := evaluate(t, e, pod("first").Label("app", "first").Priority(100).Req(cpu("1")).Obj())
	second := evaluate(t, e, pod("second").Label("app", "second").Priority(0).Req(cpu("1")).Obj())
	rejected := evaluate(t, e, pod("rejected").Label("app", "rejected").Priority(0).Req(cpu("2500m")).Obj())
	preempts := evaluate(t, e, pod("preempts").Label("app", "preempts").Priority(100).Req(cpu("2500m")).Obj())
	if first.Result != Scheduled || second.Result != Scheduled || second.Node != "n2" {
		t.Errorf("first %s on %q, second %s on %q; want both scheduled, the second on n2 (n1 holds the nominated pod)", first.Result, first.Node, second.Result, second.Node)
	}
	if rejected.Result != Unschedulable || preempts.Preemption == nil || preempts.Preemption.NominatedNode != "n2" {
		t.Errorf("rejected %s, preempts %s with %+v; want unschedulable, and a preemption on n2", rejected.Result, preempts.Result, preempts.Preemption)
	}
	if h := memoOf[filterResult](t, e, names.NodeResourcesFit).hits.Load(); h == 0 {
		t.Error("no NodeResourcesFit result served: the case shows nothing")
	}
}
