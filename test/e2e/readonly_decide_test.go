//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// bigConfig is a KubeSchedulerConfiguration with a second profile.
const bigConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packing
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`

// TestDecisionsReadOnlyProvenByAudit runs the decisions — why (with
// --config, with a preemption, with --pod-file replicas), requested --pod
// and simulate — as a user with docs/rbac.md's full read role, and proves
// from the audit log that they only read, and that the victims preemption
// names are still there.
//
// The preemptor (7 cpu, priority 100) fits no node: only node-06 has 8
// cpu, with 1250m requested; evicting team-b/legacy (1 cpu, priority 0)
// frees enough, and team-b/other-scheduler (250m) can stay.
func TestDecisionsReadOnlyProvenByAudit(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := startRichCluster(t, framework.Options{AuditLog: true})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	preemptor := framework.NewPod(nsA, "preemptor", "", framework.Resources("cpu", "7", "memory", "1Gi"))
	preemptor.Spec.PriorityClassName = priorityHigh
	if _, err := c.CreatePod(ctx, preemptor); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	deploy := filepath.Join(dir, "deploy.yaml")
	writeFile(t, cfg, bigConfig)
	writeFile(t, deploy, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: team-a}\nspec:\n  replicas: 3\n"+
		"  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"+
		"    spec: {containers: [{name: web, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: 100m}}}]}\n")
	kc := "--kubeconfig=" + c.Kubeconfig(framework.UserDecider)

	r := runPlugin(t, nil, "why", "-n", nsA, "preemptor", "-o", "json", kc)
	if r.code != 1 {
		t.Fatalf("why preemptor: want exit 1\n%v", r)
	}
	rep := decodeKind[v1alpha1.SchedulingReport](t, "SchedulingReport", r.stdout)
	if p := rep.Pods[0].Preemption; p == nil || p.NominatedNode != "node-06" || !slices.Equal(p.Victims, []string{nsB + "/legacy"}) {
		t.Fatalf("why preemptor: preemption %+v, want node-06 evicting team-b/legacy", p)
	}
	runs := []struct {
		args []string
		code int
	}{
		{[]string{"why", "-A"}, 1}, // pending-huge and the preemptor stay pending
		{[]string{"why", "-A", "--config", cfg, "-o", "json"}, 1},
		{[]string{"why", "--pod-file", deploy}, 0},
		{[]string{"requested", "--pod", nsA + "/preemptor"}, 1},
		{[]string{"simulate", "--pending", "-A"}, 1}, // a pod stays Unschedulable
	}
	for _, run := range runs {
		if r := runPlugin(t, nil, append(run.args, kc)...); r.code != run.code {
			t.Errorf("want exit %d\n%v", run.code, r)
		}
	}

	events := auditEventsOf(ctx, t, c, framework.UserDecider, len(runs)+1)
	var bad []string
	for _, e := range events {
		if writeVerbs[e.Verb] || !readOnlyRequest(e) {
			bad = append(bad, e.String())
		}
	}
	if len(bad) > 0 {
		t.Errorf("the decisions made %d requests that are not reads:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
	if p, err := c.AdminClient().CoreV1().Pods(nsB).Get(ctx, "legacy", metav1.GetOptions{}); err != nil || p.DeletionTimestamp != nil {
		t.Errorf("the preemption victim team-b/legacy must be untouched: %v %+v", err, p)
	}
	t.Logf("%d requests by %q, all reads:\n%s", len(events), framework.UserDecider, framework.SummarizeAudit(events))
}

// auditEventsOf returns user's audit events once the plugin's lists of
// nodes (one per run) and a marker request made after them are logged.
func auditEventsOf(ctx context.Context, t *testing.T, c *framework.Cluster, user string, runs int) []framework.AuditEvent {
	t.Helper()
	marker := "audit-marker-" + rand.String(8)
	if _, err := c.Client(user).CoreV1().Nodes().Get(ctx, marker, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("marker get: %v, want NotFound", err)
	}
	var mine []framework.AuditEvent
	waitUntil(ctx, t, "the plugin's requests and the marker in the audit log", func() (bool, string) {
		events, err := framework.ReadAuditLog(c.AuditLogPath)
		if err != nil {
			t.Fatal(err)
		}
		mine = mine[:0]
		var markerSeen bool
		var nodeLists int
		for _, e := range events {
			if e.User.Username != user {
				continue
			}
			mine = append(mine, e)
			if e.ObjectRef != nil {
				markerSeen = markerSeen || e.ObjectRef.Name == marker
				if strings.Contains(e.UserAgent, "kubectl-schedcache") && e.Verb == "list" && e.ObjectRef.Resource == "nodes" {
					nodeLists++
				}
			}
		}
		return markerSeen && nodeLists >= runs, fmt.Sprintf("marker seen %v, node lists %d, want %d", markerSeen, nodeLists, runs)
	})
	return mine
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
