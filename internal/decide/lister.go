package decide

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// lister is the framework's view of the cluster (fwk.SharedLister): the
// converted NodeInfos of a cache Snapshot, in the Snapshot's NodeTree order,
// which is the order the scheduler scans nodes in (upstream
// backend/cache/snapshot.go keeps the same lists). refresh brings it up to
// date with a newer Snapshot, converting only NodeInfos whose generation
// changed.
//
// Like upstream's Snapshot, a node's converted NodeInfo is one object for
// the lister's life, overwritten in place when the node changes, so the
// lists hold valid pointers and are rebuilt only when the Snapshot rebuilt
// its own (nodes added or removed, a node gaining or losing its last pod
// with affinity): a simulation refreshes after every assumed pod, and at
// 5,000 nodes rebuilding the lists and the name index each time cost more
// than converting the one changed node.
type lister struct {
	// workers convert new nodes in parallel (the first refresh converts
	// every node and pod of the cluster).
	workers  int
	list     []fwk.NodeInfo
	byName   map[string]*framework.NodeInfo
	affinity []fwk.NodeInfo
	antiAff  []fwk.NodeInfo
	usedPVCs sets.Set[string]
	// src are the Snapshot's lists the lister's were built from.
	src struct{ list, affinity, antiAff []*cache.NodeInfo }
	// refreshes counts refresh calls that changed a NodeInfo or a list.
	refreshes int64
	// changed logs the positions in list of the NodeInfos overwritten
	// since list was built, for the affinity view's index.
	changed []int
}

var (
	_ fwk.SharedLister      = &lister{}
	_ fwk.NodeInfoLister    = &lister{}
	_ fwk.StorageInfoLister = &lister{}
)

func newLister(workers int) *lister {
	return &lister{workers: workers, byName: map[string]*framework.NodeInfo{}}
}

// refresh makes the lister reflect s.
func (l *lister) refresh(s *cache.Snapshot) {
	changed, rebuilt := false, false
	nodes := s.List()
	if !sameSlice(nodes, l.src.list) {
		l.rebuild(nodes)
		changed, rebuilt = true, true
	} else {
		for i, ni := range nodes {
			if l.update(l.list[i].(*framework.NodeInfo), ni) {
				l.changed = append(l.changed, i)
				changed = true
			}
		}
	}
	if aff := s.HavePodsWithAffinityList(); rebuilt || !sameSlice(aff, l.src.affinity) {
		l.affinity, l.src.affinity = l.pick(aff), aff
		changed = true
	}
	if anti := s.HavePodsWithRequiredAntiAffinityList(); rebuilt || !sameSlice(anti, l.src.antiAff) {
		l.antiAff, l.src.antiAff = l.pick(anti), anti
		changed = true
	}
	l.usedPVCs = s.UsedPVCSet()
	if changed {
		l.refreshes++
	}
}

// rebuild makes the node list and the name index anew, keeping the
// NodeInfo of every node that is still there.
func (l *lister) rebuild(nodes []*cache.NodeInfo) {
	byName := make(map[string]*framework.NodeInfo, len(nodes))
	l.list = make([]fwk.NodeInfo, len(nodes))
	var fresh []int
	for i, ni := range nodes {
		fni, ok := l.byName[ni.Node().Name]
		if !ok {
			fresh = append(fresh, i)
			continue
		}
		l.update(fni, ni)
		byName[ni.Node().Name], l.list[i] = fni, fni
	}
	// At 5,000 nodes / 150,000 pods the first refresh converts everything,
	// on the critical path of the first cycle (docs/PERFORMANCE.md#decisions).
	workqueue.ParallelizeUntil(context.Background(), l.workers, len(fresh), func(k int) {
		l.list[fresh[k]] = convertNode(nodes[fresh[k]], nil)
	})
	for _, i := range fresh {
		byName[nodes[i].Node().Name] = l.list[i].(*framework.NodeInfo)
	}
	l.byName = byName
	l.src.list = nodes
	l.changed = nil
}

// update converts ni into fni when ni changed since; it reports whether it did.
func (l *lister) update(fni *framework.NodeInfo, ni *cache.NodeInfo) bool {
	if fni.Generation == ni.Generation && fni.Node() == ni.Node() {
		return false
	}
	*fni = *convertNode(ni, fni)
	return true
}

// sameSlice reports whether a and b are the same slice (not merely equal):
// the Snapshot rebuilds a list whenever its membership or order changes,
// and so does the lister.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (l *lister) pick(nodes []*cache.NodeInfo) []fwk.NodeInfo {
	out := make([]fwk.NodeInfo, 0, len(nodes))
	for _, ni := range nodes {
		out = append(out, l.byName[ni.Node().Name])
	}
	return out
}

func (l *lister) NodeInfos() fwk.NodeInfoLister                     { return l }
func (l *lister) StorageInfos() fwk.StorageInfoLister               { return l }
func (l *lister) PodGroupStates() fwk.PodGroupStateLister           { return noPodGroups{} }
func (l *lister) List() ([]fwk.NodeInfo, error)                     { return l.list, nil }
func (l *lister) HavePodsWithAffinityList() ([]fwk.NodeInfo, error) { return l.affinity, nil }
func (l *lister) HavePodsWithRequiredAntiAffinityList() ([]fwk.NodeInfo, error) {
	return l.antiAff, nil
}
func (l *lister) IsPVCUsedByPods(key string) bool { return l.usedPVCs.Has(key) }

