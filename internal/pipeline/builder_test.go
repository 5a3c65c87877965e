package pipeline

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

func node(name, kubelet string) *v1.Node {
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: v1.NodeStatus{NodeInfo: v1.NodeSystemInfo{KubeletVersion: kubelet}}}
}

func boundPod(name, node string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name)}, Spec: v1.PodSpec{NodeName: node}}
}

// countingDecide decides as Open does for files, counting its calls.
func countingDecide(calls *int) decideFunc {
	return func(nodes []*v1.Node) (Choice, []Note, error) {
		*calls++
		return chooseFromNodes(VersionSpec{}, nodes)
	}
}

func options(c Choice) (cache.Options, error) { return cache.Options{Profile: &c.Profile}, nil }

// TestDecidingBuilderDecidesOnceAtTheFirstPod: the nodes (kubelets v1.30)
// come first, the version is decided once at the first pod, and the model
// Finish returns is the one built while the pods came, with v1.30's
// profile (not a second model).
func TestDecidingBuilderDecidesOnceAtTheFirstPod(t *testing.T) {
	calls := 0
	d := newDecidingBuilder(options, countingDecide(&calls))
	nodes := []*v1.Node{node("a", "v1.30.2"), node("b", "v1.30.4")}
	pods := []*v1.Pod{boundPod("p", "a"), boundPod("q", "b")}
	for _, n := range nodes {
		d.AddNode(n)
	}
	for _, p := range pods {
		d.AddPod(p)
	}
	if calls != 1 {
		t.Fatalf("decided %d times before Finish, want 1", calls)
	}
	streamed := d.b
	m, choice, said, err := d.Finish(&load.Cluster{Nodes: nodes, Pods: pods})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || d.b != streamed {
		t.Errorf("decided %d times in all, builder replaced: %v; want one decision, one model", calls, d.b != streamed)
	}
	if v := m.Cache.Profile().Version; v.Minor != 30 || choice.Version().Minor != 30 {
		t.Errorf("modelled %s (choice %s), want v1.30", v, choice.Version())
	}
	if len(said) != 1 || said[0].Text != "modelling kube-scheduler v1.30, the version of every node's kubelet (v1.30.2 on 1 node, v1.30.4 on 1); --kube-version chooses another" {
		t.Errorf("notes %v", said)
	}
}

// TestDecidingBuilderAfterDiscard: a node after the pods (the load
// discards the sink) is part of the decision: v1.30 and v1.33 kubelets
// differ, so v1.36 is modelled, decided from every node of the cluster.
func TestDecidingBuilderAfterDiscard(t *testing.T) {
	calls := 0
	d := newDecidingBuilder(options, countingDecide(&calls))
	nodes := []*v1.Node{node("a", "v1.30.2"), node("b", "v1.33.1")}
	pods := []*v1.Pod{boundPod("p", "a")}
	d.AddNode(nodes[0])
	d.AddPod(pods[0])
	d.Discard()
	m, _, _, err := d.Finish(&load.Cluster{Nodes: nodes, Pods: pods})
	if err != nil {
		t.Fatal(err)
	}
	if v := m.Cache.Profile().Version; v.Minor != cache.Latest.Minor {
		t.Errorf("modelled %s, want %s (the kubelets differ)", v, cache.Latest)
	}
	if len(m.Nodes) != 2 {
		t.Errorf("%d nodes in the model, want 2", len(m.Nodes))
	}
}
