package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneExitCodeForABadInput: the same empty file exits 2 with the same
// one-line error from every command that reads -f (issue 37, 4f: dump,
// requested, next-nodes, snapshot, report and simulate exited 1, why,
// drain and requested --pod 2); a --pod-file with no Pod or workload says
// that, not "no nodes or pods", and exits 2 too (docs/exit-codes.md).
func TestOneExitCodeForABadInput(t *testing.T) {
	noKubeconfig(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "error: no nodes or pods found in file " + empty + "\n"
	for _, args := range [][]string{
		{"dump"}, {"requested"}, {"next-nodes"}, {"snapshot"}, {"report", "-o", filepath.Join(dir, "r.html")},
		{"why", "-A"}, {"simulate", "--pending", "-A"}, {"drain", "n1"}, {"requested", "--pod", "a/b"},
		{"why", "-A", "--cordon", "n1"},
	} {
		r := run(t, "", append(args, "-f", empty)...)
		if r.code != ExitUsage || r.stderr != want {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q", strings.Join(args, " "), r.code, r.stderr, ExitUsage, want)
		}
	}
	cluster := fixture("pending")
	wantPodFile := "error: --pod-file: no Pod or workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob) found in file " + empty + "\n"
	for _, cmd := range []string{"why", "simulate", "requested"} {
		r := run(t, "", cmd, "-f", cluster, "--pod-file", empty)
		if r.code != ExitUsage || !strings.HasSuffix(r.stderr, wantPodFile) {
			t.Errorf("%s --pod-file EMPTY: exit %d, stderr %q; want %d, ending in %q", cmd, r.code, r.stderr, ExitUsage, wantPodFile)
		}
	}
}
