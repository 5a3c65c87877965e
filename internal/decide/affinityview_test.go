package decide

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestAffinityViewKeepsVerdicts: InterPodAffinity over the pruned view
// decides exactly as over the full lister (upstream's way), on random
// clusters whose pods have every kind of term (required and preferred,
// affinity and anti-affinity; own namespace, listed namespaces, a
// namespaceSelector), by hostname and by zone. Each seed places pods one
// after the other (Sequence: the view follows every assumed pod) and
// evaluates others against the final state; verdicts are compared whole,
// every node's filter result and plugin scores included. All pods have the
// same priority: DefaultPreemption breaks ties between candidate nodes by a
// random offset, so preemption would differ from run to run either way. The view must
// also have left pods out, or the comparison would prove nothing.
func TestAffinityViewKeepsVerdicts(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			g := affinityGen{rand.New(rand.NewPCG(seed, 7))}
			nodes, bound, objects := g.cluster()
			incoming := make([]*v1.Pod, 24)
			for i := range incoming {
				incoming[i] = g.pod(fmt.Sprintf("in-%d", i), "")
			}
			withView := newAffinitySequence(t, nodes, bound, objects, false)
			upstream := newAffinitySequence(t, nodes, bound, objects, true)
			for _, p := range incoming[:16] {
				want, got := next(t, upstream, p), next(t, withView, p)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("Schedule(%s) differs (-full lister +view):\n%s", p.Name, diff)
				}
			}
			pruned := 0
			for _, p := range incoming[16:] {
				// Each pod then its twin: another app and size, the same
				// namespace and terms, so the view's lists are reused.
				for _, p := range []*v1.Pod{p, twin(p)} {
					want, got := evaluate(t, upstream.e, p), evaluate(t, withView.e, p)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("Evaluate(%s) differs (-full lister +view):\n%s", p.Name, diff)
					}
				}
				pruned += leftOut(withView.e, p)
			}
			if pruned == 0 {
				t.Errorf("the view left no pod out for any pod: the comparison proves nothing")
			}
		})
	}
}

func newAffinitySequence(t *testing.T, nodes []*v1.Node, bound []*v1.Pod, objects []k8sruntime.Object, full bool) *Sequence {
	t.Helper()
	c := cache.New(cache.Options{Generations: &cache.GenerationCounter{}})
	for _, n := range nodes {
		c.AddNode(n)
	}
	for _, p := range bound {
		if err := c.AddPod(p); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewSequence(context.Background(), c, Input{Objects: objects, withoutAffinityView: full})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if (s.e.affinity == nil) != full {
		t.Fatalf("withoutAffinityView %v, but the view is built: %v", full, s.e.affinity != nil)
	}
	if !full {
		s.e.affinity.warmup = 0 // prune from the first pod
	}
	return s
}

func next(t *testing.T, s *Sequence, p *v1.Pod) *Verdict {
	t.Helper()
	v, err := s.Next(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// leftOut counts the pods the view leaves out of List for pod.
func leftOut(e *Evaluator, pod *v1.Pod) int {
	e.affinity.focus(pod)
	defer e.affinity.focus(nil)
	count := func(list []fwk.NodeInfo) int {
		n := 0
		for _, ni := range list {
			n += len(ni.GetPods())
		}
		return n
	}
	view, _ := e.affinity.List()
	return count(e.lister.list) - count(view)
}

// twin is p with another name, app label and cpu request: a pod the view
// prunes the same lists for.
func twin(p *v1.Pod) *v1.Pod {
	out := p.DeepCopy()
	out.Name, out.UID = p.Name+"-twin", p.UID+"-twin"
	out.Labels = map[string]string{"app": "twin"}
	out.Spec.Containers[0].Resources.Requests[v1.ResourceCPU] = resource.MustParse("50m")
	return out
}

// affinityGen makes random clusters for the view's property test.
type affinityGen struct{ r *rand.Rand }

var (
	genNamespaces = []string{"a", "b", "c"}
	genApps       = []string{"web", "db", "cache"}
	genTopologies = []string{v1.LabelHostname, v1.LabelTopologyZone}
)

func (g affinityGen) cluster() (nodes []*v1.Node, bound []*v1.Pod, objects []k8sruntime.Object) {
	for i, ns := range genNamespaces {
		objects = append(objects, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{"team": fmt.Sprint(i % 2)}}})
	}
	for i := range 8 {
		w := node(fmt.Sprintf("n%d", i), v1.ResourcePods.String(), "20")
		if i != 7 { // one node without a zone
			w = w.Label(v1.LabelTopologyZone, fmt.Sprintf("z%d", i%3))
		}
		nodes = append(nodes, w.Obj())
	}
	for i := range 40 {
		bound = append(bound, g.pod(fmt.Sprintf("b-%d", i), nodes[g.r.IntN(len(nodes))].Name))
	}
	return nodes, bound, objects
}

// pod is a pod of a random namespace and app with up to three random terms.
func (g affinityGen) pod(name, nodeName string) *v1.Pod {
	ns := g.pick(genNamespaces)
	w := pod(name).Namespace(ns).UID(ns+"-"+name).Node(nodeName).Label("app", g.pick(genApps)).
		Req(cpu(fmt.Sprintf("%dm", 100+g.r.IntN(400))))
	p := w.Obj()
	if g.r.IntN(3) == 0 {
		return p
	}
	a := &v1.Affinity{PodAffinity: &v1.PodAffinity{}, PodAntiAffinity: &v1.PodAntiAffinity{}}
	for range 1 + g.r.IntN(3) {
		term := g.term()
		weighted := v1.WeightedPodAffinityTerm{Weight: int32(1 + g.r.IntN(100)), PodAffinityTerm: term}
		switch g.r.IntN(4) {
		case 0:
			a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, term)
		case 1:
			a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution, weighted)
		case 2:
			a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, term)
		default:
			a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution, weighted)
		}
	}
	p.Spec.Affinity = a
	return p
}

