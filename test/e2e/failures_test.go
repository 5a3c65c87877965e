//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// unreachableBound is a generous bound on how long a run against a dead or
// silent server may take with --request-timeout=2s.
const unreachableBound = 10 * time.Second

// TestPermissionsAndFailures checks the plugin's error paths against a real
// apiserver: RBAC, authentication, unreachable servers and usage errors.
func TestPermissionsAndFailures(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	node := framework.NewNode("node-1", framework.Resources("cpu", "2", "memory", "4Gi", "pods", "10"))
	pod := framework.NewPod("default", "web", "node-1", framework.Resources("cpu", "250m", "memory", "128Mi"))
	if err := framework.LoadObjects(ctx, c.AdminClient(), []*corev1.Node{node}, []*corev1.Pod{pod}, 1); err != nil {
		t.Fatal(err)
	}
	reader := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)

	t.Run("reader-works", func(t *testing.T) {
		d := decodeKind[v1alpha1.CacheDump](t, "CacheDump", mustRun(t, "dump", reader, "-o", "json"))
		if d.Summary.Nodes != 1 || d.Summary.Pods != 1 || d.Nodes[0].Requested.MilliCPU != 250 {
			t.Errorf("reader dump: summary %+v, nodes %+v", d.Summary, d.Nodes)
		}
	})

	t.Run("nopods-forbidden", func(t *testing.T) {
		for _, args := range [][]string{{"dump"}, {"requested", "-o", "json"}, {"snapshot"}} {
			r := runPlugin(t, nil, append(args, "--kubeconfig="+c.Kubeconfig(framework.UserNoPods))...)
			if r.code != 1 || r.stdout != "" {
				t.Errorf("want exit 1 and no output\n%v\nstdout: %s", r, r.stdout)
			}
			t.Logf("%s as nopods: exit %d, stderr:\n%s", args[0], r.code, r.stderr)
			first, rest, _ := strings.Cut(r.stderr, "\n")
			// One error line naming verb, resource and user, then the RBAC
			// rule that would allow the request.
			for _, w := range []string{"error: ", "cannot list pods", "forbidden", `"nopods"`} {
				if !strings.Contains(first, w) {
					t.Errorf("first stderr line %q lacks %q", first, w)
				}
			}
			for _, w := range []string{"kind: ClusterRole", `apiGroups: [""]`, `resources: ["nodes", "pods"]`, `verbs: ["get", "list", "watch"]`} {
				if !strings.Contains(rest, w) {
					t.Errorf("stderr lacks the RBAC rule line %q:\n%s", w, r.stderr)
				}
			}
		}
	})

	t.Run("bad-token", func(t *testing.T) {
		r := runPlugin(t, nil, "dump", reader, "--token", "wrong")
		t.Logf("exit %d, stderr: %s", r.code, r.stderr)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "error: ") || !strings.Contains(r.stderr, "Unauthorized") {
			t.Errorf("--token wrong: want exit 1 and an Unauthorized error\n%v", r)
		}
		if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("Unauthorized error should be one line:\n%s", r.stderr)
		}
	})

	t.Run("closed-port", func(t *testing.T) {
		// A port that was free a moment ago: connection refused at once.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		server := "https://" + l.Addr().String()
		l.Close()
		r := runPlugin(t, nil, "dump", reader, "--server", server, "--request-timeout=2s")
		checkUnreachable(t, r, server)
	})

	t.Run("silent-server", func(t *testing.T) {
		// Accepts connections and never answers: only the timeout ends it.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			var conns []net.Conn
			defer func() {
				for _, c := range conns {
					c.Close()
				}
			}()
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				conns = append(conns, c)
			}
		}()
		server := "https://" + l.Addr().String()
		r := runPlugin(t, nil, "requested", reader, "--server", server, "--request-timeout=2s")
		checkUnreachable(t, r, server)
		if r.elapsed < 2*time.Second {
			t.Errorf("gave up after %v, before the 2 s request timeout", r.elapsed)
		}
	})

	t.Run("usage-errors", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"dump", "--no-such-flag"}, "unknown flag: --no-such-flag"},
			{[]string{"dump", "-o", "bogus"}, `unknown output format "bogus"`},
			{[]string{"requested", "-o", "bogus"}, `unknown output format "bogus"`},
			{[]string{"next-nodes", "--count", "-1"}, "--count must not be negative"},
			{[]string{"requested", "--sort-by", "colour"}, "--sort-by"},
			{[]string{"requested", "--pod", "a/b", "--pod-file", "p.yaml"}, "--pod and --pod-file"},
			{[]string{"dump", "--chunk-size", "0"}, "--chunk-size"},
			{[]string{"dump", "extra-arg"}, "extra-arg"},
			{[]string{"no-such-command"}, "no-such-command"},
		} {
			// The reader kubeconfig is given to the data commands, but none
			// of these but --sort-by may get as far as a request: the
			// columns depend on the data (a resource column exists where
			// some node has the resource), so they are checked once it is
			// read.
			args := tc.args
			if args[0] != "no-such-command" {
				args = append(args, reader)
			}
			r := runPlugin(t, nil, args...)
			if r.code != 2 || !strings.HasPrefix(r.stderr, "error: ") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("want exit 2 and an error mentioning %q\n%v", tc.want, r)
			}
		}
	})
}

