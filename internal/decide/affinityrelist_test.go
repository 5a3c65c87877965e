package decide

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
)

// TestAffinityViewFollowsNodeRemovals: the view's index keeps the summaries
// of the nodes still listed when the lister's list is rebuilt (relist), as
// a scale-down simulation rebuilds it for every node it removes and puts
// back. On random clusters (affinityGen), pods are placed one after the
// other while nodes leave with their pods and come back, and each verdict
// over the view equals the verdict over the full lister (upstream's way),
// every node's filter result and plugin scores included. The index must
// have been relisted, not built anew, and must have pruned, or the
// comparison would prove nothing.
func TestAffinityViewFollowsNodeRemovals(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 11))
			g := affinityGen{r}
			nodes, bound, objects := g.cluster()
			withView := newAffinitySequence(t, nodes, bound, objects, false)
			upstream := newAffinitySequence(t, nodes, bound, objects, true)
			seqs := []*Sequence{upstream, withView}
			var index *namespaceIndex
			var out []*v1.Node // removed, with their pods
			outPods := map[*Sequence]map[string][]*v1.Pod{upstream: {}, withView: {}}
			pruned := 0
			for i := range 20 {
				switch {
				case len(out) > 0 && r.IntN(3) == 0: // one comes back
					n := out[0]
					out = out[1:]
					for _, s := range seqs {
						putBackNode(t, s, n, outPods[s][n.Name])
						delete(outPods[s], n.Name)
					}
				case len(out) < 4:
					n := nodes[r.IntN(len(nodes))]
					if _, gone := outPods[upstream][n.Name]; gone {
						break
					}
					for _, s := range seqs {
						outPods[s][n.Name] = takeOutNode(t, s, n)
					}
					out = append(out, n)
				}
				p := g.pod(fmt.Sprintf("in-%d", i), "")
				// Before the cycles: after them, it would bring the index up
				// to date with the placement before the next removal does.
				pruned += leftOut(withView.e, p)
				want, got := next(t, upstream, p), next(t, withView, p)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("Schedule(%s) differs (-full lister +view):\n%s", p.Name, diff)
				}
				if index == nil {
					index = withView.e.affinity.index
				}
			}
			if index == nil || withView.e.affinity.index != index {
				t.Errorf("the view built its index anew after the first: relist not exercised")
			}
			if pruned == 0 {
				t.Errorf("the view left no pod out for any pod: the comparison proves nothing")
			}
		})
	}
}

// takeOutNode removes node n and its pods from s's cache and refreshes s;
// it returns the pods removed.
func takeOutNode(t *testing.T, s *Sequence, n *v1.Node) []*v1.Pod {
	t.Helper()
	ni, ok := s.c.GetNodeInfo(n.Name)
	if !ok {
		t.Fatalf("node %s is not in the cache", n.Name)
	}
	var pods []*v1.Pod
	for _, pi := range ni.Pods {
		pods = append(pods, pi.Pod)
	}
	for _, p := range pods {
		if err := s.c.RemovePod(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.c.RemoveNode(n); err != nil {
		t.Fatal(err)
	}
	refresh(t, s)
	return pods
}

// putBackNode adds node n and pods (as takeOutNode returned them) back.
func putBackNode(t *testing.T, s *Sequence, n *v1.Node, pods []*v1.Pod) {
	t.Helper()
	s.c.AddNode(n)
	for _, p := range pods {
		if err := s.c.AddPod(p); err != nil {
			t.Fatal(err)
		}
	}
	refresh(t, s)
}

func refresh(t *testing.T, s *Sequence) {
	t.Helper()
	if err := s.c.UpdateSnapshot(s.snap); err != nil {
		t.Fatal(err)
	}
	s.e.Refresh(s.snap)
}
