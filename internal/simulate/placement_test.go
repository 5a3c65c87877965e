package simulate

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
)

// The unschedulable note counts the victims the scheduler deletes, and
// those already terminating apart.
func TestUnschedulableNotePreemption(t *testing.T) {
	p := func(name string) *v1.Pod { return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}} }
	msg := "0/1 nodes are available: 1 Insufficient cpu."
	cases := []struct {
		pre  *decide.Preemption
		want string
	}{
		{nil, msg},
		{&decide.Preemption{NominatedNode: "n1", Victims: []*v1.Pod{p("a"), p("b")}}, msg + " (preemption would nominate n1 and evict 2 pods)"},
		{&decide.Preemption{NominatedNode: "n1", Victims: []*v1.Pod{p("a")}, TerminatingVictims: []*v1.Pod{p("b")}}, msg + " (preemption would nominate n1 and evict 1 pod, 1 more already terminating)"},
		{&decide.Preemption{NominatedNode: "n1", TerminatingVictims: []*v1.Pod{p("b")}}, msg + " (preemption would nominate n1 and evict 0 pods, 1 more already terminating)"},
	}
	for _, tc := range cases {
		if got := unschedulableNote(&decide.Verdict{Message: msg, Preemption: tc.pre}); got != tc.want {
			t.Errorf("got %q\nwant %q", got, tc.want)
		}
	}
}

// TestTallyOf: five pods by hand: two assumed on a, one added on b, one
// expired (it was on a; no longer placed), one unschedulable: 3 placed on
// 2 nodes, 1 unschedulable.
func TestTallyOf(t *testing.T) {
	pods := []Pod{
		{State: "Assumed", Node: "a"}, {State: "Assumed", Node: "a"}, {State: "Added", Node: "b"},
		{State: "Expired", Node: "a"}, {State: string(StateUnschedulable)},
	}
	if got, want := TallyOf(pods), (Tally{Placed: 3, Nodes: 2, Unschedulable: 1}); got != want {
		t.Errorf("TallyOf = %+v, want %+v", got, want)
	}
	if got := TallyOf(nil); got != (Tally{}) {
		t.Errorf("TallyOf(nil) = %+v", got)
	}
}
