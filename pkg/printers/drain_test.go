package printers

import (
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// blockedDrain is a drain of two nodes: n1 kept whole by one pod that
// blocks it (its three others only repeat "other pods block the drain"),
// n2 kept whole by a budget (one other pod), n3 never reached: kubectl
// waits on n2 for ever (two pods).
func blockedDrain() *v1alpha1.DrainReport {
	others := func(pod, node string) v1alpha1.DrainPod {
		return v1alpha1.DrainPod{Pod: pod, From: node, Result: "skipped", Message: "not evicted: other pods block the drain of node " + node}
	}
	held := func(pod, node string) v1alpha1.DrainPod {
		return v1alpha1.DrainPod{Pod: pod, From: node, Result: "skipped",
			Message: "not evicted: kubectl drain waits for ever on node n2, whose pods a disruption budget holds back (--timeout gives up on a node)"}
	}
	return &v1alpha1.DrainReport{Pods: []v1alpha1.DrainPod{
		{Pod: "a/solo", From: "n1", Result: "blocked", Message: "cannot delete Pods that declare no controller (use --force to override)"},
		{Pod: "a/web", From: "n2", Result: "blocked", Message: "Cannot evict pod as it would violate the pod's disruption budget."},
		{Pod: "kube-system/ds", From: "n1", Result: "skipped", Message: "ignoring DaemonSet-managed Pods"},
		others("a/x", "n1"), others("a/y", "n2"), others("a/z", "n1"), others("b/x", "n1"),
		held("c/p", "n3"), held("c/q", "n3"),
	}}
}

// TestDrainTableFolds: a table for reading keeps the rows that say
// something of their own and prints one line per node for the pods kept
// only because others block its drain, with their count ("1 more pod" on
// n2); --sort-by does not undo the fold; CSV and --no-headers list every
// pod.
func TestDrainTableFolds(t *testing.T) {
	for _, opts := range []TableOptions{{}, {SortBy: "POD"}, {MaxWidth: 80}} {
		tb := DrainTable(blockedDrain())
		if err := tb.Arrange(opts); err != nil {
			t.Fatal(err)
		}
		got := render(t, tb, opts)
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		want := []string{"node n1: 3 more pods not evicted: other pods block the drain", "node n2: 1 more pod not evicted: other pods block the drain",
			"node n3: 2 more pods not evicted: kubectl drain waits for ever on node n2, whose pods a disruption budget holds back (--timeout gives up on a node)"}
		if tail := lines[len(lines)-3:]; strings.Join(tail, "\n") != strings.Join(want, "\n") {
			t.Errorf("%+v: last lines %q, want %q\n%s", opts, tail, want, got)
		}
		if strings.Count(got, "not evicted") != 3 || strings.Count(got, "a/") != 2 || strings.Contains(got, "c/") {
			t.Errorf("%+v: want the 2 blocking rows and 3 fold lines:\n%s", opts, got)
		}
	}
	var csv strings.Builder
	if err := DrainTable(blockedDrain()).RenderCSV(&csv, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(csv.String(), "other pods block the drain of node"); n != 4 {
		t.Errorf("CSV: %d folded rows, want all 4:\n%s", n, csv.String())
	}
	if got := render(t, DrainTable(blockedDrain()), TableOptions{NoHeaders: true}); strings.Count(got, "\n") != 9 {
		t.Errorf("--no-headers: want the 9 pods, one line each:\n%s", got)
	}
}
