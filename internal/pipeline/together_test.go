package pipeline

import (
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// TestTogetherNote: what the note says of each outcome, counted by hand.
func TestTogetherNote(t *testing.T) {
	const lead = "each pod is judged alone, as if it were the next; "
	const tail = ": 'simulate --pending' places them together"
	for _, tc := range []struct {
		in   v1alpha1.Together
		want string
	}{
		{v1alpha1.Together{Scheduled: 3, FitWhereNamed: true}, ""},
		{v1alpha1.Together{Scheduled: 3, Placed: true}, ""},
		{v1alpha1.Together{Scheduled: 2, Placed: true, StayPending: []string{"ml/b"}},
			lead + "placed one after another in queue order, 1 of the 2 pods scheduled here would stay Pending (ml/b)" + tail},
		{v1alpha1.Together{Scheduled: 9, Placed: true, StayPending: []string{"a/1", "a/2", "a/3", "a/4"}},
			lead + "placed one after another in queue order, 4 of the 9 pods scheduled here would stay Pending (a/1, a/2, a/3, …)" + tail},
		{v1alpha1.Together{Scheduled: 1250}, lead + "the 1250 pods scheduled here do not all fit on the nodes named for them" + tail},
	} {
		if got := togetherNote(&tc.in); got != tc.want {
			t.Errorf("%+v:\n%q\nwant\n%q", tc.in, got, tc.want)
		}
	}
}
