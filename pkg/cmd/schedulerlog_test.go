package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// zonesLog is testdata/schedlog/zones-nodetree.log, kube-scheduler
// v1.36.3's NodeTree records (node_tree.go, V(2)) for the nodes of
// fixtures/zones.yaml, worked out by hand: a2 (r1/za), n0 (no zone), c1
// (/zc), b1 (r1/zb), then x9 (r1/zb), which the input lacks; a1 is not in
// the log. The tree: r1/za [a2], "" [n0], /zc [c1], r1/zb [b1 x9]; a1 is
// taken to come last in r1/za; the order (round-robin over the zones):
// a2 n0 c1 b1 a1. Without the log: the input's a1 b1 c1 n0 a2.
var zonesLog = filepath.Join("testdata", "schedlog", "zones-nodetree.log")

func TestNextNodesSchedulerLog(t *testing.T) {
	r := run(t, "", "next-nodes", "-f", fixture("zones"), "--scheduler-log", zonesLog, "-o", "jsonpath={.order[*].node}")
	if r.code != 0 || r.stdout != "a2 n0 c1 b1 a1" {
		t.Errorf("exit %d, order %q\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"note: node order: kube-scheduler v1.36.3's NodeTree, replayed from " + zonesLog + " (5 NodeTree records since its start at line 1)\n",
		"note: node order: the scheduler log does not name 1 node of the input, a1: its place in the running scheduler's order is not known; taken to come last in its zone\n",
		"note: node order: the scheduler log's NodeTree holds 1 node the input lacks, x9: left out\n",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "not determined") {
		t.Errorf("the log's order is determined:\n%s", r.stderr)
	}
	r = run(t, "", "next-nodes", "-f", fixture("zones"), "-o", "jsonpath={.order[*].node}")
	if r.stdout != "a1 b1 c1 n0 a2" || strings.Count(r.stderr, "note: node order: ") != 1 ||
		!strings.Contains(r.stderr, "the order it received those present at its start is not determined") {
		t.Errorf("without a log: %q\n%s", r.stdout, r.stderr)
	}
}

// TestSchedulerLogOrdersTheCycles: why and simulate scan the nodes in the
// log's order. small (500m) fits every node of zones.yaml with the same
// score; the cycle filters the nodes in scan order and the tie goes to the
// first (this tool's pick; kube-scheduler picks any of them).
func TestSchedulerLogOrdersTheCycles(t *testing.T) {
	pod := filepath.Join("testdata", "pods", "small.yaml")
	for _, tc := range []struct {
		args  []string
		order string
	}{{nil, "a1 b1 c1 n0 a2"}, {[]string{"--scheduler-log", zonesLog}, "a2 n0 c1 b1 a1"}} {
		r := run(t, "", append([]string{"why", "--pod-file", pod, "-f", fixture("zones"), "-o", "json"}, tc.args...)...)
		var report struct {
			Pods []struct {
				Node  string
				Nodes []struct{ Name string }
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &report); err != nil || len(report.Pods) != 1 {
			t.Fatalf("why %v: %v\n%s", tc.args, err, r.stderr)
		}
		var scanned []string
		for _, n := range report.Pods[0].Nodes {
			scanned = append(scanned, n.Name)
		}
		first := strings.Fields(tc.order)[0]
		if got := strings.Join(scanned, " "); got != tc.order || report.Pods[0].Node != first {
			t.Errorf("why %v: scanned %s, placed on %s; want %s, %s", tc.args, got, report.Pods[0].Node, tc.order, first)
		}
		r = run(t, "", append([]string{"simulate", "--pod-file", pod, "-f", fixture("zones"), "--no-headers"}, tc.args...)...)
		if f := strings.Fields(r.stdout); len(f) < 4 || f[1] != "assume" || f[3] != first {
			t.Errorf("simulate %v: %s", tc.args, r.stdout)
		}
	}
}

func TestSchedulerLogErrors(t *testing.T) {
	for _, tc := range []struct{ log, want string }{
		{"testdata/schedlog/none.log", "error: --scheduler-log: open testdata/schedlog/none.log: no such file or directory\n"},
		{fixture("zones"), "error: --scheduler-log " + fixture("zones") + ": no \"Added node to NodeTree\" record in 35 lines: kube-scheduler writes them at -v=2 or more (--v=2), from its start\n"},
	} {
		r := run(t, "", "next-nodes", "-f", fixture("zones"), "--scheduler-log", tc.log)
		if r.code != 2 || r.stderr != tc.want {
			t.Errorf("exit %d, stderr %q, want 2 and %q", r.code, r.stderr, tc.want)
		}
	}
}