func checkUnreachable(t *testing.T, r runResult, server string) {
	t.Helper()
	t.Logf("exit %d after %v, stderr: %s", r.code, r.elapsed.Round(time.Millisecond), r.stderr)
	if r.code != 4 {
		t.Errorf("want exit 4 (cannot reach the cluster)\n%v", r)
	}
	if want := "error: cannot reach the API server at " + server; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr should start with %q\n%v", want, r)
	}
	if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("unreachable error should be one line:\n%s", r.stderr)
	}
	if r.elapsed > unreachableBound {
		t.Errorf("took %v with --request-timeout=2s, want < %v", r.elapsed, unreachableBound)
	}
}

// TestPaginationChunkSize lists 1,250 pods in pages of 100 as the reader
// and checks that every object arrives exactly once and that the apiserver
// really served pages (audit log: limit=100, continue=).
func TestPaginationChunkSize(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{AuditLog: true})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()

	const (
		numNodes    = 6
		perNode     = 200 // 1,200 bound pods
		numPending  = 30
		numTerminal = 20
	)
	var nodes []*corev1.Node
	for i := range numNodes {
		nodes = append(nodes, framework.NewNode(fmt.Sprintf("node-%d", i), framework.Resources("cpu", "32", "memory", "64Gi", "pods", "250")))
	}
	var pods []*corev1.Pod
	req := framework.Resources("cpu", "10m", "memory", "16Mi")
	for i := range numNodes * perNode {
		ns := fmt.Sprintf("ns-%d", i%3)
		pods = append(pods, framework.NewPod(ns, fmt.Sprintf("pod-%04d", i), fmt.Sprintf("node-%d", i%numNodes), req))
	}
	for i := range numPending {
		pods = append(pods, framework.NewPod("ns-0", fmt.Sprintf("pending-%02d", i), "", req))
	}
	for i := range numTerminal {
		p := framework.NewPod("ns-1", fmt.Sprintf("done-%02d", i), "node-0", req)
		p.Status.Phase = corev1.PodSucceeded
		pods = append(pods, p)
	}
	began := time.Now()
	if err := framework.LoadObjects(ctx, c.AdminClient(), nodes, pods, 8); err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d nodes and %d pods in %v", len(nodes), len(pods), time.Since(began).Round(time.Millisecond))

	live := mustRun(t, "dump", "--kubeconfig="+c.Kubeconfig(framework.UserReader), "--chunk-size", "100", "-o", "json")
	d := decodeKind[v1alpha1.CacheDump](t, "CacheDump", live)
	wantSummary := v1alpha1.DumpSummary{Nodes: numNodes, Pods: numNodes * perNode, PendingPods: numPending}
	if d.Summary != wantSummary {
		t.Errorf("summary %+v, want %+v", d.Summary, wantSummary)
	}
	seen := map[string]bool{}
	for _, n := range d.Nodes {
		// 200 pods × 10m = 2000m; 200 × 16Mi = 3200Mi = 3355443200 bytes
		if len(n.Pods) != perNode || n.Requested.MilliCPU != 2000 || n.Requested.Memory != 3355443200 {
			t.Errorf("%s: %d pods, requested %+v; want 200 pods, 2000m, 3355443200", n.Name, len(n.Pods), n.Requested)
		}
		for _, p := range n.Pods {
			key := p.Namespace + "/" + p.Name
			if seen[key] {
				t.Errorf("pod %s listed twice", key)
			}
			seen[key] = true
		}
	}

	// Paging must not change the order objects are fed to the cache (which
	// shows in the generations): the same JSON as from a kubectl export,
	// apart from the top-level source.
	export := filepath.Join(t.TempDir(), "cluster.yaml")
	exportWithKubectl(ctx, t, c.Kubeconfig(framework.UserAdmin), export, "nodes,pods")
	if a, b := blankSource(t, live), blankSource(t, mustRun(t, "dump", "-f", export, "-o", "json")); a != b {
		t.Errorf("paged live dump and file dump differ; %s", firstDiff(a, b))
	}

	// 1,230 non-terminal pods in pages of at most 100 take at least 13
	// requests, every one after the first carrying a continue token. The
	// events are logged as the responses complete, so poll for them.
	const minPages = (numNodes*perNode + numPending + 99) / 100
	var withLimit, withContinue, nodeLists int
	var events []framework.AuditEvent
	waitUntil(ctx, t, "the reader's paged pod lists in the audit log", func() (bool, string) {
		var err error
		events, err = framework.ReadAuditLog(c.AuditLogPath)
		if err != nil {
			t.Fatal(err)
		}
		withLimit, withContinue, nodeLists = 0, 0, 0
		for _, e := range events {
			if e.User.Username != framework.UserReader || e.Verb != "list" || e.ObjectRef == nil {
				continue
			}
			if !strings.Contains(e.RequestURI, "limit=100") {
				continue
			}
			switch e.ObjectRef.Resource {
			case "pods":
				withLimit++
				if strings.Contains(e.RequestURI, "continue=") {
					withContinue++
				}
			case "nodes":
				nodeLists++
			}
		}
		return withLimit >= minPages && withContinue >= minPages-1 && nodeLists >= 1,
			fmt.Sprintf("%d pod lists with limit=100 (%d with continue=), %d node lists; want ≥ %d, ≥ %d, ≥ 1\n%s",
				withLimit, withContinue, nodeLists, minPages, minPages-1, framework.SummarizeAudit(events))
	})
	t.Logf("reader listed pods in %d pages of ≤ 100 (%d with a continue token)", withLimit, withContinue)
	for _, e := range events {
		if e.User.Username == framework.UserReader && e.ObjectRef != nil && e.ObjectRef.Resource == "pods" &&
			strings.Contains(e.RequestURI, "limit=100") && !strings.Contains(e.RequestURI, "fieldSelector=status.phase") {
			t.Errorf("pod list without the scheduler's field selector: %s", e.RequestURI)
		}
	}
}
