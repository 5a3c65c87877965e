package decide

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"
)

// A placement (Schedule after Refresh, one pod after another) changes the
// NodeInfo of the one node that took the last pod; every other node reads
// as before. carriedFilters keeps each node's whole Filter outcome for a
// pod shape across cycles and Refresh, and serves it again while the
// node's NodeInfo has the same generation, so that the next replica of a
// workload is filtered only on the node that changed. It is exact only
// when every Filter plugin that runs for the pod reads nothing but the pod,
// the node's NodeInfo and what stays fixed for the Evaluator's life; the
// cycle is then served whole or not at all (bindCarried).
//
// Why each plugin of nodeLocalFilter qualifies (the Filter and PreFilter
// of kube-scheduler v1.36.3; filterKey holds what they read of the pod):
//   - NodeUnschedulable: node.spec.unschedulable and the pod's tolerations.
//   - NodeName: the pod's spec.nodeName and the node's name.
//   - TaintToleration: the node's taints and the pod's tolerations.
//   - NodeAffinity: the node's labels and name, the plugin's addedAffinity
//     (its arguments: fixed per profile) and the pod's required node
//     selector and affinity (PreFilter's state, or the same read of the
//     pod when there is none).
//   - NodePorts: the node's used ports and the pod's host ports
//     (PreFilter's state: GetHostPorts).
//   - NodeResourcesFit: the node's allocatable, requested and pod count and
//     the pod's request from PreFilter's state (the proof in sharedfit.go).
//
// Every other plugin (InterPodAffinity, PodTopologySpread, the volume
// plugins, DynamicResources, ...) reads other nodes, other objects or the
// pod's identity; a cycle where any of them runs its Filter (its PreFilter
// did not return Skip) is filtered in full. Nodes with nominated pods are
// filtered in full too, and their outcome is not kept: the framework
// filters them with the nominated pods added, which can change between
// cycles without the node's generation changing.
//
// The key of a table is the profile, the plugins that run and what they
// read of the pod: pods of different workloads with the same shape share
// it. A slot is valid for the very NodeInfo (the lister keeps one per node
// for as long as the node is listed, and converts a changed node into the
// same object with a new generation) at the generation it was filled at.
type carriedFilters struct {
	off    bool
	shared *sharedResults // its index gives a NodeInfo's position
	// filters: each profile's Filter plugins, in order.
	filters map[string][]string
	tables  map[string]*carryTable
	// outcomes interns the rejections kept, so that a table holds a
	// pointer per node rather than a status.
	mu        sync.Mutex
	outcomes  map[string]*fwk.Status
	internKey []byte // intern's key, guarded by mu
	// binds counts the cycles given a table.
	binds int64
	// hits counts the outcomes served (for tests).
	hits atomic.Int64
}

// maxCarryTables bounds the memory: a table is at most a slot per node
// (24 bytes, 120 kB at 5,000 nodes; allocated a page at a time as its
// nodes are filtered, pagedSlots); past this many shapes the half used
// least recently is dropped.
const maxCarryTables = 512

// carryTable is one key's outcomes, a slot per node of list.
type carryTable struct {
	list  []fwk.NodeInfo
	slots *pagedSlots[carrySlot]
	// used is the bind count when the table was last bound.
	used int64
}

type carrySlot struct {
	set bool
	gen int64
	// status is the kept outcome, nil for a pass; served as is (kept).
	status *fwk.Status
}

func newCarriedFilters(s *sharedResults, off bool) *carriedFilters {
	return &carriedFilters{off: off || s.off, shared: s, filters: map[string][]string{},
		tables: map[string]*carryTable{}, outcomes: map[string]*fwk.Status{}}
}

// nodeLocalFilter: a Filter plugin whose outcome on a node reads only the
// pod, that node's NodeInfo and what is fixed (see carriedFilters).
func nodeLocalFilter(name string) bool {
	switch name {
	case names.NodeUnschedulable, names.NodeName, names.TaintToleration,
		names.NodeAffinity, names.NodePorts, names.NodeResourcesFit:
		return true
	}
	return false
}

// bindCarried gives the cycle, after PreFilter, the table of its pod's
// shape, or nil when some Filter plugin that runs is not node-local.
func (c *cycle) bindCarried() {
	k := c.e.carried
	if k == nil || k.off {
		return
	}
	key, ok := k.key(c.fw, c.state, c.pod)
	if !ok {
		return
	}
	t := k.tables[key]
	if t == nil {
		if len(k.tables) >= maxCarryTables {
			k.evict()
		}
		t = &carryTable{}
		k.tables[key] = t
	}
	k.binds++
	t.used = k.binds
	t.follow(k.shared)
	c.carry = t
}

// evict drops the half of the tables used least recently.
func (k *carriedFilters) evict() {
	used := make([]int64, 0, len(k.tables))
	for _, t := range k.tables {
		used = append(used, t.used)
	}
	slices.Sort(used)
	cut := used[len(used)/2]
	maps.DeleteFunc(k.tables, func(_ string, t *carryTable) bool { return t.used < cut })
}

