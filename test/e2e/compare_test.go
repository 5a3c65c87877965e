//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// TestCompareWithRealScheduler makes the real kube-scheduler dump its cache
// (SIGUSR2) and runs "compare" on its log, read from the file the harness
// writes and through pods/log (served by a fake kubelet): they agree. Then
// the cluster changes while the newest dump stays the old one, and compare
// must name exactly the changed nodes and pods; after a new dump they agree
// again.
func TestCompareWithRealScheduler(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), agreementTimeout+testTimeout)
	defer cancel()
	cs := c.AdminClient()
	r := framework.Resources
	alloc := r("cpu", "4", "memory", "8Gi", "pods", "110")
	nodes := []*corev1.Node{framework.NewNode("c-1", alloc), framework.NewNode("c-2", alloc)}
	bound := []*corev1.Pod{
		framework.NewPod("cmp", "web-1", "c-1", r("cpu", "500m", "memory", "1Gi")),
		framework.NewPod("cmp", "web-2", "c-2", r("cpu", "250m")),
	}
	if err := framework.LoadObjects(ctx, cs, nodes, bound, 2); err != nil {
		t.Fatal(err)
	}
	kubelet := framework.StartFakeKubelet(ctx, t, c, "cp")
	schedPod := framework.NewPod("kube-system", "kube-scheduler-cp", "cp", r("cpu", "100m"))
	schedPod.Spec.Containers[0].Name = "kube-scheduler"
	if _, err := c.CreatePod(ctx, schedPod); err != nil {
		t.Fatal(err)
	}
	sched := framework.StartScheduler(t, c)
	kubelet.ServeLog("kube-system", "kube-scheduler-cp", "kube-scheduler", sched.LogPath)
	pending := framework.NewPod("cmp", "pending-1", "", r("cpu", "1"))
	if _, err := c.CreatePod(ctx, pending); err != nil {
		t.Fatal(err)
	}
	waitForBinding(ctx, t, cs, pending)
	kc := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)

	// 1. From the log file: poll dump and compare until the scheduler has
	// handled the binding's events.
	waitCtx, waitCancel := context.WithTimeout(ctx, agreementTimeout)
	defer waitCancel()
	var agreed *v1alpha1.CacheComparison
	waitUntil(waitCtx, t, "compare --log to agree", func() (bool, string) {
		if _, err := sched.DumpCache(waitCtx); err != nil {
			return false, err.Error()
		}
		res := runPlugin(t, nil, "compare", "--log", sched.LogPath, kc, "-o", "json")
		if res.code == 0 {
			agreed = decodeKind[v1alpha1.CacheComparison](t, "CacheComparison", res.stdout)
		}
		return res.code == 0, res.String() + res.stdout
	})
	if s := agreed.Summary; !agreed.Agree || s.SchedulerNodes != 3 || s.Nodes != 3 || s.SchedulerPods != 4 || s.Pods != 4 || agreed.Scheduler.Version != "v1.36.3" {
		t.Errorf("agreement: %+v", agreed)
	}

	// 2. Through pods/log: refused to the reader until granted.
	fromPod := []string{"compare", "--from-pod", "kube-system/kube-scheduler-cp", "--since", "10m", kc}
	res := runPlugin(t, nil, fromPod...)
	for _, want := range []string{"cannot get pods/log of pod kube-system/kube-scheduler-cp", `resources: ["pods/log"]`} {
		if res.code != 1 || !strings.Contains(res.stderr, want) {
			t.Errorf("--from-pod without permission: want exit 1 and %q\n%v", want, res)
		}
	}
	grantPodLogs(ctx, t, cs)
	waitUntil(waitCtx, t, "compare --from-pod to agree once pods/log is granted", func() (bool, string) {
		res = runPlugin(t, nil, fromPod...)
		return res.code == 0 && strings.Contains(res.stdout, "They agree."), res.String() + res.stdout
	})
	if !strings.Contains(res.stdout, "pod kube-system/kube-scheduler-cp lines") {
		t.Errorf("--from-pod output:\n%s", res.stdout)
	}
	if reqs := kubelet.Requests(); len(reqs) == 0 || !strings.Contains(reqs[len(reqs)-1], "sinceSeconds=600") {
		t.Errorf("the kubelet's log requests: %q", reqs)
	}

	// 3. The cluster changes after the dump: a pod bound to c-1, a pod
	// bound to a node nobody has seen, web-2 deleted, a node created.
	late, err := c.CreatePod(ctx, framework.NewPod("cmp", "late", "c-1", r("cpu", "300m")))
	if err != nil {
		t.Fatal(err)
	}
	orphan, err := c.CreatePod(ctx, framework.NewPod("cmp", "orphan", "c-gone", r("cpu", "100m")))
	if err != nil {
		t.Fatal(err)
	}
	if err := cs.CoreV1().Pods("cmp").Delete(ctx, "web-2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateNode(ctx, framework.NewNode("c-3", alloc)); err != nil {
		t.Fatal(err)
	}
	waitUntil(waitCtx, t, "web-2 to be gone", func() (bool, string) {
		_, err := cs.CoreV1().Pods("cmp").Get(ctx, "web-2", metav1.GetOptions{})
		return err != nil, "web-2 still exists"
	})
	res = runPlugin(t, nil, "compare", "--log", sched.LogPath, kc, "-o", "json")
	if res.code != 3 {
		t.Fatalf("stale dump: want exit 3\n%v\n%s", res, res.stdout)
	}
	got := decodeKind[v1alpha1.CacheComparison](t, "CacheComparison", res.stdout)
	checkComparison(t, got, []nodeDiffWant{
		{"c-1", "node", "node", true, nil, []string{"cmp/late " + string(late.UID)}},
		{"c-2", "node", "node", true, []string{"cmp/web-2 absent"}, nil},
		{"c-3", "absent", "node", false, nil, nil},
		{"c-gone", "absent", "placeholder", false, nil, []string{"cmp/orphan " + string(orphan.UID)}},
	})
	// The same through pods/log (the newest dump there is the same), as a table.
	table := runPlugin(t, nil, append(fromPod, "-o", "wide")...)
	if table.code != 3 || !strings.Contains(table.stdout, "cmp/late (Pending, uid "+string(late.UID)+")") {
		t.Errorf("compare --from-pod on a stale dump:\n%v\n%s", table, table.stdout)
	}
	t.Logf("compare --from-pod on a stale dump:\n%s%s", table.stderr, table.stdout)

	// 4. A new dump has seen it all: they agree again (c-gone is a NodeInfo
	// without a Node on both sides).
	waitUntil(waitCtx, t, "compare to agree after a new dump", func() (bool, string) {
		if _, err := sched.DumpCache(waitCtx); err != nil {
			return false, err.Error()
		}
		res := runPlugin(t, nil, "compare", "--log", sched.LogPath, kc)
		return res.code == 0, res.String() + res.stdout
	})
}