// term selects an app by a topology, in the pod's namespace (most often),
// listed namespaces, or namespaces by label (empty selector: all).
func (g affinityGen) term() v1.PodAffinityTerm {
	t := v1.PodAffinityTerm{LabelSelector: selector("app", g.pick(genApps)), TopologyKey: g.pick(genTopologies)}
	switch g.r.IntN(6) {
	case 0:
		t.Namespaces = []string{g.pick(genNamespaces), g.pick(genNamespaces)}
	case 1:
		t.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": fmt.Sprint(g.r.IntN(2))}}
	case 2:
		if g.r.IntN(2) == 0 {
			t.NamespaceSelector = &metav1.LabelSelector{}
		}
	}
	return t
}

func (g affinityGen) pick(from []string) string { return from[g.r.IntN(len(from))] }

// For its first warmup pods the view hands out the lister's own lists; it
// prunes from the next pod on.
func TestAffinityViewWarmup(t *testing.T) {
	g := affinityGen{rand.New(rand.NewPCG(1, 7))}
	nodes, bound, objects := g.cluster()
	s := newAffinitySequence(t, nodes, bound, objects, false)
	v := s.e.affinity
	v.warmup = 2
	for i := range 3 {
		p := g.pod(fmt.Sprintf("w-%d", i), "")
		v.focus(p)
		list, _ := v.List()
		full := sameSlice(list, v.full.list)
		if want := i < 2; full != want {
			t.Errorf("pod %d: List is the lister's own list: %v, want %v", i+1, full, want)
		}
	}
}

// A caller that announces more cycles than the warmup (why -A, report)
// gets a view that prunes from the first pod; one that announces none, or
// few, the warmup.
func TestAffinityViewWarmupFollowsAnnouncedCycles(t *testing.T) {
	snap := cache.NewEmptySnapshot()
	for _, tc := range []struct{ cycles, warmup int }{
		{0, affinityViewWarmup}, {affinityViewWarmup, affinityViewWarmup}, {affinityViewWarmup + 1, 0},
	} {
		e, err := New(context.Background(), Input{Snapshot: snap, Cycles: tc.cycles})
		if err != nil {
			t.Fatal(err)
		}
		if e.affinity.warmup != tc.warmup {
			t.Errorf("Cycles %d: warmup %d, want %d", tc.cycles, e.affinity.warmup, tc.warmup)
		}
		e.Close()
	}
}

// TestAffinityViewPrunesInPieces checks that pruning in pieces on several
// workers lists the same nodes, in the lister's order, with the same pods,
// as pruning on one goroutine. The verdicts cannot tell: the plugin only
// sums over the lists.
func TestAffinityViewPrunesInPieces(t *testing.T) {
	for seed := range uint64(12) {
		g := affinityGen{rand.New(rand.NewPCG(seed, 11))}
		nodes, bound, objects := g.cluster()
		s := newAffinitySequence(t, nodes, bound, objects, false)
		v := s.e.affinity
		for i := range 6 {
			p := g.pod(fmt.Sprintf("in-%d", i), "")
			v.focus(p)
			v.nodes(allPods) // builds the index and the lists for p
			for _, kind := range []podKind{allPods, podsWithAffinity, podsWithAntiAffinity} {
				s.e.lister.workers, v.minPiece = 1, minPrunePiece
				want := describePruned(v.prune(kind), kind)
				s.e.lister.workers, v.minPiece = 4, 1
				got := describePruned(v.prune(kind), kind)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("seed %d, pod %s, kind %d: pruned in pieces differs (-one goroutine +pieces):\n%s", seed, p.Name, kind, diff)
				}
			}
			v.focus(nil)
		}
	}
}

// describePruned names each listed node and the pods of kind it keeps.
func describePruned(list []fwk.NodeInfo, kind podKind) []string {
	var out []string
	for _, ni := range list {
		var pods []fwk.PodInfo
		switch kind {
		case podsWithAffinity:
			pods = ni.GetPodsWithAffinity()
		case podsWithAntiAffinity:
			pods = ni.GetPodsWithRequiredAntiAffinity()
		default:
			pods = ni.GetPods()
		}
		names := []string{ni.Node().Name}
		for _, p := range pods {
			names = append(names, p.GetPod().Name)
		}
		out = append(out, strings.Join(names, " "))
	}
	return out
}
