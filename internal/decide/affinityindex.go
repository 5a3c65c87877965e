package decide

import (
	"context"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	fwk "k8s.io/kube-scheduler/framework"
)

// termNamespaces is where a pod's affinity terms can match pods: the
// namespaces they name (sorted, each once), or any namespace (any) when
// one of them has a namespaceSelector. A pod without terms has neither.
// Terms name one or two namespaces, so a slice beats a set.
type termNamespaces struct {
	names []string
	any   bool
}

func (t termNamespaces) equal(o termNamespaces) bool {
	return t.any == o.any && slices.Equal(t.names, o.names)
}

func (t termNamespaces) has(ns string) bool {
	return t.any || slices.Contains(t.names, ns)
}

// namespacesOf reads pod's terms the way the framework parses them
// (kube-scheduler/framework types.go, getNamespacesFromPodAffinityTerm): a
// term with neither namespaces nor namespaceSelector is for the pod's own
// namespace. All four kinds count: required and preferred, affinity and
// anti-affinity.
func namespacesOf(pod *v1.Pod) termNamespaces {
	var out termNamespaces
	eachTerm(pod, func(t *v1.PodAffinityTerm) {
		switch {
		case t.NamespaceSelector != nil:
			out.any = true
		case len(t.Namespaces) == 0:
			out.names = append(out.names, pod.Namespace)
		default:
			out.names = append(out.names, t.Namespaces...)
		}
	})
	slices.Sort(out.names)
	out.names = slices.Compact(out.names)
	return out
}

// eachTerm calls f on each of pod's pod affinity and anti-affinity terms,
// required and preferred.
func eachTerm(pod *v1.Pod, f func(*v1.PodAffinityTerm)) {
	a := pod.Spec.Affinity
	if a == nil {
		return
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
			f(&terms[i])
		}
	}
	for _, terms := range weighted {
		for i := range terms {
			f(&terms[i].PodAffinityTerm)
		}
	}
}

// podKind names one of a NodeInfo's three pod lists.
type podKind int

const (
	allPods podKind = iota
	podsWithAffinity
	podsWithAntiAffinity
)

// podEntry is a pod of a node with what the view asks of it.
type podEntry struct {
	pod       fwk.PodInfo
	namespace string
	terms     termNamespaces
}

// nodeNamespaces summarizes a NodeInfo at a generation: the namespaces of
// its pods, those its pods' terms name (anyTerms: a term has a
// namespaceSelector), and an entry per pod of each of its lists, in the
// lists' order.
type nodeNamespaces struct {
	valid      bool
	generation int64
	pods       []string
	terms      []string
	anyTerms   bool
	entries    [3][]podEntry
}

func summarize(ni fwk.NodeInfo) nodeNamespaces {
	pods := ni.GetPods()
	s := nodeNamespaces{valid: true, generation: ni.GetGeneration()}
	s.entries[allPods], s.pods = make([]podEntry, 0, len(pods)), make([]string, 0, len(pods))
	// The entries of the pods with affinity terms are looked up by pod; a
	// node without such pods (most) needs no table.
	var byPod map[fwk.PodInfo]podEntry
	if len(ni.GetPodsWithAffinity())+len(ni.GetPodsWithRequiredAntiAffinity()) > 0 {
		byPod = make(map[fwk.PodInfo]podEntry, len(pods))
	}
	for _, pi := range pods {
		p := pi.GetPod()
		e := podEntry{pod: pi, namespace: p.Namespace, terms: namespacesOf(p)}
		if byPod != nil {
			byPod[pi] = e
		}
		s.entries[allPods] = append(s.entries[allPods], e)
		s.pods = append(s.pods, p.Namespace)
		s.terms = append(s.terms, e.terms.names...)
		s.anyTerms = s.anyTerms || e.terms.any
	}
	for _, kind := range []podKind{podsWithAffinity, podsWithAntiAffinity} {
		for _, pi := range podsOf(ni, kind) {
			e, ok := byPod[pi]
			if !ok { // not in GetPods: cannot happen in a NodeInfo the lister built
				p := pi.GetPod()
				e = podEntry{pod: pi, namespace: p.Namespace, terms: namespacesOf(p)}
			}
			s.entries[kind] = append(s.entries[kind], e)
		}
	}
	slices.Sort(s.pods)
	slices.Sort(s.terms)
	s.pods, s.terms = slices.Compact(s.pods), slices.Compact(s.terms)
	return s
}

func podsOf(ni fwk.NodeInfo, kind podKind) []fwk.PodInfo {
	switch kind {
	case podsWithAffinity:
		return ni.GetPodsWithAffinity()
	case podsWithAntiAffinity:
		return ni.GetPodsWithRequiredAntiAffinity()
	}
	return ni.GetPods()
}

