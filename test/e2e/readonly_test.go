//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// writeVerbs are the audit verbs that change state.
var writeVerbs = map[string]bool{"create": true, "update": true, "patch": true, "delete": true, "deletecollection": true}

// TestReadOnlyProvenByAudit runs every command as the reader user against
// the rich cluster with the audit log on, and proves from the log that the
// plugin only ever reads nodes and pods (plus discovery).
func TestReadOnlyProvenByAudit(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := startRichCluster(t, framework.Options{AuditLog: true})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	kc := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)
	script := writeSimScript(t)

	runs := []struct {
		args []string
		code int
	}{
		{args: []string{"dump"}},
		{args: []string{"dump", "--node", "node-01", "--node", missingNode}},
		{args: []string{"dump", "-o", "wide"}},
		{args: []string{"dump", "-o", "yaml"}},
		{args: []string{"requested"}},
		{args: []string{"requested", "-o", "wide", "--sort-by", "cpu%"}},
		{args: []string{"requested", "--pod", nsA + "/pending-1"}},
		{args: []string{"requested", "--pod", nsA + "/pending-huge"}, code: 1},
		{args: []string{"next-nodes"}},
		{args: []string{"next-nodes", "--cycles", "3", "-o", "json"}},
		{args: []string{"snapshot"}},
		{args: []string{"snapshot", "-o", "jsonpath={.nodes[*].name}"}},
		// Every data command without --kube-version asks the server's
		// version (GET /version): the kube-scheduler version it models.
		// pending-huge stays Unschedulable: simulate --pending exits 1.
		{args: []string{"simulate", "--pending", "-A"}, code: 1},
		{args: []string{"simulate", "--pending", "-A", "--bind", "lost", "-o", "json"}, code: 1},
		{args: []string{"simulate", "--pending", "-A", "--bind", "lost", "--ttl", "30s", "-o", "json"}, code: 1},
		{args: []string{"simulate", "--pending", "-n", nsA, "--bind", "fail", "--kube-version", "v1.19", "-o", "yaml"}, code: 1},
		{args: []string{"simulate", "--script", script}},
		{args: []string{"simulate", "--script", script, "--ttl", "30s", "-o", "wide"}},
	}
	// The runs above without --kube-version.
	versionLookups := 0
	for _, run := range runs {
		if !slices.Contains(run.args, "--kube-version") {
			versionLookups++
		}
	}
	for _, run := range runs {
		r := runPlugin(t, nil, append(run.args, kc)...)
		if r.code != run.code {
			t.Errorf("want exit %d\n%v", run.code, r)
		}
	}
	if r := runPlugin(t, nil, "version"); r.code != 0 {
		t.Errorf("%v", r)
	}

	// A marker request made after every run: once its event is in the log,
	// so are the plugin's (the runs' requests completed before it was sent).
	// The count check below guards the rest.
	marker := "audit-marker-" + rand.String(8)
	if _, err := c.Client(framework.UserReader).CoreV1().Nodes().Get(ctx, marker, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("marker get: %v, want NotFound", err)
	}
	var events []framework.AuditEvent
	waitUntil(ctx, t, "the plugin's requests and the marker in the audit log", func() (bool, string) {
		var err error
		events, err = framework.ReadAuditLog(c.AuditLogPath)
		if err != nil {
			t.Fatal(err)
		}
		var markerSeen bool
		var nodeLists, podLists int
		for _, e := range events {
			if e.User.Username != framework.UserReader || e.ObjectRef == nil {
				continue
			}
			markerSeen = markerSeen || e.ObjectRef.Name == marker
			if strings.Contains(e.UserAgent, "kubectl-schedcache") && e.Verb == "list" {
				switch e.ObjectRef.Resource {
				case "nodes":
					nodeLists++
				case "pods":
					podLists++
				}
			}
		}
		// Every data command lists nodes and pods once.
		return markerSeen && nodeLists >= len(runs) && podLists >= len(runs),
			fmt.Sprintf("marker seen %v, plugin node lists %d, pod lists %d, want %d each\n%s",
				markerSeen, nodeLists, podLists, len(runs), framework.SummarizeAudit(events))
	})

	// The discovery path was exercised, and audited: the plugin asked the
	// server's version once per run without --kube-version, never for the others.
	var versionGets int
	for _, e := range events {
		if e.User.Username == framework.UserReader && strings.Contains(e.UserAgent, "kubectl-schedcache") &&
			e.ObjectRef == nil && e.Verb == "get" && strings.HasPrefix(e.RequestURI, "/version") && e.Stage == "ResponseComplete" {
			versionGets++
		}
	}
	if versionGets != versionLookups {
		t.Errorf("the plugin asked GET /version %d times, want %d (the runs without --kube-version)", versionGets, versionLookups)
	}

	var readerEvents []framework.AuditEvent
	var bad []string
	for _, e := range events {
		if e.User.Username != framework.UserReader {
			continue
		}
		readerEvents = append(readerEvents, e)
		if writeVerbs[e.Verb] {
			bad = append(bad, "write: "+e.String())
			continue
		}
		if !readOnlyRequest(e) {
			bad = append(bad, "not a read of nodes, pods or the scheduling kinds, nor discovery: "+e.String())
		}
	}
	if len(bad) > 0 {
		t.Errorf("the reader made %d requests outside get/list/watch on nodes, pods and the scheduling kinds:\n  %s\nall requests by user (verb resource):\n%s",
			len(bad), strings.Join(bad, "\n  "), framework.SummarizeAudit(readerEvents))
	}
	t.Logf("%d requests by %q, all reads:\n%s", len(readerEvents), framework.UserReader, framework.SummarizeAudit(readerEvents))
}

// readOnlyRequest reports whether e is get/list/watch on core nodes or pods
// or on the kinds of load.SchedulingKinds (no subresource), or a
// non-resource GET of discovery or version.
func readOnlyRequest(e framework.AuditEvent) bool {
	switch e.Verb {
	case "get", "list", "watch":
	default:
		return false
	}
	if e.ObjectRef == nil {
		path, _, _ := strings.Cut(e.RequestURI, "?")
		return path == "/api" || strings.HasPrefix(path, "/api/") || path == "/apis" || strings.HasPrefix(path, "/apis/") ||
			path == "/version" || strings.HasPrefix(path, "/openapi/")
	}
	r := e.ObjectRef
	if r.Subresource != "" {
		return false
	}
	if r.APIGroup == "" && (r.Resource == "nodes" || r.Resource == "pods") {
		return true
	}
	// The kinds the decisions read (why, requested --pod): docs/rbac.md's
	// ClusterRole rules "needed by why only".
	for _, k := range load.SchedulingKinds {
		if k.GVR.Group == r.APIGroup && k.GVR.Resource == r.Resource {
			return true
		}
	}
	return false
}
