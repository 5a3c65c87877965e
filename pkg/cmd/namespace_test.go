package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// edgeCluster: plain holds default's 4 pods, legacy apps' 2 (sidecar, gpu),
// the placeholder gone default's orphan; apps/waiting is pending
// (testdata/clusters/edge.yaml states it in its header).
const edgeCluster = "testdata/clusters/edge.yaml"

// withKubeconfig points KUBECONFIG at a kubeconfig whose current context
// (ctx-a, cluster c-a, user u-a; also ctx-b, c-b, u-b) has namespace ns.
func withKubeconfig(t *testing.T, ns string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config")
	kubeconfig := `apiVersion: v1
kind: Config
clusters: [{name: c-a, cluster: {server: "https://127.0.0.1:1"}}, {name: c-b, cluster: {server: "https://127.0.0.1:2"}}]
users: [{name: u-a, user: {}}, {name: u-b, user: {}}]
contexts: [{name: ctx-a, context: {cluster: c-a, user: u-a, namespace: "` + ns + `"}}, {name: ctx-b, context: {cluster: c-b, user: u-b}}]
current-context: ctx-a
`
	if err := os.WriteFile(path, []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)
}

// TestNamespaceDump: -n lists one namespace's pods in the detail blocks
// and in json, and never changes a node's totals or the summary.
func TestNamespaceDump(t *testing.T) {
	noKubeconfig(t)
	all := run(t, "", "dump", "-f", edgeCluster, "--node", "legacy", "--node", "plain")
	apps := run(t, "", "dump", "-f", edgeCluster, "--node", "legacy", "--node", "plain", "-n", "apps")
	if apps.code != 0 {
		t.Fatalf("exit %d: %s", apps.code, apps.stderr)
	}
	for _, want := range []string{"Pods in namespace apps (2 of 2):", "Pods in namespace apps (0 of 4):"} {
		if !strings.Contains(apps.stdout, want) {
			t.Errorf("-n apps: no %q in\n%s", want, apps.stdout)
		}
	}
	if strings.Contains(apps.stdout, "no-requests") || !strings.Contains(apps.stdout, "sidecar") {
		t.Errorf("-n apps lists the wrong pods:\n%s", apps.stdout)
	}
	// legacy's requested line: 1450m, the same with and without -n.
	requested := func(out string) []string {
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "Requested:") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	if a, b := requested(all.stdout), requested(apps.stdout); len(a) != 2 || strings.Join(a, "|") != strings.Join(b, "|") || !strings.Contains(a[0], "cpu 1450m") {
		t.Errorf("totals depend on -n:\n%q\n%q", a, b)
	}
	// The node table is the same with -n: every pod counts.
	table := run(t, "", "dump", "-f", edgeCluster)
	if tn := run(t, "", "dump", "-f", edgeCluster, "-n", "apps"); tn.stdout != table.stdout || tn.stderr != table.stderr {
		t.Errorf("dump table differs with -n apps:\n%s\n%s", table.stdout, tn.stdout)
	}

	var d v1alpha1.CacheDump
	r := run(t, "", "dump", "-f", edgeCluster, "-n", "apps", "-o", "json")
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	pods := map[string]int{}
	for _, n := range d.Nodes {
		pods[n.Name] = len(n.Pods)
		for _, p := range n.Pods {
			if p.Namespace != "apps" {
				t.Errorf("-n apps -o json lists %s/%s", p.Namespace, p.Name)
			}
		}
	}
	if pods["legacy"] != 2 || pods["plain"] != 0 || pods["gone"] != 0 || d.Summary.Pods != 7 || d.Summary.PendingPods != 1 {
		t.Errorf("-n apps -o json: pods per node %v, summary %+v; want legacy 2, others 0, summary 7 pods 1 pending", pods, d.Summary)
	}
}

