package model

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
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

// TestBuildDuplicateUID: a second pod with the UID of one already added is
// refused by the cache, as kube-scheduler's AddPod refuses it (v1.36.3
// pkg/scheduler/backend/cache/cache.go: "pod %v(%v) was already in added
// state", keyed by UID and naming the new pod), which the scheduler logs
// and goes on: the first pod stays, the build succeeds.
func TestBuildDuplicateUID(t *testing.T) {
	first := pod("a", "n1", "")
	second := pod("b", "n2", "")
	second.UID = first.UID
	third := pod("c", "n1", "")
	c := &load.Cluster{Pods: []*v1.Pod{first, second, third}}
	m, err := Build(c, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := m.Cache.Dump()
	if got := podNames(d.Nodes["n1"].Pods); len(got) != 2 || got[0] != "a" || got[1] != "c" {
		t.Errorf("n1 holds %v, want [a c]: the first pod stays and the run goes on", got)
	}
	if _, ok := d.Nodes["n2"]; ok {
		t.Errorf("n2 exists: the refused pod was added")
	}
	if len(m.Refused) != 1 || m.Refused[0].Pod != second {
		t.Fatalf("refused %v, want the second pod", m.Refused)
	}
	var w strings.Builder
	m.WriteWarnings(&w)
	want := `warning: Scheduler cache AddPod failed for pod "ns/b": pod a(ns/b) was already in added state; the pod is left out, as kube-scheduler does` + "\n"
	if w.String() != want {
		t.Errorf("warnings:\n got %q\nwant %q", w.String(), want)
	}
}

func TestWriteWarningsCountsAndEscapes(t *testing.T) {
	m := &Model{Refused: []Refused{
		{Pod: pod("x\x1b[31m", "n", ""), Err: errors.New("line\nbreak")},
		{Pod: pod("y", "n", ""), Err: errors.New("e")},
	}}
	var w strings.Builder
	m.WriteWarnings(&w)
	want := "warning: Scheduler cache AddPod failed for pod \"ns/x\\x1b[31m\": line break; the pod is left out, as kube-scheduler does\n" +
		"warning: Scheduler cache AddPod failed for pod \"ns/y\": e; the pod is left out, as kube-scheduler does\n" +
		"warning: 2 pods refused by the cache\n"
	if w.String() != want {
		t.Errorf("warnings:\n got %q\nwant %q", w.String(), want)
	}
}

func podNames(infos []*cache.PodInfo) []string {
	var names []string
	for _, p := range infos {
		names = append(names, p.Pod.Name)
	}
	return names
}

// TestBuilderMatchesBuild: a model built while loading (the load.Sink
// calls: nodes, then pods) is the model Build makes of the same cluster,
// generations, placeholders, pending and refused pods included; a discarded
// builder, or one that saw other objects, builds from the cluster.
func TestBuilderMatchesBuild(t *testing.T) {
	dup := pod("dup", "n2", "")
	dup.UID = "a"
	c := &load.Cluster{
		Nodes:  []*v1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, {ObjectMeta: metav1.ObjectMeta{Name: "n2"}}},
		Pods:   []*v1.Pod{pod("a", "n1", ""), pod("p1", "", "n1"), pod("b", "gone", ""), dup, pod("c", "n2", "")},
		Source: "test",
	}
	want, _ := Build(c, cache.Options{})
	feed := func(b *Builder, nodes []*v1.Node, pods []*v1.Pod) {
		for _, n := range nodes {
			b.AddNode(n)
		}
		for _, p := range pods {
			b.AddPod(p)
		}
	}
	streamed := NewBuilder(cache.Options{})
	feed(streamed, c.Nodes, c.Pods)
	discarded := NewBuilder(cache.Options{})
	feed(discarded, c.Nodes[1:], c.Pods)
	discarded.Discard()
	partial := NewBuilder(cache.Options{})
	feed(partial, c.Nodes, c.Pods[:2])
	for name, b := range map[string]*Builder{"streamed": streamed, "discarded": discarded, "partial": partial} {
		got := b.Finish(c)
		if !reflect.DeepEqual(got.Cache.Dump(), want.Cache.Dump()) {
			t.Errorf("%s: cache differs from Build's", name)
		}
		if !reflect.DeepEqual(got.Pending, want.Pending) || !reflect.DeepEqual(got.Refused, want.Refused) ||
			got.Source != "test" || len(got.Nodes) != 2 || len(got.Pods) != 5 {
			t.Errorf("%s: pending %v refused %v source %q", name, got.Pending, got.Refused, got.Source)
		}
	}
	if len(want.Refused) != 1 || len(want.Pending) != 1 || !want.Cache.Dump().Nodes["gone"].IsPlaceholder() {
		t.Fatalf("the cluster does not exercise refused, pending and placeholder nodes: %+v", want)
	}
}
