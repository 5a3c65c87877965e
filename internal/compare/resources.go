package compare

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

func fromSched(r *schedlog.Resource) v1alpha1.Resource {
	return v1alpha1.Resource{
		MilliCPU: r.MilliCPU, Memory: r.Memory, EphemeralStorage: r.EphemeralStorage,
		AllowedPodNumber: r.AllowedPodNumber, ScalarResources: model.ScalarsOf(r.ScalarResources),
	}
}

// equalResource compares two resources, a scalar resource missing on one
// side counting as 0: the scheduler keeps a name at 0 once the last pod
// requesting it leaves, which a cache built afresh never had.
func equalResource(a, b v1alpha1.Resource) bool {
	if a.MilliCPU != b.MilliCPU || a.Memory != b.Memory || a.EphemeralStorage != b.EphemeralStorage || a.AllowedPodNumber != b.AllowedPodNumber {
		return false
	}
	for k, v := range a.ScalarResources {
		if b.ScalarResources[k] != v {
			return false
		}
	}
	for k, v := range b.ScalarResources {
		if a.ScalarResources[k] != v {
			return false
		}
	}
	return true
}

// comparer computes what kube-scheduler's CacheComparer logs: node names of
// the listers against the cache's NodeInfo keys, and UIDs of every listed
// pod (non-terminal, assigned or not, any scheduler) against the pods of
// every NodeInfo plus the queue's pending pods.
func (x *index) comparer() v1alpha1.ComparerResult {
	apiNodes := sets.New[string]()
	for name, ni := range x.api.Nodes {
		if ni.Node() != nil {
			apiNodes.Insert(name)
		}
	}
	apiPods, schedPods := sets.KeySet(x.apiPodNode), sets.KeySet(x.schedPodNode)
	for uid := range x.pending {
		apiPods.Insert(uid)
	}
	for uid := range x.queue {
		schedPods.Insert(uid)
	}
	var r v1alpha1.ComparerResult
	r.MissedNodes, r.RedundantNodes = difference(apiNodes, sets.KeySet(x.sched))
	r.MissedPods, r.RedundantPods = difference(apiPods, schedPods)
	return r
}

// difference returns the sorted elements of actual not in cached (missed)
// and of cached not in actual (redundant), both never nil.
func difference(actual, cached sets.Set[string]) (missed, redundant []string) {
	return sets.List(actual.Difference(cached)), sets.List(cached.Difference(actual))
}

// DumpOf renders what kube-scheduler's dumper would print for m's cache:
// every NodeInfo (Deleted when it has no Node object) with its pods and the
// pending pods nominated to it, and as the queue, the pending pods of
// schedulerNames (default: DefaultSchedulerName) that are not terminating.
// Nodes are in name order (the scheduler's are in map order). Benchmarks
// and tests write it with schedlog.Write to get a scheduler log of any size.
func DumpOf(m *model.Model, schedulerNames ...string) *schedlog.Dump {
	if len(schedulerNames) == 0 {
		schedulerNames = []string{DefaultSchedulerName}
	}
	x := newIndex(m, &schedlog.Dump{}, schedulerNames)
	d := &schedlog.Dump{}
	names := x.nodeNames()
	for _, name := range names {
		ni := x.api.Nodes[name]
		n := schedlog.Node{Name: name, Deleted: ni.Node() == nil, Requested: toSched(ni.Requested), Allocatable: toSched(ni.Allocatable)}
		for _, pi := range ni.Pods {
			n.Pods = append(n.Pods, schedPod(pi.Pod))
		}
		for _, p := range x.apiNominated[name] {
			n.NominatedPods = append(n.NominatedPods, schedPod(p))
		}
		d.Nodes = append(d.Nodes, n)
	}
	for _, p := range m.Pending {
		if _, ok := x.responsible[string(p.UID)]; ok {
			d.Queue.Pods = append(d.Queue.Pods, schedPod(p))
		}
	}
	d.Queue.HasSummary, d.Queue.ActiveQ = true, len(d.Queue.Pods)
	return d
}

func toSched(r *cache.Resource) schedlog.Resource {
	return schedlog.Resource{
		MilliCPU: r.MilliCPU, Memory: r.Memory, EphemeralStorage: r.EphemeralStorage,
		AllowedPodNumber: r.AllowedPodNumber, ScalarResources: model.ScalarsOf(r.ScalarResources),
	}
}

func schedPod(p *v1.Pod) schedlog.Pod {
	return schedlog.Pod{Name: p.Name, Namespace: p.Namespace, UID: string(p.UID), Phase: string(p.Status.Phase), NominatedNode: p.Status.NominatedNodeName}
}
