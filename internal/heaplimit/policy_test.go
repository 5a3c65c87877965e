package heaplimit

import (
	"runtime/debug"
	"testing"
)

// The decision commands lift main's 800 MiB soft limit to 1400 MiB, never
// lower a higher one, and leave a GOMEMLIMIT the user set alone.
func TestRaiseMemoryLimitForDecisions(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	cases := []struct {
		name         string
		env          string
		before, want int64
	}{
		{"main's limit is raised", "", 800 << 20, 1400 << 20},
		{"a higher limit stays", "", 4 << 30, 4 << 30},
		{"GOMEMLIMIT wins", "1GiB", 1 << 30, 1 << 30},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tc.env)
			debug.SetMemoryLimit(tc.before)
			new(Policy).Decisions()
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("limit %d after raising from %d, want %d", got, tc.before, tc.want)
			}
		})
	}
}

// A script of largeScriptSteps steps or more collects at GOGC=100; a
// shorter one, or a GOGC the user set, leaves the percent alone.
func TestCollectOftenForLargeScript(t *testing.T) {
	prev := debug.SetGCPercent(400)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	cases := []struct {
		name  string
		env   string
		steps int
		want  int
	}{
		{"short script", "", largeScriptSteps - 1, 400},
		{"long script", "", largeScriptSteps, 100},
		{"GOGC wins", "400", largeScriptSteps, 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.env)
			debug.SetGCPercent(400)
			new(Policy).ScriptSteps(tc.steps)
			if got := debug.SetGCPercent(400); got != tc.want {
				t.Errorf("GC percent %d, want %d", got, tc.want)
			}
		})
	}
}

// The files' size sets a floor that grows with the input: at the size of
// the published 5,000-node List it is main's 800 MiB, at three times that
// three times as much; it never lowers a limit, and GOMEMLIMIT wins.
func TestRaiseMemoryLimitForInput(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	cases := []struct {
		name         string
		env          string
		input        int64
		before, want int64
	}{
		{"small input keeps the floor", "", 10 << 20, 800 << 20, 800 << 20},
		{"the published size is the floor", "", 742_000_000, 800 << 20, 800 << 20},
		{"three times the size, three times the floor", "", 3 * 742_000_000, 800 << 20, 3 * (800 << 20)},
		{"half way", "", 742_000_000 + 371_000_000, 800 << 20, 800<<20 + 400<<20},
		{"a higher limit stays", "", 3 * 742_000_000, 4 << 30, 4 << 30},
		{"GOMEMLIMIT wins", "1GiB", 3 * 742_000_000, 1 << 30, 1 << 30},
		{"stdin counts nothing", "", 0, 800 << 20, 800 << 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tc.env)
			debug.SetMemoryLimit(tc.before)
			new(Policy).InputBytes(tc.input)
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("limit %d after %d input bytes from %d, want %d", got, tc.input, tc.before, tc.want)
			}
		})
	}
}

// A live listing's floor follows the node count the first page announces:
// 800 MiB at 5,000 nodes, three times that at 15,000, never lowered.
func TestRaiseMemoryLimitForNodes(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	t.Setenv("GOMEMLIMIT", "")
	for _, tc := range []struct {
		nodes, before, want int64
	}{
		{100, 800 << 20, 800 << 20},
		{5000, 800 << 20, 800 << 20},
		{15000, 800 << 20, 3 * (800 << 20)},
		{15000, 4 << 30, 4 << 30},
	} {
		debug.SetMemoryLimit(tc.before)
		new(Policy).Nodes(tc.nodes)
		if got := debug.SetMemoryLimit(-1); got != tc.want {
			t.Errorf("%d nodes from %d: limit %d, want %d", tc.nodes, tc.before, got, tc.want)
		}
	}
}