// nodeDiffWant is one NodeComparison expected from compare.
type nodeDiffWant struct {
	name, scheduler, api string
	requested            bool     // Requested differs
	extra                []string // "ns/name elsewhere"
	missing              []string // "ns/name uid"
}

// checkComparison requires exactly the want nodes, no queue difference.
func checkComparison(t *testing.T, c *v1alpha1.CacheComparison, want []nodeDiffWant) {
	t.Helper()
	if c.Agree || len(c.Queue.Missing)+len(c.Queue.Extra) != 0 {
		t.Errorf("agree %v, queue %+v", c.Agree, c.Queue)
	}
	var names []string
	for _, n := range c.Nodes {
		names = append(names, n.Name)
	}
	var wantNames []string
	for _, w := range want {
		wantNames = append(wantNames, w.name)
	}
	if !slices.Equal(names, wantNames) {
		t.Fatalf("differing nodes %v, want %v", names, wantNames)
	}
	for i, w := range want {
		n := c.Nodes[i]
		var extra, missing []string
		for _, p := range n.ExtraPods {
			extra = append(extra, fmt.Sprintf("%s/%s %s", p.Namespace, p.Name, p.Elsewhere))
		}
		for _, p := range n.MissingPods {
			missing = append(missing, fmt.Sprintf("%s/%s %s", p.Namespace, p.Name, p.UID))
		}
		if n.Scheduler != w.scheduler || n.API != w.api || (n.Requested != nil) != w.requested ||
			!slices.Equal(extra, w.extra) || !slices.Equal(missing, w.missing) || n.Allocatable != nil {
			t.Errorf("node %s: scheduler %s api %s requested %+v extra %v missing %v; want %+v", n.Name, n.Scheduler, n.API, n.Requested, extra, missing, w)
		}
	}
}

// grantPodLogs lets the reader user get pods/log in kube-system. The
// authorizer works from informers, so callers poll until it is in force.
func grantPodLogs(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	t.Helper()
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "schedcache-e2e:pod-logs"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods/log"}, Verbs: []string{"get"}}},
	}
	if _, err := cs.RbacV1().Roles("kube-system").Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: role.Name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: framework.UserReader}},
	}
	if _, err := cs.RbacV1().RoleBindings("kube-system").Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}