// Get returns a node's NodeInfo with the error text of upstream's Snapshot.Get.
func (l *lister) Get(name string) (fwk.NodeInfo, error) {
	if ni, ok := l.byName[name]; ok {
		return ni, nil
	}
	return nil, fmt.Errorf("nodeinfo not found for node name %q", name)
}

// noPodGroups answers for the GenericWorkload pod groups, an alpha feature
// that is off in v1.36 (its plugins are not in the default profile).
type noPodGroups struct{}

func (noPodGroups) Get(namespace, name string) (fwk.PodGroupState, error) {
	return nil, fmt.Errorf("pod group %s/%s not found", namespace, name)
}

// nominator holds the pods nominated to nodes (status.nominatedNodeName),
// the fwk.PodNominator the framework asks when it filters with nominated
// pods. It follows the scheduling queue's nominator (backend/queue/
// nominator.go, v1.36): one entry per pod UID, an explicit nomination
// (ModeOverride) wins over the pod's status.
type nominator struct {
	mu     sync.RWMutex
	byNode map[string][]fwk.PodInfo
	nodeOf map[types.UID]string
	// any is whether byNode holds a nomination, so that the framework's
	// question for every node it filters needs no lock when none does (the
	// usual case; 1.6 million questions for simulate --pending -A at 5,000
	// nodes, from the filter goroutines at once).
	any atomic.Bool
	// published is a copy of byNode that no one changes, made before a
	// cycle (publish) and dropped by every change: when some pods are
	// nominated, the filter goroutines read it without the lock, which
	// they otherwise took for every node of every cycle.
	published atomic.Pointer[map[string][]fwk.PodInfo]
}

var _ fwk.PodNominator = &nominator{}

func newNominator() *nominator {
	return &nominator{byNode: map[string][]fwk.PodInfo{}, nodeOf: map[types.UID]string{}}
}

func (n *nominator) AddNominatedPod(_ klog.Logger, pi fwk.PodInfo, ni *fwk.NominatingInfo) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.addLocked(pi, ni)
}

func (n *nominator) addLocked(pi fwk.PodInfo, ni *fwk.NominatingInfo) {
	pod := pi.GetPod()
	n.deleteLocked(pod)
	node := pod.Status.NominatedNodeName
	if ni.Mode() == fwk.ModeOverride {
		node = ni.NominatedNodeName
	}
	if node == "" || pod.Spec.NodeName != "" {
		return
	}
	n.nodeOf[pod.UID] = node
	n.byNode[node] = append(n.byNode[node], pi)
	n.any.Store(true)
	n.published.Store(nil)
}

// holds says whether the pod with uid is nominated to a node.
func (n *nominator) holds(uid types.UID) bool {
	if !n.any.Load() {
		return false
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	_, ok := n.nodeOf[uid]
	return ok
}

func (n *nominator) DeleteNominatedPodIfExists(pod *v1.Pod) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deleteLocked(pod)
}

func (n *nominator) deleteLocked(pod *v1.Pod) {
	node, ok := n.nodeOf[pod.UID]
	if !ok {
		return
	}
	pods := n.byNode[node]
	for i, pi := range pods {
		if pi.GetPod().UID == pod.UID {
			pods = append(pods[:i:i], pods[i+1:]...)
			break
		}
	}
	if len(pods) == 0 {
		delete(n.byNode, node)
	} else {
		n.byNode[node] = pods
	}
	delete(n.nodeOf, pod.UID)
	n.any.Store(len(n.byNode) > 0)
	n.published.Store(nil)
}

func (n *nominator) UpdateNominatedPod(_ klog.Logger, oldPod *v1.Pod, newPodInfo fwk.PodInfo) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var ni *fwk.NominatingInfo
	if oldPod.Status.NominatedNodeName == "" && newPodInfo.GetPod().Status.NominatedNodeName == "" {
		if node, ok := n.nodeOf[oldPod.UID]; ok {
			ni = &fwk.NominatingInfo{NominatedNodeName: node, NominatingMode: fwk.ModeOverride}
		}
	}
	n.deleteLocked(oldPod)
	n.addLocked(newPodInfo, ni)
}

// replace takes other's nominations (other is not used afterwards).
func (n *nominator) replace(other *nominator) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.byNode, n.nodeOf = other.byNode, other.nodeOf
	n.any.Store(len(n.byNode) > 0)
	n.published.Store(nil)
}

// publish makes the copy NominatedPodsForNode reads without the lock.
func (n *nominator) publish() {
	if !n.any.Load() || n.published.Load() != nil {
		return
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	m := make(map[string][]fwk.PodInfo, len(n.byNode))
	for node, pods := range n.byNode {
		m[node] = slices.Clone(pods)
	}
	n.published.Store(&m)
}

// NominatedPodsForNode returns the pods nominated to node. The slice is
// the caller's to read, not to change (the framework's callers iterate
// over it); its capacity is its length, so an append copies it.
func (n *nominator) NominatedPodsForNode(node string) []fwk.PodInfo {
	if !n.any.Load() {
		return nil
	}
	if m := n.published.Load(); m != nil {
		return slices.Clip((*m)[node])
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	return append([]fwk.PodInfo(nil), n.byNode[node]...)
}
