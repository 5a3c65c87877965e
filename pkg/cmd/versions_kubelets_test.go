package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/views"
)

// TestWhyFollowsKubelets: files whose nodes all run v1.30 are modelled as
// v1.30 without --kube-version, and why says both notes once; with
// --kube-version nothing is said of the kubelets.
func TestWhyFollowsKubelets(t *testing.T) {
	raw, err := os.ReadFile(fixture("pending"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(raw), "status: {allocatable:", "status: {nodeInfo: {kubeletVersion: v1.30.2}, allocatable:")
	path := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "why", "-f", path, "-n", "apps", "small")
	want := "note: modelling kube-scheduler v1.30, the version of every node's kubelet (v1.30.2); --kube-version chooses another\n" +
		"note: decisions follow kube-scheduler v1.36's framework and plugins, not v1.30's (only the cache's accounting is v1.30's): verdicts and messages may differ from that scheduler's\n" +
		"1 pod: 1 scheduled\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}
	r = run(t, "", "why", "-f", path, "-n", "apps", "small", "--kube-version", "v1.36")
	if r.stderr != "1 pod: 1 scheduled\n" {
		t.Errorf("--kube-version v1.36: stderr %q", r.stderr)
	}
	for _, cmd := range []string{"dump", "next-nodes"} {
		if r := run(t, "", cmd, "-f", path, "-o", "json"); !strings.HasPrefix(r.stderr, "note: modelling kube-scheduler v1.30,") {
			t.Errorf("%s: stderr %q", cmd, r.stderr)
		}
	}
	if r := run(t, "", "dump", "-f", path, "-o", "json", "--feature-gates", "DRANodeAllocatableResources=true"); !strings.HasPrefix(r.stderr, "note: modelling kube-scheduler v1.36, which --feature-gates were read against") {
		t.Errorf("dump --feature-gates: stderr %q", r.stderr)
	}
}

// TestOneVersionPerInput: every command models the version the nodes'
// kubelets give (v1.30 here) and says so exactly once, what-if runs
// included (issue 37, 4a: simulate modelled v1.36 and the what-if runs
// said no version).
func TestOneVersionPerInput(t *testing.T) {
	noKubeconfig(t)
	raw, err := os.ReadFile(fixture("pending"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(raw), "status: {allocatable:", "status: {nodeInfo: {kubeletVersion: v1.30.2}, allocatable:")
	path := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	const version = "note: modelling kube-scheduler v1.30, the version of every node's kubelet (v1.30.2); --kube-version chooses another\n"
	for _, args := range [][]string{
		{"dump"}, {"requested"}, {"snapshot"}, {"next-nodes"},
		{"requested", "--pod", "apps/small"},
		{"why", "-A"}, {"why", "-A", "--cordon", "n1"}, {"why", "-A", "--add-node", "n1=2"},
		{"simulate", "--pending", "-A"}, {"simulate", "--pending", "-A", "--cordon", "n1"},
		{"drain", "n2"}, {"report", "-o", filepath.Join(t.TempDir(), "r.html")},
	} {
		r := run(t, "", append(args, "-f", path)...)
		if n := strings.Count(r.stderr, version); n != 1 {
			t.Errorf("%s: the version said %d times, want once; stderr:\n%s", strings.Join(args, " "), n, r.stderr)
		}
		if strings.Contains(r.stderr, "v1.36 (") || strings.Contains(r.stderr, "simulating kube-scheduler v1.36") {
			t.Errorf("%s: another version said; stderr:\n%s", strings.Join(args, " "), r.stderr)
		}
	}
}

// TestNextNodesNotesOnceInOrder: next-nodes reads the input, chooses the
// version and orders the nodes, each step adding its notes to one list the
// command prints before the order; each line comes out once, in the order
// the steps ran: the reader's warning (a pod without a UID), the version
// of the kubelets (all v1.30.2), the undetermined node order (no
// --scheduler-log).
func TestNextNodesNotesOnceInOrder(t *testing.T) {
	raw, err := os.ReadFile(fixture("pending"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(raw), "status: {allocatable:", "status: {nodeInfo: {kubeletVersion: v1.30.2}, allocatable:") +
		"- {apiVersion: v1, kind: Pod, metadata: {name: nouid, namespace: apps}, spec: {nodeName: n1, containers: [{name: c, image: i}]}}\n"
	path := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "next-nodes", "-f", path, "--count", "1")
	want := "warning: 1 pod without metadata.uid got a UID derived from namespace/name (e.g. apps/nouid: a9adc84b-2b39-56b1-8b0d-630e601a8f51)\n" +
		"note: modelling kube-scheduler v1.30, the version of every node's kubelet (v1.30.2); --kube-version chooses another\n" +
		"note: " + views.UndeterminedOrder + "\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}
	if !strings.Contains(r.stdout, "n1") {
		t.Errorf("stdout %q, want the order", r.stdout)
	}
}
