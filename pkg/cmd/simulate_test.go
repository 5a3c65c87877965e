package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/fakeapi"
)

const (
	simCluster     = "testdata/simulate/cluster.yaml"
	simScript      = "testdata/simulate/all-ops.yaml"
	versionsScript = "testdata/simulate/versions.yaml"
)

// noKubeconfig points the kubeconfig at an empty file, so that the
// namespace rule and the note never depend on the machine running tests.
func noKubeconfig(t *testing.T) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)
}

// TestSimulateGolden: the timeline for every binding outcome with a 30s TTL
// and with TTL 0 over the fixture cluster (placement by Next with one pod
// fitting nowhere), JSON, wide, --node and the all-operations script (the
// shipped example's runs are checked against their hand analysis in
// example_test.go). Each run's stderr note is checked too.
func TestSimulateGolden(t *testing.T) {
	noKubeconfig(t)
	pending := []string{"simulate", "-f", simCluster, "--pending", "-A"}
	const note30, note0 = "note: TTL 30s (--ttl); assumed pods whose binding finished expire 30s later\n",
		"note: TTL 0 (--ttl): assumed pods never expire\n"
	// A run where a pod ends Unschedulable exits 1, as why does; the
	// fixture has one pod that fits nowhere (exit gives the exceptions).
	exit := map[string]int{"simulate-node.txt": 0, "simulate-script.txt": 0, "simulate-versions-v1.18.txt": 0,
		"simulate-versions-v1.25.txt": 0, "simulate-versions-v1.36.txt": 0, "simulate-lost-ttl0-v1.18.txt": 0}
	tests := []struct {
		golden string
		args   []string
		note   string
	}{
		{"simulate-confirm-ttl30s.txt", append(pending, "--bind", "confirm", "--ttl", "30s"), note30},
		{"simulate-confirm-ttl0.txt", append(pending, "--bind", "confirm", "--ttl", "0"), note0},
		{"simulate-fail-ttl30s.txt", append(pending, "--bind", "fail", "--ttl", "30s"), note30},
		{"simulate-fail-ttl0.txt", append(pending, "--bind", "fail", "--ttl", "0"), note0},
		{"simulate-lost-ttl30s.txt", append(pending, "--bind", "lost", "--ttl", "30s"), note30},
		{"simulate-lost-ttl0.txt", append(pending, "--bind", "lost", "--ttl", "0"), note0},
		{"simulate-lost-ttl30s.json", append(pending, "--bind", "lost", "--ttl", "30s", "-o", "json"), note30},
		{"simulate-bind-for-wide.txt", append(pending, "--bind-for", "apps/web-1=lost", "--bind-for", "other/tool=fail",
			"--kube-version", "v1.22.5", "--bind-latency", "2s", "-o", "wide"),
			"note: TTL 2m0s (kube-scheduler v1.22.5 default); assumed pods whose binding finished expire 2m0s later\n"},
		{"simulate-node.txt", []string{"simulate", "-f", simCluster, "--pending", "-n", "apps", "-l", "app=batch", "--node", "a-1"},
			"note: TTL 0 (latest kube-scheduler default, no --kube-version: assumed pods never expire; v1.36 removed expiry)\n"},
		{"simulate-script.txt", []string{"simulate", "-f", simCluster, "--script", simScript, "--ttl", "30s"}, note30},
		// The same script as three kube-scheduler versions (expectations in
		// the script's comments, from each version's cache.go).
		{"simulate-versions-v1.18.txt", []string{"simulate", "-f", simCluster, "--script", versionsScript, "--kube-version", "v1.18"},
			"note: TTL 30s (kube-scheduler v1.18 default); assumed pods whose binding finished expire 30s later\n"},
		{"simulate-versions-v1.25.txt", []string{"simulate", "-f", simCluster, "--script", versionsScript, "--kube-version", "v1.25"},
			"note: TTL 0 (kube-scheduler v1.25 default, as in 1.25–1.35): assumed pods never expire\n"},
		{"simulate-versions-v1.36.txt", []string{"simulate", "-f", simCluster, "--script", versionsScript, "--kube-version", "v1.36"},
			"note: TTL 0 (kube-scheduler v1.36 default: assumed pods never expire; v1.36 removed expiry)\n"},
		// v1.18 with --ttl 0: the deadline is the finish time (+100ms), so the
		// first cleanup after it (+1s) expires both lost bindings.
		{"simulate-lost-ttl0-v1.18.txt", []string{"simulate", "-f", simCluster, "--pending", "-n", "apps", "-l", "app=web",
			"--bind", "lost", "--ttl", "0", "--kube-version", "v1.18"},
			"note: TTL 0 (--ttl, kube-scheduler v1.18): assumed pods whose binding finished expire at the next cleanup\n"},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			r := run(t, "", tc.args...)
			want, ok := exit[tc.golden]
			if !ok {
				want = ExitError
			}
			if r.code != want {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", r.code, want, r.stderr)
			}
			// run shows the silent exit-1 error that main does not print.
			r.stderr = strings.TrimSuffix(r.stderr, "error: "+errNotScheduled.Error()+"\n")
			if !strings.HasSuffix(r.stderr, tc.note) || strings.Count(r.stderr, "note: TTL") != 1 {
				t.Errorf("stderr %q, want it to end with the one TTL note %q", r.stderr, tc.note)
			}
			checkGolden(t, tc.golden, r.stdout)
		})
	}
}

