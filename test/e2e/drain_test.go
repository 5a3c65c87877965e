//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/kubectl/pkg/drain"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

const drainNS = "drain-e2e"

// The drain fixture, worked out by hand. Nodes: src (16 CPU, drained), w1
// (2 CPU, pool=web), w2 (8 CPU, pool=web), s1 (1 CPU, disk=ssd). Pods on
// src, all Running and Ready, in kubectl's list order:
//
//	big    ReplicaSet, 10 CPU: fits no node (w2 has 8) -> unschedulable,
//	       and preemption cannot help anywhere (every allocatable < 10).
//	cache  ReplicaSet, 500m, emptyDir, nodeSelector disk=ssd -> s1 only.
//	db-0   StatefulSet, PDB db-pdb at 0 disruptions allowed -> blocked.
//	ds-x   DaemonSet agent -> stays (--ignore-daemonsets).
//	solo   no controller -> evicted (--force), not recreated.
//	web-1, web-2  ReplicaSet, 1 CPU, nodeSelector pool=web, PDB web-pdb
//	       (minAvailable 1, 2 healthy: 1 disruption allowed): web-1 goes
//	       first; its replacement lands on w2 (LeastAllocated and
//	       BalancedAllocation both favour 1 of 8 CPU over 1 of 2), becomes
//	       Ready, which gives the allowance back; then web-2 goes, and its
//	       replacement lands on w2 too (2 of 8 CPU used beats 1 of 2).
//
// No controller runs in the test cluster, so the test plays them: the
// ReplicaSet/StatefulSet controller (a replacement, same spec, named
// NAME-replacement, for each evicted pod), the kubelet (a bound
// replacement turns Running and Ready) and the disruption controller (a
// Ready replacement under web-pdb adds one allowed disruption back).
func TestDrainAgreesWithRealDrain(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	originals := createDrainFixture(ctx, t, c)

	r := runPlugin(t, nil, "drain", "src", "--ignore-daemonsets", "--delete-emptydir-data", "--force", "-o", "json",
		"--kubeconfig="+c.Kubeconfig(framework.UserAdmin))
	if r.code != 1 {
		t.Fatalf("drain: want exit 1 (not safe)\n%v", r)
	}
	report := decodeKind[v1alpha1.DrainReport](t, "DrainReport", r.stdout)
	predicted := map[string]v1alpha1.DrainPod{}
	for _, p := range report.Pods {
		predicted[strings.TrimPrefix(p.Pod, drainNS+"/")] = p
	}
	// The hand-worked expectations first: the prediction must hold them
	// before it is compared with the real drain.
	for name, want := range map[string]string{
		"big": "unschedulable", "cache": "scheduled s1", "db-0": "blocked", "ds-x": "skipped",
		"solo": "not-recreated", "web-1": "scheduled w2", "web-2": "scheduled w2",
	} {
		p := predicted[name]
		if got := strings.TrimSpace(p.Result + " " + p.Node); got != want {
			t.Errorf("predicted %s: %q, want %q (%s)", name, got, want, p.Message)
		}
	}
	if report.Safe || len(report.Pods) != len(originals) {
		t.Fatalf("report: safe=%v, %d pods, want not safe and %d:\n%s", report.Safe, len(report.Pods), len(originals), r.stdout)
	}

	framework.StartScheduler(t, c)
	drainErr := realDrain(ctx, t, cs, originals)
	if drainErr == nil || !strings.Contains(drainErr.Error(), `"db-0"`) {
		t.Errorf("the real drain: want db-0's eviction to time out, got %v", drainErr)
	}
	waitCtx, waitCancel := context.WithTimeout(ctx, decisionTimeout)
	defer waitCancel()
	for name, p := range predicted {
		checkDrained(waitCtx, t, cs, name, p)
	}
}

