//go:build e2e

package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

const scaleDownNS = "scaledown-e2e"

// The scale-down fixture, worked out by hand (cluster-autoscaler's
// defaults; kube-scheduler v1.36.3's default profile). Nodes of 4 CPU:
//
//	n1  a    1 CPU, ReplicaSet        25%  candidate
//	n2  b    1.5 CPU, ReplicaSet    37.5%  candidate
//	n3  c    3 CPU, ReplicaSet        75%  not under the threshold
//	n5  sys  100m, kube-system, ReplicaSet, no PodDisruptionBudget: 2.5%,
//	         blocked (UnmovableKubeSystemPod)
//
// n1 first (by name): a fits n2 (2.5 of 4 after), n3 (4 of 4) and n5 (1.1
// of 4): the least allocated, n5. n2 next: b fits n5 (2.6 of 4 after) only
// (n3 has 1 CPU free, n1 is gone). Removable: n1, n2.
//
// Then the test does what cluster-autoscaler and the controllers would: it
// deletes n1 and n2 and their pods through the API, creates each pod's
// replacement (same spec, no node), and the real kube-scheduler must bind
// every one of them to a node that stays.
func TestScaleDownRemovableNodesReallyGo(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	pods := createScaleDownFixture(ctx, t, c)

	r := runPlugin(t, nil, "scale-down", "-o", "json", "--kubeconfig="+c.Kubeconfig(framework.UserAdmin))
	if r.code != 0 {
		t.Fatalf("scale-down: want exit 0 (some node removable)\n%v", r)
	}
	report := decodeKind[v1alpha1.ScaleDownReport](t, "ScaleDownReport", r.stdout)
	if got := strings.Join(report.Removable, ","); got != "n1,n2" {
		t.Fatalf("removable %s, want n1,n2:\n%s", got, r.stdout)
	}
	results := map[string]string{}
	for _, n := range report.Nodes {
		results[n.Node] = n.Result + " " + n.Rule
		for _, m := range n.Moves {
			results[m.Pod] = m.Node
		}
	}
	for key, want := range map[string]string{"n3": "not-under-threshold ", "n5": "blocked UnmovableKubeSystemPod",
		scaleDownNS + "/a": "n5", scaleDownNS + "/b": "n5"} {
		if results[key] != want {
			t.Errorf("%s: predicted %q, want %q", key, results[key], want)
		}
	}

	framework.StartScheduler(t, c)
	var replacements []string
	for _, node := range report.Removable {
		if err := cs.CoreV1().Nodes().Delete(ctx, node, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, p := range pods {
			if p.Spec.NodeName != node {
				continue
			}
			if err := cs.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
				t.Fatal(err)
			}
			rep := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: p.Name + "-replacement", Labels: p.Labels,
				OwnerReferences: p.OwnerReferences}, Spec: *p.Spec.DeepCopy()}
			rep.Spec.NodeName = ""
			if _, err := cs.CoreV1().Pods(p.Namespace).Create(ctx, rep, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			replacements = append(replacements, rep.Name)
		}
	}
	waitCtx, cancel := context.WithTimeout(ctx, decisionTimeout)
	defer cancel()
	for _, name := range replacements {
		waitUntil(waitCtx, t, name+" to be bound to a node that stays", func() (bool, string) {
			p, err := cs.CoreV1().Pods(scaleDownNS).Get(waitCtx, name, metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			if cond := scheduledCondition(p); cond != nil {
				return false, "Pending: " + cond.Message
			}
			return p.Spec.NodeName != "" && !slices.Contains(report.Removable, p.Spec.NodeName), "node " + p.Spec.NodeName
		})
	}
}

// createScaleDownFixture creates the nodes and their pods (bound, Running
// and Ready) and returns the pods.
func createScaleDownFixture(ctx context.Context, t *testing.T, c *framework.Cluster) []*corev1.Pod {
	cs := c.AdminClient()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: scaleDownNS}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"n1", "n2", "n3", "n5"} {
		if _, err := c.CreateNode(ctx, framework.NewNode(name, framework.Resources("cpu", "4", "memory", "32Gi", "pods", "110"))); err != nil {
			t.Fatal(err)
		}
	}
	var out []*corev1.Pod
	for _, p := range []struct{ ns, name, node, cpu string }{
		{scaleDownNS, "a", "n1", "1"}, {scaleDownNS, "b", "n2", "1500m"}, {scaleDownNS, "c", "n3", "3"}, {"kube-system", "sys", "n5", "100m"},
	} {
		pod := framework.NewPod(p.ns, p.name, p.node, framework.Resources("cpu", p.cpu))
		pod.Labels = map[string]string{"app": p.name}
		pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: p.name + "-rs",
			UID: types.UID("uid-rs-" + p.name), Controller: ptr.To(true)}}
		pod.Status = runningReady()
		created, err := c.CreatePod(ctx, pod)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, created)
	}
	return out
}
