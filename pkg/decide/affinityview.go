package decide

import (
	"context"
	"slices"

	v1 "k8s.io/api/core/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
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
// 150,000 pods that was half the CPU of placing the pending pods one after
// the other (docs/PERFORMANCE.md, "simulate at 5,000 nodes").
//
// Most of those pods cannot change the result: an affinity term only ever
// matches pods of the namespaces it names (its own pod's namespace when it
// names none), unless it has a namespaceSelector. So the plugin runs as it
// is, but reads the cluster through an affinityView that, for the pod whose
// PreFilter or PreScore runs, leaves out every pod that no term can match:
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
// plugin's PreFilter and PreScore); unfocused, it is the full lister.
// Like the Evaluator, it is not safe for concurrent use.
type affinityView struct {
	full *lister
	pod  *v1.Pod
	// index of the namespaces on each node of the lister's list (indexOf).
	index   *namespaceIndex
	indexOf []fwk.NodeInfo
	// lists built for pod at the lister's refresh count; nil until asked.
	built                       *v1.Pod
	builtAt                     int64
	all, withAffinity, withAnti []fwk.NodeInfo
}

var (
	_ fwk.SharedLister   = &affinityView{}
	_ fwk.NodeInfoLister = &affinityView{}
)

func newAffinityView(full *lister) *affinityView {
	return &affinityView{full: full}
}

// focus makes the view the cluster as the plugin needs it for pod.
func (v *affinityView) focus(pod *v1.Pod) { v.pod = pod }

func (v *affinityView) NodeInfos() fwk.NodeInfoLister           { return v }
func (v *affinityView) StorageInfos() fwk.StorageInfoLister     { return v.full }
func (v *affinityView) PodGroupStates() fwk.PodGroupStateLister { return v.full.PodGroupStates() }
func (v *affinityView) Get(name string) (fwk.NodeInfo, error)   { return v.full.Get(name) }

// List: every node with a pod the focused pod's terms can match or whose
// terms can match it, holding only such pods.
func (v *affinityView) List() ([]fwk.NodeInfo, error) {
	if v.pod == nil {
		return v.full.list, nil
	}
	v.build()
	if v.all == nil {
		v.all = v.prune(allPods)
	}
	return v.all, nil
}

// HavePodsWithAffinityList: the same, among the nodes with pods with affinity.
func (v *affinityView) HavePodsWithAffinityList() ([]fwk.NodeInfo, error) {
	if v.pod == nil {
		return v.full.affinity, nil
	}
	v.build()
	if v.withAffinity == nil {
		v.withAffinity = v.prune(podsWithAffinity)
	}
	return v.withAffinity, nil
}

// HavePodsWithRequiredAntiAffinityList: the same, among the nodes with pods
// with required anti-affinity.
func (v *affinityView) HavePodsWithRequiredAntiAffinityList() ([]fwk.NodeInfo, error) {
	if v.pod == nil {
		return v.full.antiAff, nil
	}
	v.build()
	if v.withAnti == nil {
		v.withAnti = v.prune(podsWithAntiAffinity)
	}
	return v.withAnti, nil
}

// build forgets lists built for another pod or an older state, and brings
// the namespace index up to date.
func (v *affinityView) build() {
	if v.built == v.pod && v.builtAt == v.full.refreshes {
		return
	}
	v.built, v.builtAt = v.pod, v.full.refreshes
	v.all, v.withAffinity, v.withAnti = nil, nil, nil
	if !sameNodeInfos(v.indexOf, v.full.list) {
		v.index, v.indexOf = newNamespaceIndex(len(v.full.list)), v.full.list
	}
	v.index.update(v.full.list)
}

func sameNodeInfos(a, b []fwk.NodeInfo) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// termNamespaces is where a pod's affinity terms can match pods: the
// namespaces they name, or any namespace (any) when one of them has a
// namespaceSelector. A pod without terms has neither.
type termNamespaces struct {
	names sets.Set[string]
	any   bool
}

func (t termNamespaces) has(ns string) bool { return t.any || t.names.Has(ns) }

// namespacesOf reads pod's terms the way the framework parses them
// (kube-scheduler/framework types.go, getNamespacesFromPodAffinityTerm): a
// term with neither namespaces nor namespaceSelector is for the pod's own
// namespace. All four kinds count: required and preferred, affinity and
// anti-affinity.
func namespacesOf(pod *v1.Pod) termNamespaces {
	var out termNamespaces
	anyTerm(pod, func(t *v1.PodAffinityTerm) bool {
		switch {
		case t.NamespaceSelector != nil:
			out.any = true
		case len(t.Namespaces) == 0:
			out.names = insert(out.names, pod.Namespace)
		default:
			out.names = insert(out.names, t.Namespaces...)
		}
		return false
	})
	return out
}

func insert(s sets.Set[string], names ...string) sets.Set[string] {
	if s == nil {
		s = sets.New[string]()
	}
	return s.Insert(names...)
}

// termsNameNamespace reports whether one of pod's terms can match a pod of
// namespace ns (namespacesOf(pod).has(ns), without building the set).
func termsNameNamespace(pod *v1.Pod, ns string) bool {
	return anyTerm(pod, func(t *v1.PodAffinityTerm) bool {
		switch {
		case t.NamespaceSelector != nil:
			return true
		case len(t.Namespaces) == 0:
			return pod.Namespace == ns
		}
		return slices.Contains(t.Namespaces, ns)
	})
}

// anyTerm reports whether f holds for one of pod's pod affinity and
// anti-affinity terms, required or preferred, calling it on each in turn.
func anyTerm(pod *v1.Pod, f func(*v1.PodAffinityTerm) bool) bool {
	a := pod.Spec.Affinity
	if a == nil {
		return false
	}
	var required [2][]v1.PodAffinityTerm
	var weighted [2][]v1.WeightedPodAffinityTerm
	if pa := a.PodAffinity; pa != nil {
		required[0], weighted[0] = pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if pa := a.PodAntiAffinity; pa != nil {
		required[1], weighted[1] = pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution
	}
	for _, terms := range required {
		for i := range terms {
			if f(&terms[i]) {
				return true
			}
		}
	}
	for _, terms := range weighted {
		for i := range terms {
			if f(&terms[i].PodAffinityTerm) {
				return true
			}
		}
	}
	return false
}

// candidates returns, in list order, the positions in the lister's list of
// the nodes that hold a pod the focused pod's terms (own) can match or
// whose terms can match it.
func (v *affinityView) candidates(own termNamespaces) []int {
	if own.any {
		return v.index.nonEmpty()
	}
	groups := []map[int]struct{}{v.index.terms[v.pod.Namespace], v.index.anyTerms}
	for ns := range own.names {
		groups = append(groups, v.index.pods[ns])
	}
	return unionSorted(groups)
}

func unionSorted(sets []map[int]struct{}) []int {
	n := 0
	for _, s := range sets {
		n += len(s)
	}
	out := make([]int, 0, n)
	for _, s := range sets {
		for i := range s {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// podKind names one of a NodeInfo's three pod lists.
type podKind int

const (
	allPods podKind = iota
	podsWithAffinity
	podsWithAntiAffinity
)

func podsOf(ni fwk.NodeInfo, kind podKind) []fwk.PodInfo {
	switch kind {
	case podsWithAffinity:
		return ni.GetPodsWithAffinity()
	case podsWithAntiAffinity:
		return ni.GetPodsWithRequiredAntiAffinity()
	}
	return ni.GetPods()
}

// prune returns the nodes of the lister that hold a pod of kind that
// matters to the focused pod: pods its terms (own) can match, or whose
// terms can match it. A node that keeps all of them is itself; the others
// are prunedNodes. The order is the lister's (the lists of each kind are
// in the node list's order).
func (v *affinityView) prune(kind podKind) []fwk.NodeInfo {
	own := namespacesOf(v.pod)
	ns := v.pod.Namespace
	keep := func(p *v1.Pod) bool { return own.has(p.Namespace) || termsNameNamespace(p, ns) }
	var out []fwk.NodeInfo
	for _, i := range v.candidates(own) {
		ni := v.full.list[i]
		all := podsOf(ni, kind)
		if len(all) == 0 {
			continue
		}
		pn := &prunedNode{NodeInfo: ni, keep: keep}
		k := pn.list(kind)
		switch {
		case len(k) == 0:
		case len(k) == len(all):
			out = append(out, ni)
		default:
			out = append(out, pn)
		}
	}
	return out
}

// prunedNode is a NodeInfo whose pod lists hold only the pods keep keeps,
// each filtered when first read.
type prunedNode struct {
	fwk.NodeInfo
	keep  func(*v1.Pod) bool
	lists [3][]fwk.PodInfo
	done  [3]bool
}

func (n *prunedNode) GetPods() []fwk.PodInfo             { return n.list(allPods) }
func (n *prunedNode) GetPodsWithAffinity() []fwk.PodInfo { return n.list(podsWithAffinity) }
func (n *prunedNode) GetPodsWithRequiredAntiAffinity() []fwk.PodInfo {
	return n.list(podsWithAntiAffinity)
}

func (n *prunedNode) list(kind podKind) []fwk.PodInfo {
	if !n.done[kind] {
		for _, pi := range podsOf(n.NodeInfo, kind) {
			if n.keep(pi.GetPod()) {
				n.lists[kind] = append(n.lists[kind], pi)
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

func (p *affinityPlugin) PreFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	p.view.focus(pod)
	return p.InterPodAffinity.PreFilter(ctx, state, pod, nodes)
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

// namespaceIndex finds the nodes of the lister's list (by position) that
// hold pods of a namespace, or pods whose terms name it.
type namespaceIndex struct {
	nodes    []nodeNamespaces
	pods     map[string]map[int]struct{}
	terms    map[string]map[int]struct{}
	anyTerms map[int]struct{}
}

// nodeNamespaces summarizes a NodeInfo at a generation: the namespaces of
// its pods, and those its pods' terms name (anyTerms: a term has a
// namespaceSelector).
type nodeNamespaces struct {
	valid      bool
	generation int64
	pods       []string
	terms      []string
	anyTerms   bool
}

func newNamespaceIndex(n int) *namespaceIndex {
	return &namespaceIndex{
		nodes: make([]nodeNamespaces, n),
		pods:  map[string]map[int]struct{}{}, terms: map[string]map[int]struct{}{}, anyTerms: map[int]struct{}{},
	}
}

// update re-indexes the nodes whose generation changed since.
func (x *namespaceIndex) update(list []fwk.NodeInfo) {
	for i, ni := range list {
		old := &x.nodes[i]
		if old.valid && old.generation == ni.GetGeneration() {
			continue
		}
		now := summarize(ni)
		x.move(x.pods, i, old.pods, now.pods)
		x.move(x.terms, i, old.terms, now.terms)
		if now.anyTerms {
			x.anyTerms[i] = struct{}{}
		} else {
			delete(x.anyTerms, i)
		}
		*old = now
	}
}

func summarize(ni fwk.NodeInfo) nodeNamespaces {
	s := nodeNamespaces{valid: true, generation: ni.GetGeneration()}
	for _, pi := range ni.GetPods() {
		p := pi.GetPod()
		s.pods = append(s.pods, p.Namespace)
		t := namespacesOf(p)
		s.anyTerms = s.anyTerms || t.any
		s.terms = append(s.terms, t.names.UnsortedList()...)
	}
	slices.Sort(s.pods)
	slices.Sort(s.terms)
	s.pods, s.terms = slices.Compact(s.pods), slices.Compact(s.terms)
	return s
}

// move takes node i out of the sets of namespaces old and into those of now.
func (x *namespaceIndex) move(index map[string]map[int]struct{}, i int, old, now []string) {
	for _, ns := range old {
		delete(index[ns], i)
		if len(index[ns]) == 0 {
			delete(index, ns)
		}
	}
	for _, ns := range now {
		if index[ns] == nil {
			index[ns] = map[int]struct{}{}
		}
		index[ns][i] = struct{}{}
	}
}

// nonEmpty lists the positions of the nodes with pods.
func (x *namespaceIndex) nonEmpty() []int {
	var out []int
	for i, n := range x.nodes {
		if len(n.pods) > 0 {
			out = append(out, i)
		}
	}
	return out
}