// TestSimulateDeterministic: the same input twice gives the same bytes, in
// every output format.
func TestSimulateDeterministic(t *testing.T) {
	noKubeconfig(t)
	for _, format := range []string{"table", "wide", "json", "yaml"} {
		args := []string{"simulate", "-f", example, "--pending", "-A", "--bind", "lost", "--ttl", "30s", "-o", format}
		first, second := run(t, "", args...), run(t, "", args...)
		// Every pending pod of the example fits nowhere: exit 1.
		if first.code != ExitError || first.code != second.code || first.stdout != second.stdout || first.stderr != second.stderr {
			t.Errorf("-o %s: runs differ (exit %d):\n%s\n---\n%s", format, first.code, first.stdout, second.stdout)
		}
		script := []string{"simulate", "-f", simCluster, "--script", simScript, "--ttl", "30s", "-o", format}
		if a, b := run(t, "", script...), run(t, "", script...); a.code != 0 || a.stdout != b.stdout {
			t.Errorf("script -o %s: runs differ (exit %d)", format, a.code)
		}
	}
}

// TestSimulateValidate table-tests Validate: each case mutates fresh options.
func TestSimulateValidate(t *testing.T) {
	streams := genericiooptions.NewTestIOStreamsDiscard()
	tests := []struct {
		name    string
		set     func(o *SimulateOptions)
		wantErr string
	}{
		{"pending", func(o *SimulateOptions) {}, ""},
		{"nothing to simulate", func(o *SimulateOptions) { o.Pending = false }, "nothing to simulate: give --pending, --pod-file or --script"},
		{"pod file only", func(o *SimulateOptions) { o.Pending, o.PodFiles = false, []string{"p.yaml"} }, ""},
		{"script only", func(o *SimulateOptions) { o.Pending, o.Script = false, "s.yaml" }, ""},
		{"script with pending and bind", func(o *SimulateOptions) { o.Script, o.Bind = "s.yaml", "lost" }, ""},
		{"-A without --pending", func(o *SimulateOptions) { o.Pending, o.Script, o.Input.AllNamespaces = false, "s.yaml", true }, "-A/--all-namespaces needs --pending"},
		{"-l without --pending", func(o *SimulateOptions) { o.Pending, o.Script, o.Selector = false, "s.yaml", "a=b" }, "-l/--selector needs --pending"},
		{"bad selector", func(o *SimulateOptions) { o.Selector = "a in (b" }, `invalid --selector "a in (b"`},
		{"bad --bind", func(o *SimulateOptions) { o.Bind = "maybe" }, `invalid --bind: unknown binding outcome "maybe" (want confirm, fail, lost)`},
		{"--bind-for", func(o *SimulateOptions) { o.BindFor = []string{"a/b=lost", "a/c=fail"} }, ""},
		{"--bind-for without outcome", func(o *SimulateOptions) { o.BindFor = []string{"a/b"} }, `invalid --bind-for "a/b": want NAMESPACE/NAME=confirm|fail|lost`},
		{"--bind-for without namespace", func(o *SimulateOptions) { o.BindFor = []string{"b=lost"} }, `invalid --bind-for "b=lost": want NAMESPACE/NAME`},
		{"--bind-for bad outcome", func(o *SimulateOptions) { o.BindFor = []string{"a/b=late"} }, `invalid --bind-for "a/b=late": unknown binding outcome "late"`},
		{"--ttl", func(o *SimulateOptions) { o.TTL = "2m" }, ""},
		{"--ttl 0", func(o *SimulateOptions) { o.TTL = "0" }, ""},
		{"bad --ttl", func(o *SimulateOptions) { o.TTL = "soon" }, `invalid --ttl "soon"`},
		{"negative --ttl", func(o *SimulateOptions) { o.TTL = "-1s" }, `invalid --ttl "-1s": want a duration that is not negative`},
		{"--ttl beyond the largest duration", func(o *SimulateOptions) { o.TTL = "9999999h" },
			`invalid --ttl "9999999h": want a duration such as 30s or 0, at most 2562047h47m16.854775807s`},
		{"bad --kube-version", func(o *SimulateOptions) { o.Input.Version.KubeVersion = "latest" }, `invalid --kube-version: invalid Kubernetes version "latest"`},
		{"--kube-version 2.0", func(o *SimulateOptions) { o.Input.Version.KubeVersion = "v2.0" }, `unsupported Kubernetes version "v2.0": kubectl-schedcache models kube-scheduler v1.18 to v1.36`},
		{"negative --bind-latency", func(o *SimulateOptions) { o.BindLatency = -time.Second }, "--bind-latency must not be negative, got -1s"},
		{"zero --cleanup-period", func(o *SimulateOptions) { o.CleanupPeriod = 0 }, "--cleanup-period must be positive, got 0s"},
		{"negative --cleanup-period", func(o *SimulateOptions) { o.CleanupPeriod = -time.Second }, "--cleanup-period must be positive"},
		{"negative --until", func(o *SimulateOptions) { o.Until = -time.Minute }, "--until must not be negative, got -1m0s"},
		{"too many ticks", func(o *SimulateOptions) { o.Until, o.CleanupPeriod = 24*time.Hour, time.Millisecond }, "--until/--cleanup-period: a timeline of 24h0m0s with a cleanup every 1ms has 86400000 cleanup ticks"},
		{"too many ticks from a long --ttl", func(o *SimulateOptions) { o.TTL, o.CleanupPeriod = "100h", time.Millisecond }, "cleanup ticks, more than 1000000"},
		{"too many ticks from --kube-version", func(o *SimulateOptions) { o.Input.Version.KubeVersion, o.CleanupPeriod = "v1.23", 100*time.Microsecond }, "cleanup ticks, more than 1000000"},
		{"--script with --node", func(o *SimulateOptions) { o.Script, o.Node = "s.yaml", "n1" }, "--node cannot be used with --script"},
		{"--script with --bind-for", func(o *SimulateOptions) { o.Script, o.BindFor = "s.yaml", []string{"a/b=lost"} }, "--bind-for cannot be used with --script"},
		{"--script with timeline flags", func(o *SimulateOptions) {
			o.Script, o.timelineFlags = "s.yaml", []string{"--bind-latency", "--until"}
		}, "--bind-latency, --until cannot be used with --script: the script's steps give nodes, outcomes and times"},
		{"bad output", func(o *SimulateOptions) { *o.Output.PrintFlags.OutputFormat = "bogus" }, `unknown output format "bogus"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := NewSimulateOptions(streams)
			o.Pending = true
			tc.set(o)
			err := check(o)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestSimulateExitCodes: flag and script mistakes exit 2 naming the flag or
// the step; loading problems exit 1.
func TestSimulateExitCodes(t *testing.T) {
	noKubeconfig(t)
	dir := t.TempDir()
	script := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	base := []string{"simulate", "-f", simCluster}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no source", base, 2, "nothing to simulate"},
		{"timeline flag with script", append(base, "--script", simScript, "--until", "5m"), 2, "--until cannot be used with --script"},
		{"unknown --node", append(base, "--pending", "-A", "--node", "z-9"), 2, "--node z-9: no such node in the input"},
		{"--bind-for unknown pod", append(base, "--pending", "-A", "--bind-for", "apps/nope=lost"), 2, "a binding outcome is given for pod apps/nope, which is not among the pods to simulate"},
		{"pod file and pending overlap", append(base, "--pending", "-A", "--pod-file", simCluster), 2, "pod apps/batch-1 is given twice"},
		{"missing script", append(base, "--script", filepath.Join(dir, "nope.yaml")), 2, "reading --script"},
		{"unknown op", append(base, "--script", script("op.yaml", "- op: cleanup\n- op: assumed\n")), 2, `script step 2: unknown op "assumed"`},
		{"unknown pod", append(base, "--script", script("pod.yaml", "- {op: assume, pod: apps/nope}\n")), 2, "script step 1 (assume): unknown pod apps/nope"},
		{"bad duration", append(base, "--script", script("dur.yaml", "- {op: advance, duration: 5 minutes}\n")), 2, `script step 1 (advance): invalid duration "5 minutes"`},
		{"missing field", append(base, "--script", script("field.yaml", "- {op: advance}\n")), 2, "script step 1 (advance): missing field duration"},
		{"unknown node", append(base, "--script", script("node.yaml", "- {op: cleanup}\n- {op: cleanup}\n- {op: removeNode, node: z-9}\n")), 2, "script step 3 (removeNode): unknown node z-9"},
		{"script names the file", append(base, "--script", script("named.yaml", "[]")), 2, "named.yaml: script: no steps"},
		{"pod file", append(base, "--pod-file", "testdata/pods/small.yaml"), 0, "note: TTL 0"},
		{"pod file with nodes only", []string{"simulate", "-f", simCluster, "--pod-file", script("nodes.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: x}\n")}, 2, "--pod-file: no pods or workloads in"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and stderr containing %q", r.code, r.stderr, tc.code, tc.stderr)
			}
		})
	}
}

// TestSimulateNamespace: --pending takes -n, else the kubeconfig context's
// namespace, else "default"; -A takes all.
func TestSimulateNamespace(t *testing.T) {
	pods := func(r result) string {
		var names []string
		for _, line := range strings.Split(r.stdout, "\n") {
			if f := strings.Fields(line); len(f) > 3 && f[1] == "assume" {
				names = append(names, f[2])
			}
		}
		return strings.Join(names, " ")
	}
	path := filepath.Join(t.TempDir(), "config")
	kubeconfig := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {}}]
contexts: [{name: ctx, context: {cluster: c, user: u, namespace: other}}]
current-context: ctx
`
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)
	base := []string{"simulate", "-f", simCluster, "--pending", "--node", "a-2"}
	if got := pods(run(t, "", base...)); got != "other/tool" {
		t.Errorf("context namespace: %q, want other/tool", got)
	}
	if got := pods(run(t, "", append(base, "-n", "apps", "-l", "app=web")...)); got != "apps/web-1 apps/web-2" {
		t.Errorf("-n apps -l app=web: %q", got)
	}
	if got := pods(run(t, "", append(base, "-A")...)); got != "apps/batch-1 apps/huge apps/web-1 apps/web-2 other/tool" {
		t.Errorf("-A: %q", got)
	}
	// kubectl lets -A win over -n; here the two conflict: a usage error.
	if r := run(t, "", append(base, "-n", "apps", "-A")...); r.code != ExitUsage || !strings.Contains(r.stderr, "-n/--namespace apps and -A/--all-namespaces cannot be used together") {
		t.Errorf("-n apps -A: exit %d, stderr %q", r.code, r.stderr)
	}
	noKubeconfig(t)
	if r := run(t, "", base...); r.code != 0 || r.stderr != "No resources found in default namespace.\nhint: 5 pods are Pending in 2 other namespaces (apps, other): -A shows them\n" {
		t.Errorf("without a context namespace: exit %d, %q", r.code, r.stderr)
	}
}

// TestSimulateLiveTTL: reading a live cluster, the TTL default is that of
// the API server's version; --kube-version and --ttl take precedence.
func TestSimulateLiveTTL(t *testing.T) {
	srv := fakeapi.New(t, fakeClusterFrom(t, simCluster).Tracker(), "v1.19.16")
	tests := []struct {
		name, ttl, kubeVersion, note string
	}{
		{"server", "", "", "note: TTL 30s (kube-scheduler v1.19.16 default, from the server version); assumed pods whose binding finished expire 30s later"},
		{"--kube-version", "", "v1.30", "note: TTL 0 (kube-scheduler v1.30 default, as in 1.25–1.35): assumed pods never expire"},
		{"--ttl", "5s", "v1.23", "note: TTL 5s (--ttl); assumed pods whose binding finished expire 5s later"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			o := NewSimulateOptions(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &errOut})
			o.Pending, o.Input.AllNamespaces, o.Bind, o.TTL, o.Input.Version.KubeVersion = true, true, "lost", tc.ttl, tc.kubeVersion
			// Every pending pod of the fixture but one is placed: exit 1.
			if err := runLive(o, srv); ExitCode(err) != ExitError {
				t.Fatal(err)
			}
			// Older than v1.36: the placements are still v1.36's decisions.
			version := tc.kubeVersion
			if version == "" {
				version = "v1.19.16"
			}
			want := "note: decisions follow kube-scheduler v1.36's framework and plugins, not " + version + "'s (only the cache's accounting is " + version +
				"'s): verdicts and messages may differ from that scheduler's\n" + tc.note
			if got := strings.TrimSpace(errOut.String()); got != want {
				t.Errorf("note %q, want %q", got, want)
			}
			if tc.name == "server" && !strings.Contains(out.String(), "+31s     expire") {
				t.Errorf("no expiry at +31s with the v1.19 TTL:\n%s", out.String())
			}
		})
	}
}
