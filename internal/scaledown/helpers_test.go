package scaledown

import (
	"context"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

func node(name, cpu string, labels map[string]string) *v1.Node {
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: resource.MustParse(cpu), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("110")}}}
}

// pod is a running pod of ns/name on node requesting cpu, controlled by
// owner ("Kind/name", "" for none).
func pod(ns, name, node, cpu, owner string) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{"app": name}},
		Spec: v1.PodSpec{NodeName: node, SchedulerName: v1.DefaultSchedulerName, Containers: []v1.Container{{Name: "c",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu)}}}}},
		Status: v1.PodStatus{Phase: v1.PodRunning},
	}
	if kind, n, ok := strings.Cut(owner, "/"); ok {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: n, Controller: ptr.To(true)}}
	}
	return p
}

func pdb(ns, name, app string, allowed int32) *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}},
		Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed},
	}
}

// plan runs Plan on nodes and pods with opts (DefaultOptions when nil).
func plan(t *testing.T, nodes []*v1.Node, pods []*v1.Pod, objects []runtime.Object, edit func(*Input)) *Outcome {
	t.Helper()
	m, err := model.Build(&load.Cluster{Nodes: nodes, Pods: pods}, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Model: m, Objects: objects, Options: DefaultOptions()}
	if edit != nil {
		edit(&in)
	}
	out, err := Plan(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// outcomeOf finds name's outcome.
func outcomeOf(t *testing.T, out *Outcome, name string) NodeOutcome {
	t.Helper()
	for _, n := range out.Nodes {
		if n.Node.Name == name {
			return n
		}
	}
	t.Fatalf("node %s not in the outcome", name)
	return NodeOutcome{}
}

// summary is "node:result[:pod]" per node, in the outcome's order.
func summary(out *Outcome) string {
	var parts []string
	for _, n := range out.Nodes {
		s := n.Node.Name + ":" + string(n.Result)
		if n.Pod != nil {
			s += ":" + n.Pod.Name
		}
		if n.Rule != "" {
			s += ":" + string(n.Rule)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}
