package decide

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"
)

// filterNode is the framework's RunFilterPluginsWithNominatedPods
// (framework/runtime/framework.go, v1.36.3) with the node's copy shared
// between pods. The scheduler filters a node with nominated pods twice:
// first with those of equal or higher priority than the pod (other than
// the pod itself) added to a copy of the node and to a clone of the cycle
// state (each PreFilter extension's AddPod), then, if that passed, as it
// is; without such pods, once as it is. Upstream makes the copy for every
// pod and node; here pods that add the same nominated pods to a node read
// one copy (nominatedCopies), and each pod still clones its own state.
//
// Where upstream, with nominated pods none of which qualifies, filters an
// unchanged copy with an unchanged state clone, this filters the node
// itself: the same content, so the same statuses.
//
// at is ni's position in the lister's list, where the cycle's table of
// nominations (nominatedAt) answers without asking the nominator by name;
// -1 asks it.
func (c *cycle) filterNode(ctx context.Context, ni fwk.NodeInfo, at int) *fwk.Status {
	state, withNominated, err := c.withNominated(ctx, ni, at)
	if err != nil {
		return fwk.AsStatus(err)
	}
	if withNominated != nil {
		s := c.fw.RunFilterPlugins(ctx, state, c.pod, withNominated)
		if !s.IsSuccess() {
			return s
		}
	}
	return c.fw.RunFilterPlugins(ctx, c.state, c.pod, ni)
}

// withNominated is the first pass's state and node (addGENominatedPods),
// nil when no nominated pod of the node qualifies.
func (c *cycle) withNominated(ctx context.Context, ni fwk.NodeInfo, at int) (fwk.CycleState, fwk.NodeInfo, error) {
	var nominated []fwk.PodInfo
	if at >= 0 && c.nominatedAt != nil {
		nominated = c.nominatedAt[at]
	} else {
		nominated = c.fw.NominatedPodsForNode(ni.Node().Name)
	}
	if len(nominated) == 0 {
		return nil, nil, nil
	}
	prio := corev1helpers.PodPriority(c.pod)
	var added []fwk.PodInfo
	for _, pi := range nominated {
		if p := pi.GetPod(); corev1helpers.PodPriority(p) >= prio && p.UID != c.pod.UID {
			added = append(added, pi)
		}
	}
	if len(added) == 0 {
		return nil, nil, nil
	}
	out := c.e.copies.get(ni, added)
	state := c.state.Clone()
	for _, pi := range added {
		if s := c.fw.RunPreFilterExtensionAddPod(ctx, state, c.pod, pi, out); !s.IsSuccess() {
			return nil, nil, s.AsError()
		}
	}
	return state, out, nil
}

// nominatedCopies are copies of the lister's nodes with nominated pods
// added, each made once for every pod that adds the same pods, in the
// same order, to the same NodeInfo.
//
// Why one copy serves them all (v1.36.3): the Filter plugins read the
// node they are given and change nothing in it, and the PreFilter
// extensions' AddPod (InterPodAffinity, PodTopologySpread,
// VolumeRestrictions: the only ones in-tree) read of it only its Node,
// which the copy shares with the node whatever pods were added so far:
// upstream hands AddPod the copy with the pods added up to that one, here
// it gets the copy with all of them, and reads the same.
//
// A copy is kept while its NodeInfo is the same object at the same
// generation, holding the same Node, and the nominated PodInfos are the
// same objects: across cycles and Refresh, as a simulation places pod
// after pod (the lister overwrites a changed node's NodeInfo in place with
// a new generation, and SetPending hands the nominator one PodInfo per
// pod object, podInfoOf). Copies of an older generation are dropped when
// the node is next asked for, and every copy when the lister rebuilds its
// list (nodes added or removed). Input.EvaluateEach makes a copy for
// every pod and node, as upstream does.
type nominatedCopies struct {
	off    bool
	shared *sharedResults
	mu     sync.Mutex
	byNode map[fwk.NodeInfo][]nominatedCopy
	// of is the lister's list the copies were made over.
	of []fwk.NodeInfo
	// table is the nominations by the lister's positions, made of the
	// nominator's published nominations over list.
	table     [][]fwk.PodInfo
	published *map[string][]fwk.PodInfo
	list      []fwk.NodeInfo
	// positions are list's positions by node name; filled the positions
	// of table that hold nominations. A cycle reads the table only while
	// it runs, and cycles of one Evaluator never overlap, so the table is
	// rewritten in place.
	positions map[string]int
	filled    []int
	// hits counts the copies served again (for tests).
	hits atomic.Int64
}

