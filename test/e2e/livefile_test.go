//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// realKubectl finds the real kubectl used to export the cluster: the one on
// PATH (our machines ship v1.32), else the one hack/e2e-binaries.sh builds
// from the pinned Kubernetes release when PATH has none.
func realKubectl(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("kubectl"); err == nil {
		return p
	}
	p := filepath.Join(filepath.Dir(framework.LocateBinaries(t).KubeAPIServer), "kubectl")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no kubectl on PATH and none built at %s; run `make e2e-binaries`", p)
	}
	return p
}

// TestLiveEqualsFile exports the rich cluster with the real kubectl and
// requires the plugin to print the same JSON from the export (-f) as from
// the live cluster, for every data command.
func TestLiveEqualsFile(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := startRichCluster(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()

	export := filepath.Join(t.TempDir(), "cluster.yaml")
	exportWithKubectl(ctx, t, c.Kubeconfig(framework.UserAdmin), export, "nodes,pods")
	// Sanity: the export holds the terminal pods the plugin must drop itself
	// and the terminating pod it must keep.
	data, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"name: succeeded", "name: terminating", "deletionTimestamp:", "nodeName: " + missingNode} {
		if !strings.Contains(string(data), w) {
			t.Fatalf("kubectl export lacks %q", w)
		}
	}
	// The same objects split over a file and a nested directory, read with
	// a repeated -f and -R.
	split := t.TempDir()
	nodesFile := filepath.Join(split, "nodes.json")
	podsDir := filepath.Join(split, "pods")
	if err := os.MkdirAll(filepath.Join(podsDir, "all"), 0o755); err != nil {
		t.Fatal(err)
	}
	exportWithKubectl(ctx, t, c.Kubeconfig(framework.UserAdmin), nodesFile, "nodes")
	exportWithKubectl(ctx, t, c.Kubeconfig(framework.UserAdmin), filepath.Join(podsDir, "all", "pods.yaml"), "pods")
	live := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)
	script := writeSimScript(t)
	// simulate's TTL defaults differ by input, by design: from a live
	// cluster it is the default of the server's kube-scheduler version
	// (discovery: v1.36.3, settings.ttlSource "kube-scheduler v1.36.3
	// default" and settings.kubeVersion "v1.36.3"), from files that of the
	// latest kube-scheduler ("latest kube-scheduler default", no
	// kubeVersion). The simulate cases therefore pin the TTL with
	// --kube-version or --ttl in both runs, and then every byte but the
	// source must match; simulate-default-ttl below checks that those two
	// settings are the only difference without them.
	pinVersion := "--kube-version=" + framework.KubernetesVersion

	for _, tc := range []struct {
		name string
		args []string
		// code is the expected exit code of both runs.
		code int
		// table output has no source: compared as is.
		table bool
		// stdin feeds the export through "-f -" instead of naming the file.
		stdin bool
		// split reads the split export: -f nodes.json -f pods/ -R.
		split bool
	}{
		{name: "dump", args: []string{"dump", "-o", "json"}},
		{name: "dump-node", args: []string{"dump", "--node", "node-03", "--node", missingNode, "-o", "json"}},
		{name: "requested", args: []string{"requested", "-o", "json"}},
		{name: "requested-pod", args: []string{"requested", "--pod", nsA + "/pending-1", "-o", "json"}},
		{name: "requested-pod-nofit", args: []string{"requested", "--pod", nsA + "/pending-huge", "-o", "json"}, code: 1},
		{name: "next-nodes", args: []string{"next-nodes", "--count", "11", "--cycles", "3", "-o", "json"}},
		{name: "snapshot", args: []string{"snapshot", "-o", "json"}},
		{name: "snapshot-stdin", args: []string{"snapshot", "-o", "json"}, stdin: true},
		{name: "dump-split-files", args: []string{"dump", "-o", "json"}, split: true},
		{name: "dump-wide-table", args: []string{"dump", "-o", "wide"}, table: true},
		{name: "requested-table", args: []string{"requested", "-o", "wide"}, table: true},
		{name: "simulate-pending", args: []string{"simulate", "--pending", "-A", pinVersion, "-o", "json"}, code: 1},
		{name: "simulate-lost-ttl", args: []string{"simulate", "--pending", "-A", "--bind", "lost", "--ttl", "30s", "-o", "json"}, code: 1},
		{name: "simulate-fail-v1.19", args: []string{"simulate", "--pending", "-n", nsA, "--bind", "fail", "--bind-for", nsA + "/pending-1=lost", "--kube-version", "v1.19", "-o", "json"}, code: 1},
		{name: "simulate-script", args: []string{"simulate", "--script", script, "--ttl", "30s", "-o", "json"}},
		{name: "simulate-script-stdin", args: []string{"simulate", "--script", script, pinVersion, "-o", "json"}, stdin: true},
		{name: "simulate-split-files", args: []string{"simulate", "--pending", "-A", "--bind", "lost", "--ttl", "2m", "-o", "json"}, split: true, code: 1},
		{name: "simulate-table", args: []string{"simulate", "--pending", "-A", "--bind", "lost", "--ttl", "30s", "-o", "wide"}, table: true, code: 1},
		{name: "simulate-script-table", args: []string{"simulate", "--script", script, pinVersion}, table: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fromLive := runPlugin(t, nil, append(tc.args, live)...)
			var fromFile runResult
			switch {
			case tc.stdin:
				fromFile = runPlugin(t, bytes.NewReader(data), append(tc.args, "-f", "-")...)
			case tc.split:
				fromFile = runPlugin(t, nil, append(tc.args, "-f", nodesFile, "-f", podsDir, "-R")...)
			default:
				fromFile = runPlugin(t, nil, append(tc.args, "-f", export)...)
			}
			for _, r := range []runResult{fromLive, fromFile} {
				if r.code != tc.code {
					t.Fatalf("want exit %d\n%v", tc.code, r)
				}
			}
			// simulate's TTL note on stderr must agree too.
			if a, b := ttlNote(fromLive.stderr), ttlNote(fromFile.stderr); a != b {
				t.Errorf("TTL notes differ:\nlive: %s\nfile: %s", a, b)
			}
			if tc.table {
				if fromLive.stdout != fromFile.stdout {
					t.Errorf("live and file tables differ; %s", firstDiff(fromLive.stdout, fromFile.stdout))
				}
				return
			}
			// "source" names where the objects came from ("cluster https://…"
			// vs "file …/cluster.yaml"): the one field that legitimately
			// differs. Blank it in both, then every other byte must match.
			if !strings.Contains(fromLive.stdout, `"source": "cluster https://`) || strings.Contains(fromFile.stdout, `"source": "cluster`) {
				t.Errorf("unexpected source lines:\nlive: %.200s\nfile: %.200s", fromLive.stdout, fromFile.stdout)
			}
			a, b := blankSource(t, fromLive.stdout), blankSource(t, fromFile.stdout)
			if a != b {
				t.Errorf("live and file JSON differ (source blanked); %s", firstDiff(a, b))
				writeArtifact(t, tc.name+"-live.json", fromLive.stdout)
				writeArtifact(t, tc.name+"-file.json", fromFile.stdout)
			}
			// The fit verdict line on stderr must agree too.
			if a, b := fitLine(fromLive.stderr), fitLine(fromFile.stderr); a != b {
				t.Errorf("fit summaries differ:\nlive: %s\nfile: %s", a, b)
			}
		})
	}

	// Without --ttl or --kube-version the live run takes the server's
	// version and the file run the latest kube-scheduler: both TTL 0 here,
	// so the timelines agree and only the two settings saying where the
	// TTL came from differ.
	t.Run("simulate-default-ttl", func(t *testing.T) {
		args := []string{"simulate", "--pending", "-A", "--bind", "lost", "-o", "json"}
		fromLive := runPlugin(t, nil, append(args, live)...)
		fromFile := runPlugin(t, nil, append(args, "-f", export)...)
		for _, r := range []runResult{fromLive, fromFile} {
			if r.code != 1 { // pending-huge fits nowhere
				t.Fatalf("%v", r)
			}
		}
		liveSettings := "        \"ttlSource\": \"kube-scheduler " + framework.KubernetesVersion + " default\",\n" +
			"        \"kubeVersion\": \"" + framework.KubernetesVersion + "\",\n"
		fileSettings := "        \"ttlSource\": \"latest kube-scheduler default\",\n"
		a, b := blankSource(t, fromLive.stdout), blankSource(t, fromFile.stdout)
		if strings.Count(a, liveSettings) != 1 || strings.Count(b, fileSettings) != 1 {
			t.Fatalf("want the live run's TTL from %s and the file run's from the latest kube-scheduler:\nlive: %.700s\nfile: %.700s", framework.KubernetesVersion, a, b)
		}
		if a = strings.Replace(a, liveSettings, fileSettings, 1); a != b {
			t.Errorf("live and file JSON differ beyond source, ttlSource and kubeVersion; %s", firstDiff(a, b))
		}
		wantLive := "note: TTL 0 (kube-scheduler " + framework.KubernetesVersion + " default, from the server version: assumed pods never expire; v1.36 removed expiry)"
		wantFile := "note: TTL 0 (latest kube-scheduler default, no --kube-version: assumed pods never expire; v1.36 removed expiry)"
		if a, b := ttlNote(fromLive.stderr), ttlNote(fromFile.stderr); a != wantLive || b != wantFile {
			t.Errorf("TTL notes:\nlive: %s\nwant: %s\nfile: %s\nwant: %s", a, wantLive, b, wantFile)
		}
	})
}

