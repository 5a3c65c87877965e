package heaplimit

import (
	"runtime/debug"
	"testing"
)

// The pace after a read puts the next collection at 5× the heap in use,
// from the few megabytes the last collection marked; none is set where
// the heap is not above what was marked, or nothing was.
func TestPaceFor(t *testing.T) {
	cases := []struct {
		name       string
		live, heap uint64
		want       int
	}{
		{"a read of 300 MB after 3 MB were marked", 3 << 20, 300 << 20, 49_900},
		{"a heap that is all marked", 300 << 20, 300 << 20, GCPercent},
		{"nothing marked yet", 0, 300 << 20, GCPercent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := paceFor(GCPercent, tc.live, tc.heap)
			if got != tc.want {
				t.Errorf("paceFor(%d, %d, %d) = %d, want %d", GCPercent, tc.live, tc.heap, got, tc.want)
			}
			if tc.want != GCPercent {
				if goal := tc.live * uint64(100+got) / 100; goal < tc.heap*5-tc.heap/100 || goal > tc.heap*5 {
					t.Errorf("goal %d for a heap of %d, want 5× it", goal, tc.heap)
				}
			}
		})
	}
}

// While files are read the collector waits for the soft limit, and once
// read the pace is at least GCPercent; the limit is not touched. A
// command that said Decisions, or a GOGC the user set, keeps GCPercent
// through the read.
func TestReadingWaitsForTheLimit(t *testing.T) {
	prevPercent, prevLimit := debug.SetGCPercent(GCPercent), debug.SetMemoryLimit(MemoryLimit)
	t.Cleanup(func() { debug.SetGCPercent(prevPercent); debug.SetMemoryLimit(prevLimit) })
	cases := []struct {
		name        string
		gogc        string
		decisions   bool
		readPercent int
	}{
		{"a read", "", false, -1},
		{"a decision command's read", "", true, GCPercent},
		{"GOGC set", "400", false, GCPercent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", "")
			debug.SetGCPercent(GCPercent)
			debug.SetMemoryLimit(MemoryLimit)
			p := new(Policy)
			if tc.decisions {
				p.Decisions()
			}
			want := debug.SetMemoryLimit(-1)
			done := p.Reading()
			percent := debug.SetGCPercent(-1)
			debug.SetGCPercent(percent)
			if percent != tc.readPercent {
				t.Errorf("while reading: GC percent %d, want %d", percent, tc.readPercent)
			}
			done()
			percent, limit := debug.SetGCPercent(GCPercent), debug.SetMemoryLimit(-1)
			if percent < GCPercent || limit != want {
				t.Errorf("once read: GC percent %d, limit %d; want ≥ %d, %d", percent, limit, GCPercent, want)
			}
		})
	}
}

// The pace Reading set gives way to GCPercent after one collection,
// unless something set another pace in between.
func TestRestorePace(t *testing.T) {
	prev := debug.SetGCPercent(GCPercent)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	debug.SetGCPercent(49_900)
	restorePace(49_900)
	if got := debug.SetGCPercent(100); got != GCPercent {
		t.Errorf("after the paced collection: GC percent %d, want %d", got, GCPercent)
	}
	restorePace(49_900) // Watch set 100 in between
	if got := debug.SetGCPercent(GCPercent); got != 100 {
		t.Errorf("after another pace was set: GC percent %d, want 100", got)
	}
}
