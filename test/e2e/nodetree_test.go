//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// treeRecord matches kube-scheduler v1.36.3's NodeTree records at -v=2
// (pkg/scheduler/backend/cache/node_tree.go), klog text format.
var treeRecord = regexp.MustCompile(`"(Added|Removed) node (?:to|from) NodeTree" node="([^"]+)" zone="([^"]*)"`)

// TestSchedulerLogNodeOrder runs the real kube-scheduler v1.36.3 twice
// (-v=2, one log appended to) over 14 nodes in 3 zones, adds and removes
// nodes after each start, and requires next-nodes --scheduler-log to
// print the order the log's records give (zones in first-added order,
// names appended to their zone, removed ones gone, round-robin over the
// zones), from the last start, live; and why to scan the nodes in it.
func TestSchedulerLogNodeOrder(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	created := strings.Fields("a-03 a-04 a-05 a-06 b-01 b-03 c-02 a-01 a-02 b-02 b-04 c-01 c-03 c-04")
	for _, name := range created {
		createZonedNode(ctx, t, c, name)
	}
	s := framework.StartScheduler(t, c, "--v=2")
	// Added after the start: appended to zone a, and a new zone d last.
	for _, name := range []string{"a-07", "d-01"} {
		createZonedNode(ctx, t, c, name)
	}
	waitForLog(ctx, t, s.LogPath, `node="d-01"`)
	first := checkLogOrder(t, c, s.LogPath, 16)
	// d-01's zone is the fourth, added last; a-07 comes last in zone a.
	if first[3] != "d-01" || lastOf(first, "a-") != "a-07" {
		t.Errorf("first start: %v: want d-01 fourth, a-07 last of zone a", first)
	}

	s.Stop(t)
	s = framework.StartScheduler(t, c, "--v=2")
	if err := cs.CoreV1().Nodes().Delete(ctx, "c-02", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	createZonedNode(ctx, t, c, "b-05")
	waitForLog(ctx, t, s.LogPath, `"Removed node from NodeTree" node="c-02"`)
	waitForLog(ctx, t, s.LogPath, `node="b-05"`)
	second := checkLogOrder(t, c, s.LogPath, 16)
	if lastOf(second, "b-") != "b-05" || strings.Contains(strings.Join(second, " "), "c-02") {
		t.Errorf("second start: %v: want b-05 last of zone b, c-02 gone", second)
	}
	t.Logf("first start's order:  %s\nsecond start's order: %s", strings.Join(first, " "), strings.Join(second, " "))

	// why scans the nodes in that order (all 16: fewer than 100).
	pod := filepath.Join(t.TempDir(), "pod.yaml")
	writeFile(t, pod, "apiVersion: v1\nkind: Pod\nmetadata: {name: probe, namespace: default}\nspec:\n  containers: [{name: a, image: a}]\n")
	r := runPlugin(t, nil, "why", "--pod-file", pod, "--scheduler-log", s.LogPath, "-o", "jsonpath={.pods[0].nodes[*].name}",
		"--kubeconfig="+c.Kubeconfig(framework.UserAdmin))
	if r.code != 0 || r.stdout != strings.Join(second, " ") {
		t.Errorf("why scanned %q, want the log's order %q\n%s", r.stdout, strings.Join(second, " "), r.stderr)
	}
}

// checkLogOrder replays the log's records since its last start by hand,
// requires next-nodes --scheduler-log (live) to print that order with
// nothing unnamed, and returns it.
func checkLogOrder(t *testing.T, c *framework.Cluster, logPath string, want int) []string {
	t.Helper()
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	text = text[strings.LastIndex(text, `"Starting Kubernetes Scheduler"`):]
	var zones []string
	tree := map[string][]string{}
	for _, m := range treeRecord.FindAllStringSubmatch(text, -1) {
		name, zone := m[2], m[3]
		if m[1] == "Added" {
			if _, ok := tree[zone]; !ok {
				zones = append(zones, zone)
			}
			tree[zone] = append(tree[zone], name)
			continue
		}
		for i, n := range tree[zone] {
			if n == name {
				tree[zone] = append(tree[zone][:i], tree[zone][i+1:]...)
			}
		}
	}
	var order []string
	for round := 0; len(order) < want; round++ {
		for _, z := range zones {
			if round < len(tree[z]) {
				order = append(order, tree[z][round])
			}
		}
		if round > want {
			t.Fatalf("the log's tree holds %d nodes, want %d: %v", len(order), want, tree)
		}
	}
	r := runPlugin(t, nil, "next-nodes", "--scheduler-log", logPath, "-o", "jsonpath={.order[*].node}",
		"--kubeconfig="+c.Kubeconfig(framework.UserAdmin))
	if r.code != 0 || r.stdout != strings.Join(order, " ") {
		t.Errorf("next-nodes --scheduler-log: %q, want %q\n%s", r.stdout, strings.Join(order, " "), r.stderr)
	}
	if strings.Contains(r.stderr, "does not name") || !strings.Contains(r.stderr, "kube-scheduler v1.36.3's NodeTree, replayed from") {
		t.Errorf("next-nodes --scheduler-log notes:\n%s", r.stderr)
	}
	return order
}

// lastOf is the last name of order with prefix.
func lastOf(order []string, prefix string) string {
	last := ""
	for _, n := range order {
		if strings.HasPrefix(n, prefix) {
			last = n
		}
	}
	return last
}

// createZonedNode creates node "Z-NN" in zone Z of region r.
func createZonedNode(ctx context.Context, t *testing.T, c *framework.Cluster, name string) {
	t.Helper()
	n := framework.NewNode(name, framework.Resources("cpu", "4", "memory", "8Gi", "pods", "110"))
	n.Labels[corev1.LabelTopologyRegion] = "r"
	n.Labels[corev1.LabelTopologyZone] = "zone-" + name[:1]
	if _, err := c.CreateNode(ctx, n); err != nil {
		t.Fatal(err)
	}
}

// waitForLog waits until the log holds s.
func waitForLog(ctx context.Context, t *testing.T, path, s string) {
	t.Helper()
	waitUntil(ctx, t, "the scheduler log to hold "+s, func() (bool, string) {
		data, err := os.ReadFile(path)
		return err == nil && strings.Contains(string(data), s), ""
	})
}
