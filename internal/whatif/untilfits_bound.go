package whatif

import (
	v1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// room is what a node has left for the pods to place: cpu (millicores),
// memory (bytes) and pod slots, never below zero.
type room struct{ cpu, mem, pods int64 }

func roomOf(ni *cache.NodeInfo) room {
	a, r := ni.Allocatable, ni.Requested
	return room{
		cpu:  max(a.MilliCPU-r.MilliCPU, 0),
		mem:  max(a.Memory-r.Memory, 0),
		pods: max(a.AllowedPodNumber-int64(len(ni.Pods)), 0),
	}
}

// staticFilters are the Filter plugins whose answer for a pod and a node
// depends on the pod's spec and the node object only (labels, taints,
// spec.unschedulable, the name), never on the pods placed: a node one of
// them rejects stays rejected through a whole placement run.
var staticFilters = map[string]bool{"NodeAffinity": true, "TaintToleration": true, "NodeUnschedulable": true, "NodeName": true}

// capacity is what the bound is computed from, read while one copy is in
// the cache (neverFit): the room of every existing node some pod may use
// (no static filter rejects it for that pod, in FilterAll's verdicts) and
// the room of one copy once its node-bound pods run. ok is false when a
// pod's verdict did not list every node: then there is no bound.
type capacity struct {
	nodes []room
	copy  room
	ok    bool
}

// usable collects, per FilterAll verdict (one per pod class), the nodes
// not rejected by a static filter.
type usable struct {
	names map[string]bool
	all   int
	ok    bool
}

func newUsable(all int) *usable { return &usable{names: map[string]bool{}, all: all, ok: true} }

func (u *usable) add(v *decide.Verdict) {
	if len(v.Nodes) != u.all {
		u.ok = false // per-node results omitted: nothing to go by
		return
	}
	for _, n := range v.Nodes {
		if n.Feasible || !staticFilters[n.Plugin] {
			u.names[n.Name] = true
		}
	}
}

// capacity reads the rooms of the usable nodes from snap, copyName's
// apart.
func (u *usable) capacity(snap *cache.Snapshot, copyName string) capacity {
	c := capacity{ok: u.ok}
	for _, ni := range snap.List() {
		switch name := ni.Node().Name; {
		case name == copyName:
			c.copy = roomOf(ni)
		case u.names[name]:
			c.nodes = append(c.nodes, roomOf(ni))
		}
	}
	return c
}

// lowerBound is a count of copies below which no placement run can
// schedule every pod of wanted: NodeResourcesFit (kube-scheduler v1.36,
// fitsRequest) never lets a node's cpu and memory requests exceed its
// allocatable nor its pods exceed its pod capacity, a run only adds pods
// (it assumes, never evicts), and a pod can only land on a copy or on a
// node no static filter rejects for it. So with k copies every resource
// must satisfy: the wanted pods' requests <= the usable nodes' room + k x a
// copy's room; and the number of wanted pods <= what the nodes can hold of
// the smallest wanted pod, node by node (which counts the fragments too
// small for any). The answer is the smallest k meeting all of these; 0
// when NodeResourcesFit is not in some wanted pod's profile or the room
// is unknown (no bound). perCopy is how many of the smallest wanted pod
// one copy holds (0 with no bound). Requests are the pods' spec requests
// (component-helpers PodRequests, overhead included), as the plugin reads
// a pending pod's.
func lowerBound(e *decide.Evaluator, c capacity, wanted []*v1.Pod) (k int, perCopy int64) {
	if !c.ok || len(wanted) == 0 {
		return 0, 0
	}
	checked := map[string]bool{}
	var need room
	least := room{cpu: -1, mem: -1, pods: 1}
	for _, p := range wanted {
		if s := p.Spec.SchedulerName; !checked[s] {
			if !e.RunsFilter(s, "NodeResourcesFit") {
				return 0, 0
			}
			checked[s] = true
		}
		req := resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{})
		cpu, mem := req.Cpu().MilliValue(), req.Memory().Value()
		need.cpu, need.mem, need.pods = need.cpu+cpu, need.mem+mem, need.pods+1
		if least.cpu < 0 || cpu < least.cpu {
			least.cpu = cpu
		}
		if least.mem < 0 || mem < least.mem {
			least.mem = mem
		}
	}
	var have room
	var holds int64
	for _, r := range c.nodes {
		have.cpu, have.mem, have.pods = have.cpu+r.cpu, have.mem+r.mem, have.pods+r.pods
		holds += least.holds(r)
	}
	short := func(need, have, per int64) {
		if need > have && per > 0 {
			k = max(k, int((need-have+per-1)/per))
		}
	}
	short(need.cpu, have.cpu, c.copy.cpu)
	short(need.mem, have.mem, c.copy.mem)
	short(need.pods, have.pods, c.copy.pods)
	perCopy = least.holds(c.copy)
	short(need.pods, holds, perCopy)
	return k, perCopy
}

// holds is how many pods of size p fit in r (p's zero requests do not
// limit).
func (p room) holds(r room) int64 {
	n := r.pods / p.pods
	if p.cpu > 0 {
		n = min(n, r.cpu/p.cpu)
	}
	if p.mem > 0 {
		n = min(n, r.mem/p.mem)
	}
	return n
}
