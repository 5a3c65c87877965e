package heaplimit

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestLimit(t *testing.T) {
	const mib = 1 << 20
	cases := []struct {
		name                    string
		current, live, num, den int64
		want                    int64
	}{
		{"under the floor: the floor", 800 * mib, 500 * mib, 3, 2, 800 * mib},
		{"above the floor: live × 3/2", 800 * mib, 1000 * mib, 3, 2, 1500 * mib},
		{"never lowered", 4000 * mib, 1000 * mib, 3, 2, 4000 * mib},
		{"no measurement yet", 800 * mib, 0, 3, 2, 800 * mib},
		{"no ratio", 800 * mib, 1000 * mib, 3, 0, 800 * mib},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Limit(tc.current, tc.live, tc.num, tc.den); got != tc.want {
				t.Errorf("Limit(%d, %d, %d, %d) = %d, want %d", tc.current, tc.live, tc.num, tc.den, got, tc.want)
			}
		})
	}
}

// After a collection with 64 MiB live and a 1 MiB floor, Follow raises the
// limit to at least twice the live heap; once stopped it no longer does.
func TestFollowRaisesTheLimitAfterACycle(t *testing.T) {
	prev := debug.SetMemoryLimit(1 << 20)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	live := make([]byte, 64<<20)
	stop := Follow(2, 1)
	raised := false
	// The cleanup runs on its own goroutine after the cycle; a bounded number
	// of cycles, not a sleep, waits for it.
	for range 1000 {
		runtime.GC()
		runtime.Gosched()
		if debug.SetMemoryLimit(-1) >= 2*int64(len(live)) {
			raised = true
			break
		}
	}
	stop()
	runtime.KeepAlive(live)
	if !raised {
		t.Fatalf("limit %d after 1000 cycles with %d bytes live, want >= %d", debug.SetMemoryLimit(-1), len(live), 2*len(live))
	}
	debug.SetMemoryLimit(1 << 20)
	for range 10 {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<20 {
		t.Errorf("limit %d after stop, want it left at %d", got, 1<<20)
	}
}