// exportWithKubectl writes `kubectl get KINDS -A -o yaml` (-o json for a
// path ending in .json) to path.
func exportWithKubectl(ctx context.Context, t *testing.T, kubeconfig, path, kinds string) {
	t.Helper()
	format := "yaml"
	if strings.HasSuffix(path, ".json") {
		format = "json"
	}
	kubectl := realKubectl(t)
	cmd := exec.CommandContext(ctx, kubectl, "--kubeconfig", kubeconfig, "get", kinds, "-A", "-o", format)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s get nodes,pods -A -o yaml: %v\n%s", kubectl, err, stderr.String())
	}
	if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeArtifact keeps the output of a failed comparison in the directory
// named by SCHEDCACHE_E2E_ARTIFACTS, if set, for a full diff.
func writeArtifact(t *testing.T, name, content string) {
	t.Helper()
	dir := os.Getenv("SCHEDCACHE_E2E_ARTIFACTS")
	if dir == "" {
		return
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err == nil {
		t.Logf("wrote %s", p)
	}
}

// fitLine returns the "pod … fits N of M nodes" line of stderr, or "".
func fitLine(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "pod ") && strings.Contains(line, " fits ") {
			return line
		}
	}
	return ""
}

// ttlNote returns simulate's "note: TTL …" line of stderr, or "".
func ttlNote(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "note: TTL ") {
			return line
		}
	}
	return ""
}
