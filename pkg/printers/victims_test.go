package printers

import (
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// Victims already terminating are listed after those the scheduler
// deletes, and only when there are some.
func TestVictimsText(t *testing.T) {
	cases := []struct {
		p    v1alpha1.PreemptionDecision
		want string
	}{
		{v1alpha1.PreemptionDecision{NominatedNode: "n1", Victims: []string{"ns/a", "ns/b"}}, "nominate n1, evict ns/a,ns/b"},
		{v1alpha1.PreemptionDecision{NominatedNode: "n1", Victims: []string{"ns/a"}, TerminatingVictims: []string{"ns/b"}}, "nominate n1, evict ns/a (already terminating: ns/b)"},
		{v1alpha1.PreemptionDecision{NominatedNode: "n1", Victims: []string{}, TerminatingVictims: []string{"ns/b"}}, "nominate n1, evict <none> (already terminating: ns/b)"},
	}
	for _, tc := range cases {
		if got := preemptionCell(&tc.p); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
