package decide

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Higher priority first; equal priorities by creation time; pods without a
// creation time after the others, in their given order.
func TestQueueOrder(t *testing.T) {
	at := func(sec int) metav1.Time { return metav1.NewTime(time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC)) }
	in := pods(
		pod("new-low").Priority(0),
		pod("old-low").Priority(0).CreationTimestamp(at(1)),
		pod("later-low").Priority(0).CreationTimestamp(at(5)),
		pod("new-high").Priority(100),
		pod("high").Priority(100).CreationTimestamp(at(9)),
		pod("new-low-2").Priority(0),
	)
	var got []string
	for _, p := range QueueOrder(in) {
		got = append(got, p.Name)
	}
	want := []string{"high", "new-high", "old-low", "later-low", "new-low", "new-low-2"}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}
