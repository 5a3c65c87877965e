//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

const engineNS = "engine"

// engineNodes creates n nodes eng-00.. (2 CPUs each); those whose index is
// in zoneA get the label zone=a.
func engineNodes(ctx context.Context, t *testing.T, c *framework.Cluster, n int, zoneA ...int) {
	t.Helper()
	for i := range n {
		node := framework.NewNode(fmt.Sprintf("eng-%02d", i), framework.Resources("cpu", "2", "memory", "4Gi", "pods", "110"))
		for _, z := range zoneA {
			if z == i {
				node.Labels["zone"] = "a"
			}
		}
		if _, err := c.CreateNode(ctx, node); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.AdminClient().CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: engineNS}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func createPriorityClass(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string, value int32) {
	t.Helper()
	pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
	if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitBound waits until the scheduler has bound each named pod and returns
// the nodes, by pod name.
func waitBound(ctx context.Context, t *testing.T, cs kubernetes.Interface, names ...string) map[string]string {
	t.Helper()
	got := map[string]string{}
	waitUntil(ctx, t, fmt.Sprintf("the scheduler to bind %v", names), func() (bool, string) {
		for _, n := range names {
			p, err := cs.CoreV1().Pods(engineNS).Get(ctx, n, metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			if p.Spec.NodeName == "" {
				return false, n + " not bound"
			}
			got[n] = p.Spec.NodeName
		}
		return true, ""
	})
	return got
}

// noScoreConfig is a profile without Score plugins (one feasible node is
// enough) filtering on one goroutine, so that the real scheduler's scan is
// the deterministic one the engine mirrors.
const noScoreConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: %s
parallelism: 1
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: "*"
`

// TestEngineFilterScanAgreesWithRealScheduler: pod first (higher priority)
// fits eng-00 and eng-03 only; kube-scheduler v1.36.3 at parallelism 1
// takes eng-00, rejects eng-01 and eng-02 and stops at eng-03 (one feasible
// node more than it needs), so its next cycle starts at eng-03, where pod
// second (fits anywhere) goes. `why` reports the 3 evaluated nodes, and
// `simulate --config` places both pods where the real scheduler binds them.
//
// The real scheduler's NodeTree holds nodes in the order its informer
// delivered them: at startup that is the order of the initial list as the
// informer hands it over, seen here to be a rotation of the name order
// (eng-03, eng-04, eng-05, eng-00, …), which no listing can tell. So the
// scheduler is started before the nodes exist, and gets them one watch
// event at a time, in creation (name) order, the order the plugin reads.
// The pods are held by a scheduling gate meanwhile; the plugin decides on
// a file of the same objects without the gate, and the gates are then
// lifted one pod at a time.
func TestEngineFilterScanAgreesWithRealScheduler(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	cfg := filepath.Join(c.Dir, "noscore.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(noScoreConfig, c.Kubeconfig(framework.UserAdmin))), 0o600); err != nil {
		t.Fatal(err)
	}
	framework.StartScheduler(t, c, "--config="+cfg)
	engineNodes(ctx, t, c, 6, 0, 3)
	createPriorityClass(ctx, t, cs, "engine-high", 100)
	first := framework.NewPod(engineNS, "first", "", framework.Resources("cpu", "100m"))
	first.Spec.NodeSelector = map[string]string{"zone": "a"}
	first.Spec.PriorityClassName = "engine-high"
	second := framework.NewPod(engineNS, "second", "", framework.Resources("cpu", "100m"))
	for _, p := range []*corev1.Pod{first, second} {
		p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "schedcache.io/e2e-hold"}}
		if _, err := c.CreatePod(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	file := ungatedExport(ctx, t, cs, filepath.Join(c.Dir, "engine.json"))

	r := runPlugin(t, nil, "why", "-f", file, "-n", engineNS, "first", "--config", cfg, "-o", "json")
	if r.code != 0 {
		t.Fatalf("why first: %v", r)
	}
	report := decodeKind[v1alpha1.SchedulingReport](t, "SchedulingReport", r.stdout)
	if d := report.Pods[0]; d.Node != "eng-00" || d.EvaluatedNodes != 3 || d.FeasibleNodes != 1 {
		t.Errorf("why first: node %s, evaluated %d, feasible %d; want eng-00, 3, 1", d.Node, d.EvaluatedNodes, d.FeasibleNodes)
	}
	r = runPlugin(t, nil, "simulate", "-f", file, "--pending", "-n", engineNS, "--config", cfg, "-o", "json")
	if r.code != 0 {
		t.Fatalf("simulate: %v", r)
	}
	sim := decodeKind[v1alpha1.Simulation](t, "Simulation", r.stdout)
	ours := map[string]string{}
	for _, p := range sim.Pods {
		ours[p.Name] = p.Node
	}

	// In the queue's order (priority): first, then second once first is
	// bound, in the same scheduler process.
	got := map[string]string{}
	for _, name := range []string{"first", "second"} {
		ungate(ctx, t, cs, name)
		for k, v := range waitBound(ctx, t, cs, name) {
			got[k] = v
		}
	}
	want := map[string]string{"first": "eng-00", "second": "eng-03"}
	for _, n := range []string{"first", "second"} {
		if got[n] != want[n] || ours[n] != want[n] {
			t.Errorf("%s: the scheduler bound it to %s, simulate placed it on %s; want both %s", n, got[n], ours[n], want[n])
		}
	}
}

// ungatedExport writes the cluster's nodes and the pods of engineNS to path
// as one v1 List (JSON), the pods without their scheduling gates: what the
// scheduler will see once the gates are lifted.
func ungatedExport(ctx context.Context, t *testing.T, cs kubernetes.Interface, path string) string {
	t.Helper()
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := cs.CoreV1().Pods(engineNS).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	list := &corev1.List{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "List"}}
	for i := range nodes.Items {
		n := nodes.Items[i]
		n.APIVersion, n.Kind = "v1", "Node"
		list.Items = append(list.Items, runtime.RawExtension{Object: &n})
	}
	for i := range pods.Items {
		p := pods.Items[i]
		p.APIVersion, p.Kind = "v1", "Pod"
		p.Spec.SchedulingGates = nil
		list.Items = append(list.Items, runtime.RawExtension{Object: &p})
	}
	b, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ungate lifts the scheduling gates of pod name of engineNS.
func ungate(ctx context.Context, t *testing.T, cs kubernetes.Interface, name string) {
	t.Helper()
	p, err := cs.CoreV1().Pods(engineNS).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.Spec.SchedulingGates = nil
	if _, err := cs.CoreV1().Pods(engineNS).Update(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestEngineDRAAndTerminatingVictimsAgreeWithRealScheduler runs the real
// kube-scheduler v1.36.3 on two cases of the engine's decisions:
//   - a pod with a ResourceClaim: `why` must not call it gated (the claim
//     cache is filled by informer handlers the engine waits for) and must
//     name the node of the only ResourceSlice, where the scheduler binds it;
//   - a preemption whose victims include a pod already being deleted: `why`
//     lists only the other one as deleted and that one apart as already
//     terminating; the scheduler deletes the first and leaves the
//     terminating one as it was.
func TestEngineDRAAndTerminatingVictimsAgreeWithRealScheduler(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	engineNodes(ctx, t, c, 3)
	kc := "--kubeconfig=" + c.Kubeconfig(framework.UserAdmin)

	// DRA: a device class, one slice on eng-01, a claim and its pod.
	if _, err := cs.ResourceV1().DeviceClasses().Create(ctx, &resourcev1.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "engine-gpu"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	slice := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "eng-01-gpu"},
		Spec: resourcev1.ResourceSliceSpec{
			Driver: "gpu.example.com", NodeName: ptr.To("eng-01"),
			Pool:    resourcev1.ResourcePool{Name: "eng-01", ResourceSliceCount: 1},
			Devices: []resourcev1.Device{{Name: "gpu-0"}},
		},
	}
	if _, err := cs.ResourceV1().ResourceSlices().Create(ctx, slice, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	claim := &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: engineNS, Name: "gpu"},
		Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{{
			Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "engine-gpu"},
		}}}},
	}
	if _, err := cs.ResourceV1().ResourceClaims(engineNS).Create(ctx, claim, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dra := framework.NewPod(engineNS, "dra", "", framework.Resources("cpu", "100m"))
	dra.Spec.ResourceClaims = []corev1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("gpu")}}
	dra.Spec.Containers[0].Resources.Claims = []corev1.ResourceClaim{{Name: "gpu"}}
	if _, err := c.CreatePod(ctx, dra); err != nil {
		t.Fatal(err)
	}

	// Preemption: eng-02 holds victim (to be deleted) and dying (already
	// terminating, held by a long grace period no kubelet will end); the
	// other nodes are full. preemptor needs both gone.
	createPriorityClass(ctx, t, cs, "engine-low", 0)
	createPriorityClass(ctx, t, cs, "engine-top", 1000)
	fill := func(name, node, cpu, pc string, grace int64) {
		p := framework.NewPod(engineNS, name, node, framework.Resources("cpu", cpu))
		p.Spec.PriorityClassName = pc
		p.Spec.TerminationGracePeriodSeconds = &grace
		// The Priority admission plugin reads PriorityClasses from its
		// own informer: one just created may not be there yet.
		waitUntil(ctx, t, "pod "+name+" admitted with PriorityClass "+pc, func() (bool, string) {
			_, err := c.CreatePod(ctx, p)
			if err != nil && apierrors.IsForbidden(err) && strings.Contains(err.Error(), "no PriorityClass with name") {
				return false, err.Error()
			}
			if err != nil {
				t.Fatal(err)
			}
			return true, ""
		})
	}
	fill("full-0", "eng-00", "1900m", "engine-top", 0)
	fill("full-1", "eng-01", "1800m", "engine-top", 0)
	fill("victim", "eng-02", "900m", "engine-low", 0)
	fill("dying", "eng-02", "900m", "engine-low", 3600)
	if err := cs.CoreV1().Pods(engineNS).Delete(ctx, "dying", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	dying, err := cs.CoreV1().Pods(engineNS).Get(ctx, "dying", metav1.GetOptions{})
	if err != nil || dying.DeletionTimestamp == nil {
		t.Fatalf("dying should stay with a deletionTimestamp: %v", err)
	}
	pre := framework.NewPod(engineNS, "preemptor", "", framework.Resources("cpu", "1500m"))
	pre.Spec.PriorityClassName = "engine-top"
	if _, err := c.CreatePod(ctx, pre); err != nil {
		t.Fatal(err)
	}

	r := runPlugin(t, nil, "why", "-n", engineNS, "dra", "preemptor", "-o", "json", kc)
	report := decodeKind[v1alpha1.SchedulingReport](t, "SchedulingReport", r.stdout)
	ours := map[string]v1alpha1.PodDecision{}
	for _, d := range report.Pods {
		ours[d.Pod] = d
	}
	if d := ours[engineNS+"/dra"]; d.Result != "scheduled" || d.Node != "eng-01" {
		t.Errorf("why dra: %s %q on %q, want scheduled on eng-01", d.Result, d.Message, d.Node)
	}
	p := ours[engineNS+"/preemptor"].Preemption
	if p == nil || p.NominatedNode != "eng-02" || fmt.Sprint(p.Victims) != "["+engineNS+"/victim]" || fmt.Sprint(p.TerminatingVictims) != "["+engineNS+"/dying]" {
		t.Fatalf("why preemptor: preemption %+v; want eng-02, victims [%s/victim], already terminating [%s/dying]", p, engineNS, engineNS)
	}

	framework.StartScheduler(t, c)
	if got := waitBound(ctx, t, cs, "dra")["dra"]; got != "eng-01" {
		t.Errorf("the scheduler bound dra to %s, why said eng-01", got)
	}
	waitUntil(ctx, t, "the scheduler to nominate preemptor and delete victim", func() (bool, string) {
		p, err := cs.CoreV1().Pods(engineNS).Get(ctx, "preemptor", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		_, err = cs.CoreV1().Pods(engineNS).Get(ctx, "victim", metav1.GetOptions{})
		return p.Status.NominatedNodeName == "eng-02" && err != nil, fmt.Sprintf("nominated %q, victim: %v", p.Status.NominatedNodeName, err)
	})
	after, err := cs.CoreV1().Pods(engineNS).Get(ctx, "dying", metav1.GetOptions{})
	if err != nil || !after.DeletionTimestamp.Equal(dying.DeletionTimestamp) || after.DeletionGracePeriodSeconds == nil || *after.DeletionGracePeriodSeconds != 3600 {
		t.Errorf("dying: the scheduler should have left it terminating as it was: %v, %+v", err, after.ObjectMeta)
	}
}
