//go:build e2e

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// TestDrainTwoNodesAgreesWithKubectl drains two nodes with the real
// kubectl v1.36.3 (`kubectl drain n1 n2`, its RunDrain: n1's pods evicted
// and gone before n2's evictions) and the real kube-scheduler, the test
// playing the ReplicaSet controller and the kubelet (see fakeControllers:
// an evicted pod, with a 30 s grace period, is deleted once its
// replacement is decided). The fixture (the 4 nodes of
// pkg/cmd/testdata/fixtures/drain-nodes.yaml, worked out there): n1 runs
// lo (priority 0) and held (its budget allows no disruption), n2 runs hi
// (priority 1000); n3 (4 CPU) and n4 (3 CPU) are free. The first
// replacement placed goes to n3, the second to n4. kubectl evicts lo
// first; held is refused until --timeout gives up on n1; then hi goes.
// So lo -> n3, hi -> n4: evicting both nodes at once would put hi first.
func TestDrainTwoNodesAgreesWithKubectl(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	originals := createTwoNodeDrainFixture(ctx, t, c)
	const timeout = "6s"

	r := runPlugin(t, nil, "drain", "n1", "n2", "--ignore-daemonsets", "--timeout", timeout, "-o", "json",
		"--kubeconfig="+c.Kubeconfig(framework.UserAdmin))
	if r.code != 1 {
		t.Fatalf("drain: want exit 1 (held is blocked)\n%v", r)
	}
	report := decodeKind[v1alpha1.DrainReport](t, "DrainReport", r.stdout)
	predicted := map[string]v1alpha1.DrainPod{}
	for _, p := range report.Pods {
		predicted[strings.TrimPrefix(p.Pod, drainNS+"/")] = p
	}
	for name, want := range map[string]string{"lo": "scheduled n3", "hi": "scheduled n4", "held": "blocked"} {
		p := predicted[name]
		if got := strings.TrimSpace(p.Result + " " + p.Node); got != want {
			t.Errorf("predicted %s: %q, want %q (%s)", name, got, want, p.Message)
		}
	}
	if len(report.Pods) != len(originals) {
		t.Fatalf("report: %d pods, want %d:\n%s", len(report.Pods), len(originals), r.stdout)
	}

	framework.StartScheduler(t, c)
	out, err := kubectlDrain(ctx, t, c, originals, "n1", "n2", "--ignore-daemonsets", "--timeout="+timeout)
	// kubectl gives up on n1 (held) and drains n2: exit 1, n1 pending.
	if err == nil || !strings.Contains(out, "global timeout reached") || !strings.Contains(out, "node/n2 drained") {
		t.Errorf("kubectl drain n1 n2: %v\n%s", err, out)
	}
	waitCtx, cancel := context.WithTimeout(ctx, decisionTimeout)
	defer cancel()
	for name, p := range predicted {
		checkDrained(waitCtx, t, cs, name, p)
	}
}

// kubectlDrain runs the real kubectl drain with args while the test plays
// the controllers, and returns kubectl's output and error.
func kubectlDrain(ctx context.Context, t *testing.T, c *framework.Cluster, originals map[string]*corev1.Pod, args ...string) (string, error) {
	t.Helper()
	var out strings.Builder
	cmd := exec.CommandContext(ctx, kubectlV136(t), append([]string{"--kubeconfig", c.Kubeconfig(framework.UserAdmin), "drain"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var drainErr error
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		defer close(done)
		drainErr = cmd.Wait()
	})
	controllers := &fakeControllers{cs: c.AdminClient(), originals: originals, made: map[string]bool{}, ready: map[string]bool{}}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-tick.C:
		}
		controllers.sync(ctx, t)
	}
	wg.Wait()
	t.Logf("kubectl drain %s:\n%s", strings.Join(args, " "), out.String())
	return out.String(), drainErr
}

// kubectlV136 is the kubectl hack/e2e-binaries.sh builds from the pinned
// release (its drain is k8s.io/kubectl v0.36.3's), else realKubectl's.
func kubectlV136(t *testing.T) string {
	p := filepath.Join(filepath.Dir(framework.LocateBinaries(t).KubeAPIServer), "kubectl")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return realKubectl(t)
}

// createTwoNodeDrainFixture creates the nodes, the priority class, the
// pods and held's budget, and returns the pods by name.
func createTwoNodeDrainFixture(ctx context.Context, t *testing.T, c *framework.Cluster) map[string]*corev1.Pod {
	cs := c.AdminClient()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: drainNS}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	high := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000}
	if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, high, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []struct{ name, cpu string }{{"n1", "8"}, {"n2", "8"}, {"n3", "4"}, {"n4", "3"}} {
		if _, err := c.CreateNode(ctx, framework.NewNode(n.name, framework.Resources("cpu", n.cpu, "memory", "8Gi", "pods", "110"))); err != nil {
			t.Fatal(err)
		}
	}
	pod := func(name, node, cpu string) *corev1.Pod {
		p := framework.NewPod(drainNS, name, node, framework.Resources("cpu", cpu))
		p.Labels = map[string]string{"app": name}
		p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](30)
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name + "-5c8b",
			UID: types.UID("uid-rs-" + name), Controller: ptr.To(true)}}
		p.Status = runningReady()
		return p
	}
	hi := pod("hi", "n2", "2")
	hi.Spec.PriorityClassName = "high"
	out := map[string]*corev1.Pod{}
	for _, p := range []*corev1.Pod{pod("held", "n1", "100m"), pod("lo", "n1", "2"), hi} {
		created, err := c.CreatePod(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		out[p.Name] = created
	}
	pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Namespace: drainNS, Name: "held-pdb"}, Spec: policyv1.PodDisruptionBudgetSpec{
		MinAvailable: ptr.To(intstr.FromInt32(1)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "held"}}}}
	pdb, err := cs.PolicyV1().PodDisruptionBudgets(drainNS).Create(ctx, pdb, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// No disruption controller runs: write the status it would.
	pdb.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: pdb.Generation, CurrentHealthy: 1, DesiredHealthy: 1, ExpectedPods: 1}
	if _, err := cs.PolicyV1().PodDisruptionBudgets(drainNS).UpdateStatus(ctx, pdb, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	return out
}
