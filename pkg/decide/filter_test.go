package decide

import (
	"testing"

	fwk "k8s.io/kube-scheduler/framework"
)

// filterChunk sizes the parallel filter calls: the wanted count first
// (within 64..512), then what the feasible share seen so far says the rest
// needs, plus an eighth, within the same bounds.
func TestFilterChunk(t *testing.T) {
	cases := []struct {
		name                    string
		workers                 int
		want, done, feasible, n int
	}{
		{"first chunk: the wanted count", 2, 500, 0, 0, 500},
		{"first chunk: at most 512", 2, 5000, 0, 0, 512},
		{"first chunk: at least 64", 2, 3, 0, 0, 64},
		{"first chunk: at least 4 per worker", 32, 3, 0, 0, 128},
		// 400 of 500 passed: 100 more at 80% is 125 nodes, + 1/8 + 1.
		{"next: the rest at the share seen", 2, 500, 500, 400, 141},
		{"next: a few missing, at least 64", 2, 500, 512, 490, 64},
		{"next: a low share, at most 512", 2, 500, 500, 10, 512},
		{"next: nothing passed yet", 2, 500, 500, 0, 512},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &cycle{e: &Evaluator{parallelism: tc.workers}, feasible: make([]fwk.NodeInfo, tc.feasible)}
			if got := c.filterChunk(tc.want, tc.done); got != tc.n {
				t.Errorf("filterChunk(want %d, done %d) with %d feasible = %d, want %d", tc.want, tc.done, tc.feasible, got, tc.n)
			}
		})
	}
}
