package model

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/load"
)

func pod(name, node, nominated string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID(name)},
		Spec:       v1.PodSpec{NodeName: node},
		Status:     v1.PodStatus{NominatedNodeName: nominated},
	}
}

func TestBuild(t *testing.T) {
	c := &load.Cluster{
		// A pod listed before the nodes still lands on its node: nodes go first.
		Pods:   []*v1.Pod{pod("a", "n1", ""), pod("p1", "", "n1"), pod("b", "gone", ""), pod("p2", "", "")},
		Nodes:  []*v1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}},
		Source: "test",
	}
	m, err := Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := m.Cache.Dump()
	if len(d.Nodes) != 2 || d.Nodes["n1"].Node() == nil || !d.Nodes["gone"].IsPlaceholder() {
		t.Fatalf("nodes %v: want n1 real and gone a placeholder", d.Nodes)
	}
	if len(m.Pending) != 2 || m.Pending[0].Name != "p1" || m.Pending[1].Name != "p2" {
		t.Errorf("pending %v, want p1, p2 in input order", m.Pending)
	}
	if nom := m.NominatedPods(); len(nom) != 1 || len(nom["n1"]) != 1 || nom["n1"][0].Name != "p1" {
		t.Errorf("nominated %v, want n1: [p1]", nom)
	}
	// A fresh generation counter per build: the same input gives the same generations.
	m2, _ := Build(c, cache.Options{})
	if g1, g2 := d.Nodes["n1"].Generation, m2.Cache.Dump().Nodes["n1"].Generation; g1 != g2 {
		t.Errorf("generations differ between builds: %d vs %d", g1, g2)
	}
}

func TestBuildDuplicateUID(t *testing.T) {
	c := &load.Cluster{Pods: []*v1.Pod{pod("a", "n1", ""), pod("a", "n1", "")}}
	_, err := Build(c, cache.Options{})
	if err == nil || !strings.Contains(err.Error(), "pod ns/a: pod a(ns/a) was already in added state") {
		t.Errorf("error %v", err)
	}
}