// TestNoResourcesFound: a namespace with no pod, or a selector matching no
// node, is said on stderr as kubectl says it; exit 0.
func TestNoResourcesFound(t *testing.T) {
	noKubeconfig(t)
	// dump: the line alone as a table (as kubectl get pods), the nodes
	// without pods alone as JSON (as kubectl get -o json's empty list).
	if r := run(t, "", "dump", "-f", edgeCluster, "-n", "nosuch"); r.code != 0 || r.stdout != "" ||
		!strings.HasSuffix(r.stderr, "\nNo resources found in nosuch namespace.\n") {
		t.Errorf("dump -n nosuch: exit %d, stdout %q, stderr %q; want only the line", r.code, r.stdout, r.stderr)
	}
	if r := run(t, "", "dump", "-f", edgeCluster, "-n", "nosuch", "-o", "json"); r.code != 0 || !strings.Contains(r.stdout, `"kind": "CacheDump"`) ||
		strings.Contains(r.stderr, "No resources") {
		t.Errorf("dump -n nosuch -o json: exit %d, stderr %q; want only the data", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"requested", "-f", edgeCluster, "-n", "nosuch"},
		{"snapshot", "-f", edgeCluster, "-n", "nosuch"},
	} {
		r := run(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stderr, "No resources found in nosuch namespace.\n") || r.stdout == "" {
			t.Errorf("%v: exit %d, stderr %q; want the nodes on stdout and the line on stderr", args, r.code, r.stderr)
		}
	}
	r := run(t, "", "requested", "-f", edgeCluster, "-l", "nosuch=x")
	if r.code != 0 || r.stdout != "" || !strings.HasSuffix(r.stderr, "\nNo resources found\n") {
		t.Errorf("requested -l nosuch=x: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := run(t, "", "requested", "-f", edgeCluster, "-n", "apps"); strings.Contains(r.stderr, "No resources") {
		t.Errorf("-n apps has pods: %q", r.stderr)
	}
}

// TestNamespaceFlags: -n/-A on every command showing pods, their conflict,
// the namespace of a pod named alone, and next-nodes' --count.
func TestNamespaceFlags(t *testing.T) {
	withKubeconfig(t, "apps")
	for _, args := range [][]string{
		{"dump", "-f", edgeCluster, "-n", "apps", "-A"},
		{"requested", "-f", edgeCluster, "-n", "apps", "-A"},
		{"snapshot", "-f", edgeCluster, "-n", "apps", "-A"},
		{"why", "-f", edgeCluster, "-n", "apps", "-A"},
	} {
		r := run(t, "", args...)
		if r.code != ExitUsage || r.stderr != "error: -n/--namespace apps and -A/--all-namespaces cannot be used together: choose one namespace or all\n" {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"dump", "-f", edgeCluster, "-A"},
		{"requested", "-f", edgeCluster, "-A"},
		{"snapshot", "-f", edgeCluster, "-A"},
	} {
		if r := run(t, "", args...); r.code != 0 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	// --pod NAME: the kubeconfig context's namespace (apps), else -n.
	// (apps/waiting asks for 3 cpus: it fits no node, exit 1.)
	if r := run(t, "", "requested", "-f", edgeCluster, "--pod", "waiting"); r.code != ExitError || !strings.Contains(r.stderr, "pod apps/waiting (requests cpu 3, memory 1Gi) passes kube-scheduler's filters on 0 of 2 nodes") {
		t.Errorf("--pod waiting in the context's namespace apps: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, "", "requested", "-f", edgeCluster, "--pod", "waiting", "-n", "default"); r.code != ExitUsage || !strings.Contains(r.stderr, "pod default/waiting not found") {
		t.Errorf("--pod waiting -n default: exit %d, %q", r.code, r.stderr)
	}
	noKubeconfig(t)
	if r := run(t, "", "requested", "-f", edgeCluster, "--pod", "waiting"); r.code != ExitUsage || !strings.Contains(r.stderr, "pod default/waiting not found") {
		t.Errorf("--pod waiting without kubeconfig (default namespace): exit %d, %q", r.code, r.stderr)
	}
	// next-nodes shows no pods: -n is accepted and ignored, as kubectl get
	// nodes -n x does; a number says that the count is --count.
	all := run(t, "", "next-nodes", "-f", edgeCluster)
	saved := filepath.Join(t.TempDir(), "dump.json")
	if err := os.WriteFile(saved, []byte(run(t, "", "dump", "-f", edgeCluster, "-o", "json").stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"next-nodes"}, {"diff", saved}, {"drain", "legacy"}} {
		plain := run(t, "", append(cmd, "-f", edgeCluster)...)
		for _, flag := range [][]string{{"-n", "apps"}, {"-A"}} {
			withNS := run(t, "", append(append(cmd, "-f", edgeCluster), flag...)...)
			if withNS.code == ExitUsage || withNS.code != plain.code || withNS.stdout != plain.stdout {
				t.Errorf("%v %v: exit %d\n%s%s\nwant as without it: exit %d\n%s", cmd, flag, withNS.code, withNS.stdout, withNS.stderr, plain.code, plain.stdout)
			}
		}
	}
	if r := run(t, "", "next-nodes", "-f", edgeCluster, "-n", "3"); r.code != 0 || r.stdout != all.stdout || !strings.Contains(r.stderr, "--count 3 sets the number") {
		t.Errorf("next-nodes -n 3: exit %d, %q", r.code, r.stderr)
	}
	if r := run(t, "", "next-nodes", "-f", edgeCluster, "--count", "3", "--no-headers"); r.code != 0 || strings.Count(r.stdout, "\n") != 3 {
		t.Errorf("next-nodes --count 3: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestSuggestions: cobra's "did you mean" for commands, and the same for
// flags, on one line; usage errors exit 2, cobra's completion command's too.
func TestSuggestions(t *testing.T) {
	noKubeconfig(t)
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"dumpp"}, `error: unknown command "dumpp" for "kubectl schedcache" (did you mean "dump"?); see 'kubectl schedcache --help'` + "\n"},
		{[]string{"snapshto"}, `(did you mean "snapshot"?)`},
		{[]string{"dumpp", "-f", edgeCluster}, `unknown command "dumpp" for "kubectl schedcache" (did you mean "dump"?)`},
		{[]string{"dump", "--nodee", "x"}, `error: unknown flag: --nodee (did you mean "--node"?)` + "\n"},
		{[]string{"requested", "--sort", "cpu"}, `(did you mean "--sort-by"?)`},
		{[]string{"dump", "--zzzzzz"}, "error: unknown flag: --zzzzzz\n"},
		{[]string{"completion", "tcsh"}, `unknown command "tcsh"`},
		{[]string{"help", "dumpp"}, `error: unknown help topic "dumpp" (did you mean "dump"?); see 'kubectl schedcache --help'` + "\n"},
		{[]string{"version", "extra"}, `unexpected argument "extra"`},
	}
	for _, tc := range tests {
		r := run(t, "", tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.stderr) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.stderr)
		}
	}
}

// TestHelpExitCodes: the exit-code table is in --help, one line per code;
// "help dump" is dump's help.
func TestHelpExitCodes(t *testing.T) {
	if r := run(t, "", "help", "dump"); r.code != 0 || !strings.HasPrefix(r.stdout, "Print what kube-scheduler's cache holds") {
		t.Errorf("help dump: exit %d\n%s", r.code, r.stdout)
	}
	r := run(t, "", "--help")
	for _, want := range []string{"Exit codes:\n  0    success", "\n  1    runtime error", "\n  2    usage error", "\n  3    compare, diff", "\n  130  interrupted"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--help lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestNoPodsSelected: every command that lists pods says what kubectl get
// says when a namespace or selector matches none: "No resources found in
// NS namespace." (all namespaces: "No resources found") on stderr, nothing
// on stdout, exit 0. why and simulate --pending then count the matching
// pending pods of other namespaces and suggest -A (issue 37, 4g): in
// testdata/simulate/cluster.yaml, 4 in apps and 1 in other (5 in 2
// namespaces); in fixtures/pending.yaml, 3 in apps (one of them gated, still
// Pending).
func TestNoPodsSelected(t *testing.T) {
	noKubeconfig(t)
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"why", "-f", simCluster, "-n", "empty"}, "No resources found in empty namespace.\nhint: 5 pods are Pending in 2 other namespaces (apps, other): -A shows them\n"},
		{[]string{"why", "-f", fixture("pending")}, "No resources found in default namespace.\nhint: 3 pods are Pending in namespace apps: -n apps or -A shows them\n"},
		{[]string{"why", "-f", simCluster, "-n", "other", "-l", "app=web"}, "No resources found in other namespace.\nhint: 2 pods are Pending in namespace apps: -n apps or -A shows them\n"},
		{[]string{"why", "-f", fixture("placeholder"), "-A"}, "No resources found\n"},
		{[]string{"simulate", "-f", simCluster, "--pending", "-n", "empty"}, "No resources found in empty namespace.\nhint: 5 pods are Pending in 2 other namespaces (apps, other): -A shows them\n"},
		{[]string{"simulate", "-f", simCluster, "--pending", "-n", "apps", "-l", "app=nope"}, "No resources found in apps namespace.\n"},
		{[]string{"simulate", "-f", simCluster, "--pending", "-A", "-l", "app=nope"}, "No resources found\n"},
	} {
		r := run(t, "", tc.args...)
		if r.code != 0 || r.stdout != "" || r.stderr != tc.stderr {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0, no stdout, stderr %q", tc.args, r.code, r.stdout, r.stderr, tc.stderr)
		}
	}
}
