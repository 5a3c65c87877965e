package decide

import (
	"context"
	"slices"

	v1 "k8s.io/api/core/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/workqueue"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/interpodaffinity"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// InterPodAffinity (plugins/interpodaffinity, v1.36) is the one default
// plugin whose cost grows with every pod of the cluster on every cycle:
// PreScore walks all pods of all nodes when the incoming pod has preferred
// (anti-)affinity terms, and otherwise every pod with affinity terms;
// PreFilter walks every pod with required anti-affinity. At 5,000 nodes and
// 150,000 pods that was the largest cost of placing the pending pods one
// after the other (docs/PERFORMANCE.md#decisions).
//
// Most of those pods cannot change the result: an affinity term only ever
// matches pods of the namespaces it names (its own pod's namespace when it
// names none), unless it has a namespaceSelector. So the plugin runs as it
// is, but reads the cluster through an affinityView that, for the pod whose
// PreFilter or PreScore runs, leaves out every pod that no term can match
// (also from the node list PreFilter is given):
//
//   - a pod outside the namespaces of the incoming pod's terms, whose own
//     terms do not name the incoming pod's namespace (and none has a
//     namespaceSelector).
//
// Everything those walks compute is a sum over the pods a term matches
// (counts per topology value, weights per topology value) and "did any
// node contribute", so leaving out pods that match nothing gives the same
// counts, the same scores and the same Skip. TestAffinityViewKeepsVerdicts
// checks it against the full lister on random clusters.
//
// The framework's own lister (lister) stays complete: every other plugin,
// and the node list the framework passes to PreFilter, see every pod.

// affinityView is the fwk.SharedLister the InterPodAffinity plugin is
// built with. It is focused on a pod (affinityPlugin does so before the
// plugin's PreFilter and PreScore); unfocused, or for the first pods (warmup),
// it is the full lister.
// Like the Evaluator, it is not safe for concurrent use.
type affinityView struct {
	full *lister
	pod  *v1.Pod
	// pods counts the pods focused on; the view prunes from the one after
	// warmup on. Indexing 150,000 pods takes about ten cycles' worth of the
	// walks it saves, so "why POD" and other short runs read the full lists.
	pods, warmup int
	// index of the namespaces on each node of the lister's list (indexOf),
	// up to date with the lister's first indexed changes.
	index   *namespaceIndex
	indexOf []fwk.NodeInfo
	indexed int
	// lists of each podKind built at the lister's refresh count for pods
	// of namespace builtNS whose terms name builtOwn: what prune reads of
	// a pod, so the pods of one namespace and terms share them.
	builtNS  string
	builtOwn termNamespaces
	builtAt  int64
	lists    [3][]fwk.NodeInfo
	done     [3]bool
	// minPiece: minPrunePiece, but for tests.
	minPiece int
}

var (
	_ fwk.SharedLister   = &affinityView{}
	_ fwk.NodeInfoLister = &affinityView{}
)

func newAffinityView(full *lister) *affinityView {
	return &affinityView{full: full, warmup: affinityViewWarmup, minPiece: minPrunePiece}
}

// affinityViewWarmup is how many pods the view passes the full lists for.
const affinityViewWarmup = 32

// focus makes the view the cluster as the plugin needs it for pod.
func (v *affinityView) focus(pod *v1.Pod) {
	if pod != v.pod && pod != nil {
		v.pods++
	}
	v.pod = pod
}

// pruning reports whether the lists are pruned for the focused pod.
func (v *affinityView) pruning() bool { return v.pod != nil && v.pods > v.warmup }

func (v *affinityView) NodeInfos() fwk.NodeInfoLister           { return v }
func (v *affinityView) StorageInfos() fwk.StorageInfoLister     { return v.full }
func (v *affinityView) PodGroupStates() fwk.PodGroupStateLister { return v.full.PodGroupStates() }
func (v *affinityView) Get(name string) (fwk.NodeInfo, error)   { return v.full.Get(name) }

// List: every node with a pod the focused pod's terms can match or whose
// terms can match it, holding only such pods.
func (v *affinityView) List() ([]fwk.NodeInfo, error) {
	if !v.pruning() {
		return v.full.list, nil
	}
	return v.nodes(allPods), nil
}

// HavePodsWithAffinityList: the same, among the nodes with pods with affinity.
func (v *affinityView) HavePodsWithAffinityList() ([]fwk.NodeInfo, error) {
	if !v.pruning() {
		return v.full.affinity, nil
	}
	return v.nodes(podsWithAffinity), nil
}

// HavePodsWithRequiredAntiAffinityList: the same, among the nodes with pods
// with required anti-affinity.
func (v *affinityView) HavePodsWithRequiredAntiAffinityList() ([]fwk.NodeInfo, error) {
	if !v.pruning() {
		return v.full.antiAff, nil
	}
	return v.nodes(podsWithAntiAffinity), nil
}

// nodes returns the pruned list of kind, built once per namespace and
// terms of the focused pod and state: lists built for pods another
// namespace or other terms, or before a refresh, are dropped, and the
// namespace index is brought up to date.
func (v *affinityView) nodes(kind podKind) []fwk.NodeInfo {
	own := namespacesOf(v.pod)
	if v.builtNS != v.pod.Namespace || !own.equal(v.builtOwn) || v.builtAt != v.full.refreshes || v.index == nil {
		v.builtNS, v.builtOwn, v.builtAt = v.pod.Namespace, own, v.full.refreshes
		v.lists, v.done = [3][]fwk.NodeInfo{}, [3]bool{}
		v.updateIndex()
	}
	if !v.done[kind] {
		v.lists[kind], v.done[kind] = v.prune(kind), true
	}
	return v.lists[kind]
}

// updateIndex follows the lister: its list rebuilt, the index keeps the
// summaries of the NodeInfos still listed (relist); else it re-indexes the
// nodes the lister overwrote since.
func (v *affinityView) updateIndex() {
	switch {
	case v.index == nil:
		v.index = newNamespaceIndex(v.full.list, v.full.workers)
	case !sameSlice(v.indexOf, v.full.list):
		v.index.relist(v.full.list, v.full.workers)
	}
	if !sameSlice(v.indexOf, v.full.list) {
		v.indexOf, v.indexed = v.full.list, len(v.full.changed)
		return
	}
	for _, i := range v.full.changed[v.indexed:] {
		v.index.update(i, v.full.list[i])
	}
	v.indexed = len(v.full.changed)
}

// prune returns, in the lister's order, the nodes that hold a pod of kind
// that matters to a pod of namespace builtNS whose terms name builtOwn: a
// pod those terms can match, or whose terms can match a pod there. A node
// that keeps all its pods of kind is itself; the others are prunedNodes.
//
// It runs before PreFilter and PreScore, on the cycle's own goroutine
// with the other cores idle, and walks every pod of the candidate nodes,
// so the nodes are pruned in pieces on the lister's workers and the pieces
// joined in order.
func (v *affinityView) prune(kind podKind) []fwk.NodeInfo {
	own, ns := v.builtOwn, v.builtNS
	keep := func(e *podEntry) bool { return own.has(e.namespace) || e.terms.has(ns) }
	candidates := v.index.candidates(own, ns)
	pieces := 1
	if len(candidates) >= v.minPiece*2 && v.full.workers > 1 {
		pieces = min(len(candidates)/v.minPiece, 4*v.full.workers)
	}
	out := make([][]fwk.NodeInfo, pieces)
	piece := func(p int) {
		lo, hi := p*len(candidates)/pieces, (p+1)*len(candidates)/pieces
		for _, i := range candidates[lo:hi] {
			if n := v.pruneNode(i, kind, keep); n != nil {
				out[p] = append(out[p], n)
			}
		}
	}
	if pieces == 1 { // no worker to start for a few nodes
		piece(0)
		return out[0]
	}
	workqueue.ParallelizeUntil(context.Background(), v.full.workers, pieces, piece)
	return slices.Concat(out...)
}

// minPrunePiece is the fewest candidate nodes prune hands a worker
// (affinityView.minPiece): below it, starting the workers costs more than
// the walk.
const minPrunePiece = 128

// pruneNode is the node at list position i as prune lists it: itself,
// a prunedNode, or nil when it keeps no pod of kind.
func (v *affinityView) pruneNode(i int, kind podKind, keep func(*podEntry) bool) fwk.NodeInfo {
	entries := &v.index.node(i).entries
	if len(entries[kind]) == 0 {
		return nil
	}
	pn := &prunedNode{NodeInfo: v.full.list[i], keep: keep, entries: entries}
	switch kept := pn.list(kind); len(kept) {
	case 0:
		return nil
	case len(entries[kind]):
		return pn.NodeInfo
	}
	return pn
}

// prunedNode is a NodeInfo whose pod lists hold only the pods keep keeps,
// each list filtered when first read.
type prunedNode struct {
	fwk.NodeInfo
	keep    func(*podEntry) bool
	entries *[3][]podEntry
	lists   [3][]fwk.PodInfo
	done    [3]bool
}

func (n *prunedNode) GetPods() []fwk.PodInfo             { return n.list(allPods) }
func (n *prunedNode) GetPodsWithAffinity() []fwk.PodInfo { return n.list(podsWithAffinity) }
func (n *prunedNode) GetPodsWithRequiredAntiAffinity() []fwk.PodInfo {
	return n.list(podsWithAntiAffinity)
}

func (n *prunedNode) list(kind podKind) []fwk.PodInfo {
	if !n.done[kind] {
		for i := range n.entries[kind] {
			if e := &n.entries[kind][i]; n.keep(e) {
				n.lists[kind] = append(n.lists[kind], e.pod)
			}
		}
		n.done[kind] = true
	}
	return n.lists[kind]
}

// affinityPlugin is the in-tree InterPodAffinity plugin, every method its
// own, focusing its view on the pod before PreFilter and PreScore read it.
type affinityPlugin struct {
	*interpodaffinity.InterPodAffinity
	view *affinityView
}

// PreFilter also hands the plugin the view's node list in place of the
// framework's: the plugin walks it only to count the existing pods that
// match the pod's required terms (getIncomingAffinityAntiAffinityCounts),
// and only when the pod has such terms.
func (p *affinityPlugin) PreFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	p.view.focus(pod)
	if hasRequiredTerms(pod) {
		nodes, _ = p.view.List()
	}
	return p.InterPodAffinity.PreFilter(ctx, state, pod, nodes)
}