// namespaceIndex finds the nodes of the lister's list (by position) that
// hold pods of a namespace, or pods whose terms name it.
//
// It keeps each NodeInfo's summary in a slot of its own for as long as the
// lister lists that NodeInfo, so that a list rebuilt with the same
// NodeInfos in another order, or with a node more or less (a scale-down
// simulation removes a node and may put it back before every candidate's
// cycles), costs one look-up per node and a summary of only the nodes that
// are new or changed, not a summary of every pod of the cluster again.
type namespaceIndex struct {
	slots  []nodeNamespaces
	infos  []fwk.NodeInfo // the NodeInfo of each slot; nil when free
	slotOf map[fwk.NodeInfo]int
	free   []int
	// at is the slot of each position of the list; pos the position of
	// each slot in it.
	at, pos []int
	// pods, terms and anyTerms hold slots.
	pods     map[string]map[int]struct{}
	terms    map[string]map[int]struct{}
	anyTerms map[int]struct{}
}

// newNamespaceIndex indexes the nodes of list, summarizing them on workers
// goroutines (at 5,000 nodes / 150,000 pods, half a second of one core
// when the view first prunes).
func newNamespaceIndex(list []fwk.NodeInfo, workers int) *namespaceIndex {
	x := &namespaceIndex{
		slotOf: make(map[fwk.NodeInfo]int, len(list)),
		pods:   map[string]map[int]struct{}{}, terms: map[string]map[int]struct{}{}, anyTerms: map[int]struct{}{},
	}
	x.relist(list, workers)
	return x
}

// relist follows a rebuilt list: the slots of the NodeInfos no longer
// listed are freed, the NodeInfos new to the index or whose generation
// changed are summarized (on workers goroutines), the others keep their
// summaries.
func (x *namespaceIndex) relist(list []fwk.NodeInfo, workers int) {
	for s := range x.pos {
		x.pos[s] = -1
	}
	x.at = slices.Grow(x.at[:0], len(list))
	var stale []int // positions to summarize
	for i, ni := range list {
		s, ok := x.slotOf[ni]
		if !ok {
			s = x.take(ni)
		}
		x.at, x.pos[s] = append(x.at, s), i
		if old := &x.slots[s]; !old.valid || old.generation != ni.GetGeneration() {
			stale = append(stale, i)
		}
	}
	for s, ni := range x.infos {
		if ni != nil && x.pos[s] < 0 {
			x.set(s, nodeNamespaces{})
			delete(x.slotOf, ni)
			x.infos[s] = nil
			x.free = append(x.free, s)
		}
	}
	summaries := make([]nodeNamespaces, len(stale))
	workqueue.ParallelizeUntil(context.Background(), workers, len(stale), func(k int) {
		summaries[k] = summarize(list[stale[k]])
	})
	for k, i := range stale {
		x.set(x.at[i], summaries[k])
	}
}

// take gives ni a slot, a free one when there is.
func (x *namespaceIndex) take(ni fwk.NodeInfo) int {
	var s int
	if n := len(x.free); n > 0 {
		s, x.free = x.free[n-1], x.free[:n-1]
		x.infos[s] = ni
	} else {
		s = len(x.slots)
		x.slots, x.infos, x.pos = append(x.slots, nodeNamespaces{}), append(x.infos, ni), append(x.pos, -1)
	}
	x.slotOf[ni] = s
	return s
}

// node is the summary of the node at position i of the list.
func (x *namespaceIndex) node(i int) *nodeNamespaces { return &x.slots[x.at[i]] }

// update re-indexes node i, ni, if its generation changed since.
func (x *namespaceIndex) update(i int, ni fwk.NodeInfo) {
	if old := x.node(i); old.valid && old.generation == ni.GetGeneration() {
		return
	}
	x.set(x.at[i], summarize(ni))
}

// set makes now slot s's summary.
func (x *namespaceIndex) set(s int, now nodeNamespaces) {
	old := &x.slots[s]
	move(x.pods, s, old.pods, now.pods)
	move(x.terms, s, old.terms, now.terms)
	if now.anyTerms {
		x.anyTerms[s] = struct{}{}
	} else {
		delete(x.anyTerms, s)
	}
	*old = now
}

// move takes slot i out of index's sets of namespaces old and into those
// of now.
func move(index map[string]map[int]struct{}, i int, old, now []string) {
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

// candidates returns, in list order, the positions of the nodes that hold
// a pod the terms own can match, or a pod whose terms can match a pod of
// namespace ns.
func (x *namespaceIndex) candidates(own termNamespaces, ns string) []int {
	if own.any {
		var out []int
		for i := range x.at {
			if len(x.node(i).pods) > 0 {
				out = append(out, i)
			}
		}
		return out
	}
	groups := []map[int]struct{}{x.terms[ns], x.anyTerms}
	for _, name := range own.names {
		groups = append(groups, x.pods[name])
	}
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	out := make([]int, 0, n)
	for _, g := range groups {
		for s := range g {
			out = append(out, x.pos[s])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
