//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

const whatifNS = "whatif"

// TestWhatIfAddNodeAgreesWithRealScheduler: with the scheduler stopped, two
// pending pods fit no node; why --add-node t1 predicts both on t1-whatif-1
// and --until-fits says one copy is enough. The test then creates that
// copy (and the DaemonSet pod a DaemonSet controller would start on it),
// starts the real kube-scheduler v1.36.3 and requires both pods bound to
// it.
//
// Hand-checked (NodeResourcesFit): t1 and o1 have 2000m. t1 runs app-t1
// (1500m) and the DaemonSet pod agent-t1 (300m): 200m free; o1 runs app-o1
// (1800m): 200m free. A copy of t1 runs its own agent (300m): 1700m free,
// room for p-a (1000m) and p-b (600m) together, and it is the only node
// with room for either, so there is no score tie to break.
func TestWhatIfAddNodeAgreesWithRealScheduler(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	cpu := func(q string) corev1.ResourceList { return framework.Resources("cpu", q) }
	node := func(name, zone string) *corev1.Node {
		n := framework.NewNode(name, framework.Resources("cpu", "2", "memory", "8Gi", "pods", "110"))
		n.Labels[corev1.LabelTopologyZone] = zone
		return n
	}
	agent := func(nodeName string) *corev1.Pod {
		p := framework.NewPod(whatifNS, "agent-"+nodeName, nodeName, cpu("300m"))
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent", UID: "agent-ds", Controller: ptr.To(true)}}
		return p
	}
	pending := []*corev1.Pod{framework.NewPod(whatifNS, "p-a", "", cpu("1000m")), framework.NewPod(whatifNS, "p-b", "", cpu("600m"))}
	bound := []*corev1.Pod{framework.NewPod(whatifNS, "app-t1", "t1", cpu("1500m")), agent("t1"), framework.NewPod(whatifNS, "app-o1", "o1", cpu("1800m"))}
	if err := framework.LoadObjects(ctx, cs, []*corev1.Node{node("t1", "z1"), node("o1", "z2")}, append(bound, pending...), 2); err != nil {
		t.Fatal(err)
	}
	kubeconfig := "--kubeconfig=" + c.Kubeconfig(framework.UserAdmin)

	// As the cluster is: neither pod fits.
	if r := runPlugin(t, nil, "why", "-n", whatifNS, kubeconfig); r.code != 1 {
		t.Fatalf("why without edits: want exit 1 (unschedulable)\n%v\n%s", r, r.stdout)
	}
	// With a copy of t1: both scheduled there, and the change is reported.
	r := runPlugin(t, nil, "why", "-n", whatifNS, "--add-node", "t1", "-o", "json", kubeconfig)
	if r.code != 0 {
		t.Fatalf("why --add-node t1: want exit 0\n%v", r)
	}
	report := decodeKind[v1alpha1.SchedulingReport](t, "SchedulingReport", r.stdout)
	predicted := map[string]string{}
	for _, p := range report.Pods {
		predicted[p.Pod] = p.Node
		if p.Result != "scheduled" || p.Node != "t1-whatif-1" || p.FeasibleNodes != 1 {
			t.Errorf("%s: %s on %q (%d feasible), want scheduled on t1-whatif-1, the only feasible node", p.Pod, p.Result, p.Node, p.FeasibleNodes)
		}
	}
	if w := report.WhatIf; w == nil || len(w.Changed) != 2 || w.Changed[0].Before != "unschedulable" {
		t.Errorf("whatIf: %+v", w)
	}
	r = runPlugin(t, nil, "why", "-n", whatifNS, "--add-node", "t1", "--until-fits", "-o", "json", kubeconfig)
	if u := decodeKind[v1alpha1.SchedulingReport](t, "SchedulingReport", r.stdout).WhatIf.UntilFits; r.code != 0 || u.Count != 1 || len(u.NeverFit) != 0 {
		t.Errorf("--until-fits: exit %d, %+v\n%v", r.code, u, r)
	}

	// Really add the node, and the DaemonSet pod its DaemonSet would start.
	t1, err := cs.CoreV1().Nodes().Get(ctx, "t1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateNode(ctx, whatif.CopyNode(t1, "t1-whatif-1")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreatePod(ctx, agent("t1-whatif-1")); err != nil {
		t.Fatal(err)
	}
	framework.StartScheduler(t, c)
	waitCtx, waitCancel := context.WithTimeout(ctx, decisionTimeout)
	defer waitCancel()
	waitUntil(waitCtx, t, "the scheduler to bind both pending pods", func() (bool, string) {
		var where []string
		done := true
		for _, p := range pending {
			got, err := cs.CoreV1().Pods(whatifNS).Get(waitCtx, p.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			done = done && got.Spec.NodeName != ""
			where = append(where, fmt.Sprintf("%s on %q", p.Name, got.Spec.NodeName))
		}
		return done, fmt.Sprint(where)
	})
	for _, p := range pending {
		got, err := cs.CoreV1().Pods(whatifNS).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := predicted[whatifNS+"/"+p.Name]; got.Spec.NodeName != want {
			t.Errorf("%s: the scheduler bound it to %s, why --add-node predicted %s", p.Name, got.Spec.NodeName, want)
		}
	}
}