type nominatedCopy struct {
	added []fwk.PodInfo
	gen   int64
	node  *v1.Node
	ni    fwk.NodeInfo
}

// maxCopiesPerNode bounds the copies kept for one NodeInfo: pods of
// different priorities add different subsets of its nominated pods.
const maxCopiesPerNode = 8

func newNominatedCopies(s *sharedResults) *nominatedCopies {
	n := &nominatedCopies{off: s.off, shared: s, byNode: map[fwk.NodeInfo][]nominatedCopy{}}
	s.memos = append(s.memos, n)
	return n
}

func (n *nominatedCopies) unbind() {}

// forgetAll drops the copies only when the lister's list is not the one
// they were made over: otherwise each copy still says whether it holds
// (get).
func (n *nominatedCopies) forgetAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if list := n.shared.lister.list; !sameSlice(n.of, list) {
		clear(n.byNode)
		n.of = list
	}
}

// get is ni with added added, in order: a copy kept from an earlier pod,
// else a new one.
func (n *nominatedCopies) get(ni fwk.NodeInfo, added []fwk.PodInfo) fwk.NodeInfo {
	if n.off {
		return withPods(ni, added)
	}
	gen, node := ni.GetGeneration(), ni.Node()
	n.mu.Lock()
	defer n.mu.Unlock()
	kept := slices.DeleteFunc(n.byNode[ni], func(c nominatedCopy) bool { return c.gen != gen || c.node != node })
	for _, c := range kept {
		if slices.Equal(c.added, added) {
			n.hits.Add(1)
			n.byNode[ni] = kept
			return c.ni
		}
	}
	if len(kept) == maxCopiesPerNode {
		kept = slices.Delete(kept, 0, 1)
	}
	out := withPods(ni, added)
	n.byNode[ni] = append(kept, nominatedCopy{added: added, gen: gen, node: node, ni: out})
	return out
}

func withPods(ni fwk.NodeInfo, pods []fwk.PodInfo) fwk.NodeInfo {
	out := ni.Snapshot()
	for _, pi := range pods {
		out.AddPodInfo(pi)
	}
	return out
}

// nominatedAt are the pods nominated to each of list's nodes by position,
// as the nominator publishes them (NominatedPodsForNode reads the same):
// looked up by name once per change of the nominations or of the list,
// not for every node every cycle filters. Nil when nothing is published
// (no nominations, or none published yet): the cycle then asks by name.
// Called before a cycle's filter goroutines start.
func (n *nominatedCopies) nominatedAt(nom *nominator, list []fwk.NodeInfo) [][]fwk.PodInfo {
	published := nom.published.Load()
	if published == nil || !nom.any.Load() {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !sameSlice(n.list, list) {
		n.positions = make(map[string]int, len(list))
		for i, ni := range list {
			n.positions[ni.Node().Name] = i
		}
		n.table, n.filled, n.published = make([][]fwk.PodInfo, len(list)), nil, nil
		n.list = list
	}
	if n.published != published {
		// A simulation publishes new nominations before every placement:
		// rewrite only the positions of the nominated nodes, a few, not
		// the whole table (5,000 name lookups a cycle at 5,000 nodes).
		for _, i := range n.filled {
			n.table[i] = nil
		}
		n.filled = n.filled[:0]
		for name, pods := range *published {
			if i, ok := n.positions[name]; ok && len(pods) > 0 {
				n.table[i] = slices.Clip(pods)
				n.filled = append(n.filled, i)
			}
		}
		n.published = published
	}
	return n.table
}