// checkDrained compares one pod's predicted fate with the cluster's.
func checkDrained(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string, p v1alpha1.DrainPod) {
	t.Helper()
	get := func(n string) *corev1.Pod {
		pod, err := cs.CoreV1().Pods(drainNS).Get(ctx, n, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return pod
	}
	switch p.Result {
	case "scheduled", "unschedulable":
		var rep *corev1.Pod
		waitUntil(ctx, t, name+"'s replacement to be decided", func() (bool, string) {
			rep = get(name + "-replacement")
			return rep != nil && (rep.Spec.NodeName != "" || scheduledCondition(rep) != nil), fmt.Sprintf("%+v", rep)
		})
		if p.Result == "scheduled" && rep.Spec.NodeName != p.Node {
			t.Errorf("%s: predicted on %s, the scheduler bound it to %q", name, p.Node, rep.Spec.NodeName)
		}
		if p.Result == "unschedulable" {
			if cond := scheduledCondition(rep); cond == nil || cond.Message != p.Message {
				t.Errorf("%s: predicted %q, the scheduler says %+v", name, p.Message, cond)
			}
		}
	case "blocked", "skipped":
		if pod := get(name); pod == nil || pod.DeletionTimestamp != nil {
			t.Errorf("%s: predicted %s (%s), but it was evicted", name, p.Result, p.Message)
		}
	case "not-recreated":
		if get(name) != nil || get(name+"-replacement") != nil {
			t.Errorf("%s: predicted gone for good", name)
		}
	}
}

// realDrain cordons and drains src with kubectl's drain code while the
// test plays the controllers, and returns the drain's error.
func realDrain(ctx context.Context, t *testing.T, cs kubernetes.Interface, originals map[string]*corev1.Pod) error {
	h := &drain.Helper{Ctx: ctx, Client: cs, Force: true, IgnoreAllDaemonSets: true, DeleteEmptyDirData: true,
		GracePeriodSeconds: -1, Timeout: 15 * time.Second, EvictErrorRetryDelay: 200 * time.Millisecond, Out: io.Discard, ErrOut: io.Discard}
	node, err := cs.CoreV1().Nodes().Get(ctx, "src", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := drain.RunCordonOrUncordon(h, node, true); err != nil {
		t.Fatal(err)
	}
	list, errs := h.GetPodsForDeletion("src")
	if len(errs) > 0 {
		t.Fatalf("kubectl's filters: %v", errs)
	}
	var drainErr error
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		defer close(done)
		drainErr = h.DeleteOrEvictPods(list.Pods())
	})
	controllers := &fakeControllers{cs: cs, originals: originals, made: map[string]bool{}, ready: map[string]bool{}}
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
	return drainErr
}

// fakeControllers play the workload controllers, the kubelet and the
// disruption controller, once per sync.
type fakeControllers struct {
	cs        kubernetes.Interface
	originals map[string]*corev1.Pod
	made      map[string]bool // replacements created
	ready     map[string]bool // replacements made Ready
}

func (f *fakeControllers) sync(ctx context.Context, t *testing.T) {
	list, err := f.cs.CoreV1().Pods(drainNS).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exists := map[string]*corev1.Pod{}
	for i := range list.Items {
		exists[list.Items[i].Name] = &list.Items[i]
	}
	for name, orig := range f.originals {
		ref := metav1.GetControllerOf(orig)
		// A ReplicaSet counts a terminating pod as gone.
		if live := exists[name]; live != nil && live.DeletionTimestamp == nil || f.made[name] || ref == nil || ref.Kind == "DaemonSet" {
			continue
		}
		// As the ReplicaSet controller would: the template's spec, no node.
		rep := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: drainNS, Name: name + "-replacement", Labels: orig.Labels,
			OwnerReferences: orig.OwnerReferences}, Spec: *orig.Spec.DeepCopy()}
		rep.Spec.NodeName = ""
		if _, err := f.cs.CoreV1().Pods(drainNS).Create(ctx, rep, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		f.made[name] = true
	}
	f.terminate(ctx, t, exists)
	for name, p := range exists {
		if !strings.HasSuffix(name, "-replacement") || p.Spec.NodeName == "" || f.ready[name] {
			continue
		}
		p.Status = runningReady()
		if _, err := f.cs.CoreV1().Pods(drainNS).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		f.ready[name] = true
		if p.Labels["app"] == "web" {
			// The eviction API writes the same status: retry on conflict.
			err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
				pdb, err := f.cs.PolicyV1().PodDisruptionBudgets(drainNS).Get(ctx, "web-pdb", metav1.GetOptions{})
				if err != nil {
					return err
				}
				pdb.Status.DisruptionsAllowed++
				pdb.Status.CurrentHealthy++
				_, err = f.cs.PolicyV1().PodDisruptionBudgets(drainNS).UpdateStatus(ctx, pdb, metav1.UpdateOptions{})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// terminate stands in for the kubelet: a terminating pod (evicted with a
// grace period) is deleted once its replacement is decided (bound, or
// found unschedulable), as a grace period of seconds outlasts the
// scheduler's cycles. A pod nothing replaces goes at once.
func (f *fakeControllers) terminate(ctx context.Context, t *testing.T, exists map[string]*corev1.Pod) {
	for name, p := range exists {
		if p.DeletionTimestamp == nil || strings.HasSuffix(name, "-replacement") {
			continue
		}
		rep := exists[name+"-replacement"]
		if f.made[name] && (rep == nil || rep.Spec.NodeName == "" && scheduledCondition(rep) == nil) {
			continue
		}
		err := f.cs.CoreV1().Pods(drainNS).Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
	}
}

func runningReady() corev1.PodStatus {
	return corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
		{Type: corev1.PodReady, Status: corev1.ConditionTrue}, {Type: corev1.PodScheduled, Status: corev1.ConditionTrue}}}
}