func hasRequiredTerms(pod *v1.Pod) bool {
	return len(fwk.GetPodAffinityTerms(pod.Spec.Affinity)) > 0 || len(fwk.GetPodAntiAffinityTerms(pod.Spec.Affinity)) > 0
}

func (p *affinityPlugin) PreScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) *fwk.Status {
	p.view.focus(pod)
	return p.InterPodAffinity.PreScore(ctx, state, pod, nodes)
}

// viewHandle hands the plugin the view instead of the framework's lister.
type viewHandle struct {
	fwk.Handle
	view *affinityView
}

func (h viewHandle) SnapshotSharedLister() fwk.SharedLister { return h.view }

// withAffinityView replaces registry's InterPodAffinity factory by one that
// builds the in-tree plugin over view.
func withAffinityView(registry frameworkruntime.Registry, view *affinityView) {
	inTree := registry[names.InterPodAffinity]
	registry[names.InterPodAffinity] = func(ctx context.Context, args k8sruntime.Object, h fwk.Handle) (fwk.Plugin, error) {
		pl, err := inTree(ctx, args, viewHandle{Handle: h, view: view})
		if err != nil {
			return nil, err
		}
		return &affinityPlugin{InterPodAffinity: pl.(*interpodaffinity.InterPodAffinity), view: view}, nil
	}
}
