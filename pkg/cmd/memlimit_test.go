package cmd

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
			raiseMemoryLimitForDecisions()
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
			collectOftenForLargeScript(tc.steps)
			if got := debug.SetGCPercent(400); got != tc.want {
				t.Errorf("GC percent %d, want %d", got, tc.want)
			}
		})
	}
}