// createDrainFixture creates the nodes, the DaemonSet, the pods on src and
// the budgets, and returns the pods by name.
func createDrainFixture(ctx context.Context, t *testing.T, c *framework.Cluster) map[string]*corev1.Pod {
	cs := c.AdminClient()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: drainNS}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []struct{ name, cpu, label string }{{"src", "16", ""}, {"w1", "2", "pool=web"}, {"w2", "8", "pool=web"}, {"s1", "1", "disk=ssd"}} {
		node := framework.NewNode(n.name, framework.Resources("cpu", n.cpu, "memory", "32Gi", "pods", "110"))
		if k, v, ok := strings.Cut(n.label, "="); ok {
			node.Labels[k] = v
		}
		if _, err := c.CreateNode(ctx, node); err != nil {
			t.Fatal(err)
		}
	}
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: drainNS, Name: "agent"}, Spec: appsv1.DaemonSetSpec{
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Image: "registry.k8s.io/pause:3.10"}}}}}}
	ds, err := cs.AppsV1().DaemonSets(drainNS).Create(ctx, ds, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	owner := func(kind, name string, uid types.UID) []metav1.OwnerReference {
		return []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: ptr.To(true)}}
	}
	pod := func(name, cpu, app string) *corev1.Pod {
		p := framework.NewPod(drainNS, name, "src", framework.Resources("cpu", cpu))
		p.Labels = map[string]string{"app": app}
		p.Status = runningReady()
		return p
	}
	big := pod("big", "10", "big")
	big.OwnerReferences = owner("ReplicaSet", "big-6d4f", "uid-rs-big")
	cache := pod("cache", "500m", "cache")
	cache.OwnerReferences = owner("ReplicaSet", "cache-7c9b", "uid-rs-cache")
	cache.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	cache.Spec.Volumes = []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	db := pod("db-0", "500m", "db")
	db.OwnerReferences = owner("StatefulSet", "db", "uid-sts-db")
	dsx := pod("ds-x", "100m", "agent")
	dsx.OwnerReferences = owner("DaemonSet", "agent", ds.UID)
	solo := pod("solo", "100m", "solo")
	pods := []*corev1.Pod{big, cache, db, dsx, solo}
	for _, name := range []string{"web-1", "web-2"} {
		w := pod(name, "1", "web")
		w.OwnerReferences = owner("ReplicaSet", "web-5b8c", "uid-rs-web")
		w.Spec.NodeSelector = map[string]string{"pool": "web"}
		pods = append(pods, w)
	}
	out := map[string]*corev1.Pod{}
	for _, p := range pods {
		created, err := c.CreatePod(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		out[p.Name] = created
	}
	for _, b := range []struct {
		name, app              string
		allowed, healthy, want int32
	}{{"web-pdb", "web", 1, 2, 1}, {"db-pdb", "db", 0, 1, 1}} {
		pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Namespace: drainNS, Name: b.name}, Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(1)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": b.app}}}}
		pdb, err := cs.PolicyV1().PodDisruptionBudgets(drainNS).Create(ctx, pdb, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// No disruption controller runs: write the status it would.
		pdb.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: pdb.Generation, DisruptionsAllowed: b.allowed,
			CurrentHealthy: b.healthy, DesiredHealthy: b.want, ExpectedPods: b.healthy}
		if _, err := cs.PolicyV1().PodDisruptionBudgets(drainNS).UpdateStatus(ctx, pdb, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