// key is the table key of pod in this cycle; false when a plugin that
// runs its Filter is not node-local, or the request is not readable.
func (k *carriedFilters) key(fw framework.Framework, state *framework.CycleState, pod *v1.Pod) (string, bool) {
	filters, ok := k.filters[fw.ProfileName()]
	if !ok {
		for _, p := range fw.ListPlugins().Filter.Enabled {
			filters = append(filters, p.Name)
		}
		k.filters[fw.ProfileName()] = filters
	}
	skip := state.GetSkipFilterPlugins()
	var running []string
	for _, n := range filters {
		if skip.Has(n) {
			continue
		}
		if !nodeLocalFilter(n) {
			return "", false
		}
		running = append(running, n)
	}
	fit, ok := fitKey(state)
	if !ok && slices.Contains(running, names.NodeResourcesFit) {
		return "", false
	}
	return filterKey(fw.ProfileName(), running, fit, pod)
}

// filterKey: what the node-local plugins read of the pod (see
// carriedFilters), with the profile, the plugins that run and the
// request NodeResourcesFit reads.
func filterKey(profile string, running []string, fit string, pod *v1.Pod) (string, bool) {
	var required *v1.NodeSelector
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		required = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	b, err := json.Marshal(struct {
		Profile      string
		Running      []string
		Request      string
		NodeName     string
		Tolerations  []v1.Toleration
		NodeSelector map[string]string
		Required     *v1.NodeSelector
		HostPorts    []v1.ContainerPort
	}{profile, running, fit, pod.Spec.NodeName, pod.Spec.Tolerations, pod.Spec.NodeSelector, required, schedutil.GetHostPorts(pod)})
	if err != nil {
		return "", false
	}
	return string(b), true
}

// follow re-indexes the table by the lister's current list, keeping the
// slot of every NodeInfo still listed (the index is the one
// sharedResults.begin made for this cycle).
func (t *carryTable) follow(s *sharedResults) {
	if sameSlice(t.list, s.list) {
		return
	}
	slots := newPagedSlots[carrySlot](len(s.list))
	if t.slots != nil {
		t.slots.each(func(i int, sl *carrySlot) {
			if !sl.set {
				return
			}
			if j, ok := s.position(t.list[i]); ok {
				*slots.at(j) = *sl
			}
		})
	}
	t.list, t.slots = s.list, slots
}

// carriedFilter is the Filter outcome of the node at position pos of the
// lister's list: the kept one when it still holds, else filterNode's (with
// nominated pods), kept when it can be.
func (c *cycle) carriedFilter(ctx context.Context, pos int) *fwk.Status {
	ni := c.e.lister.list[pos]
	t := c.carry
	if t == nil || (c.nominatedAt != nil && len(c.nominatedAt[pos]) > 0) {
		return c.filterNode(ctx, ni, pos)
	}
	if s, ok := c.kept(pos); ok {
		c.e.carried.hits.Add(1)
		return s
	}
	gen := ni.GetGeneration()
	s := c.filterNode(ctx, ni, pos)
	if keepable(s) {
		*t.slots.at(pos) = carrySlot{set: true, gen: gen, status: c.e.carried.intern(s)}
	}
	return s
}

// kept is the outcome kept for the node at position pos of the lister's
// list, when the cycle has a table, the node has no nominated pods and
// its slot was filled at the node's current generation. The status is
// served as kept, shared by every cycle that reads it: nothing that reads
// a Filter outcome (the scan, the diagnosis, PostFilter, the FitError
// message, the near misses; v1.36.3's framework sets a plugin name or
// appends a reason only on statuses its plugins have just returned)
// changes it.
func (c *cycle) kept(pos int) (*fwk.Status, bool) {
	t := c.carry
	if t == nil || (c.nominatedAt != nil && len(c.nominatedAt[pos]) > 0) {
		return nil, false
	}
	sl := t.slots.peek(pos)
	if sl == nil || !sl.set || sl.gen != c.e.lister.list[pos].GetGeneration() {
		return nil, false
	}
	return sl.status, true
}

// intern is the kept copy of a rejection equal to s; nil for a pass.
func (k *carriedFilters) intern(s *fwk.Status) *fwk.Status {
	if s.IsSuccess() {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	// The key is written into a buffer the lock guards, and looked up
	// without a string of its own (most rejections were kept before).
	k.internKey = append(k.internKey[:0], s.Plugin()...)
	k.internKey = append(append(k.internKey, 0), s.Code().String()...)
	for _, r := range s.Reasons() {
		k.internKey = append(append(k.internKey, 0), r...)
	}
	if kept, ok := k.outcomes[string(k.internKey)]; ok {
		return kept
	}
	kept := s.Clone()
	k.outcomes[string(k.internKey)] = kept
	return kept
}
