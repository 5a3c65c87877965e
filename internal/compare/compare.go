// Package compare compares a running kube-scheduler's own cache, read from
// its SIGUSR2 dump (internal/schedlog), with the cache model built from the API
// objects (internal/model), NodeInfo by NodeInfo, and its scheduling queue with
// the API's pending pods. It is pure: no I/O, no clock.
package compare

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// DefaultSchedulerName is the schedulerName the API server sets on pods
// that name none, and the name of kube-scheduler's default profile.
const DefaultSchedulerName = v1.DefaultSchedulerName

// How each side holds a node (NodeComparison.Scheduler and .API).
const (
	Node        = "node"
	Deleted     = "deleted"
	Placeholder = "placeholder"
	Absent      = "absent"
	Pending     = "pending"
	Terminating = "terminating"
)

// Options configure Compare.
type Options struct {
	// SchedulerNames are the schedulerNames of the scheduler's profiles: its
	// queue holds the pending pods that name one of them. Default:
	// DefaultSchedulerName.
	SchedulerNames []string
	// Log describes where the dump was read (a file, "-", "pod NS/NAME").
	Log string
}

// Compare reports, per NodeInfo, what the scheduler's dump d holds that the
// model m does not and the reverse: the node itself (a Node object, a
// NodeInfo without one, nothing), Requested and Allocatable (when they
// differ, with both values; scalar resources missing on one side count as
// 0), the pods by UID (with where the other side has each), and the pods
// nominated to the node; then the queue's pending pods against the API's
// pending pods of opts.SchedulerNames, and what upstream's CacheComparer
// (debugger/comparer.go, unchanged v1.18–v1.36) would log for the same two
// sides. Allocatable is not compared when either side has no Node object
// (the scheduler keeps a deleted node's last Allocatable; the API has none).
func Compare(m *model.Model, d *schedlog.Dump, opts Options) *v1alpha1.CacheComparison {
	if len(opts.SchedulerNames) == 0 {
		opts.SchedulerNames = []string{DefaultSchedulerName}
	}
	x := newIndex(m, d, opts.SchedulerNames)
	out := &v1alpha1.CacheComparison{
		Source: m.Source,
		Scheduler: v1alpha1.SchedulerDump{
			Log: opts.Log, StartLine: d.StartLine, EndLine: d.EndLine, Time: d.Time,
			Version: d.Version, Layout: string(d.Layout), Encoding: string(d.Encoding),
		},
		Nodes: []v1alpha1.NodeComparison{},
		Queue: v1alpha1.QueueComparison{SchedulerNames: opts.SchedulerNames},
	}
	v1alpha1.SetKind(out, "CacheComparison")
	for _, name := range x.nodeNames() {
		if nc, n := x.node(name); n > 0 {
			out.Nodes = append(out.Nodes, nc)
			out.Summary.Differences += n
		}
	}
	out.Queue.Missing, out.Queue.Extra = x.compareQueue()
	out.Summary.Differences += len(out.Queue.Missing) + len(out.Queue.Extra)
	out.Comparer = x.comparer()
	if mm := d.Mismatch; mm != nil {
		out.SchedulerComparer = &v1alpha1.ComparerResult{
			MissedNodes: nonNil(mm.MissedNodes), RedundantNodes: nonNil(mm.RedundantNodes),
			MissedPods: nonNil(mm.MissedPods), RedundantPods: nonNil(mm.RedundantPods),
		}
	}
	out.Summary.SchedulerNodes, out.Summary.SchedulerPending = len(d.Nodes), len(d.Queue.Pods)
	out.Summary.SchedulerPods = len(x.schedPodNode)
	out.Summary.Nodes, out.Summary.Pods, out.Summary.Pending = len(x.api.Nodes), len(x.apiPodNode), len(x.responsible)
	out.Agree = out.Summary.Differences == 0
	return out
}

// index holds both sides keyed for lookups.
type index struct {
	sched map[string]*schedlog.Node
	api   *cache.Dump
	// schedPodNode and apiPodNode map a pod UID to its node on each side.
	schedPodNode, apiPodNode map[string]string
	// queue holds the scheduler's pending pods by UID.
	queue map[string]schedlog.Pod
	// pending holds the API's unassigned pods by UID; responsible those of
	// the scheduler's names that are not terminating.
	pending, responsible map[string]*v1.Pod
	// apiNominated maps a node to the API's pending pods nominated to it.
	apiNominated map[string][]*v1.Pod
	names        sets.Set[string]
}

func newIndex(m *model.Model, d *schedlog.Dump, names []string) *index {
	x := &index{
		sched: map[string]*schedlog.Node{}, api: m.Cache.Dump(),
		schedPodNode: map[string]string{}, apiPodNode: map[string]string{},
		queue: map[string]schedlog.Pod{}, pending: map[string]*v1.Pod{}, responsible: map[string]*v1.Pod{},
		apiNominated: m.NominatedPods(), names: sets.New(names...),
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		x.sched[n.Name] = n
		for _, p := range n.Pods {
			x.schedPodNode[p.UID] = n.Name
		}
	}
	for _, p := range d.Queue.Pods {
		x.queue[p.UID] = p
	}
	for name, ni := range x.api.Nodes {
		for _, pi := range ni.Pods {
			x.apiPodNode[string(pi.Pod.UID)] = name
		}
	}
	for _, p := range m.Pending {
		x.pending[string(p.UID)] = p
		if x.names.Has(schedulerName(p)) && p.DeletionTimestamp == nil {
			x.responsible[string(p.UID)] = p
		}
	}
	return x
}

// schedulerName is the pod's scheduler, defaulted as the API server does
// (files may hold pods that never went through it).
func schedulerName(p *v1.Pod) string {
	if p.Spec.SchedulerName == "" {
		return DefaultSchedulerName
	}
	return p.Spec.SchedulerName
}

func (x *index) nodeNames() []string {
	return sets.List(sets.KeySet(x.sched).Union(sets.KeySet(x.api.Nodes)))
}

// node compares one NodeInfo and returns it with its number of differences.
func (x *index) node(name string) (v1alpha1.NodeComparison, int) {
	s, a := x.sched[name], x.api.Nodes[name]
	nc := v1alpha1.NodeComparison{Name: name, Scheduler: schedState(s), API: apiState(a)}
	diffs := 0
	if (nc.Scheduler == Node) != (nc.API == Node) || (nc.Scheduler == Absent) != (nc.API == Absent) {
		diffs++
	}
	if s != nil && a != nil {
		sr, ar := fromSched(&s.Requested), model.ResourceOf(a.Requested)
		if !equalResource(sr, ar) {
			nz := model.NonZeroOf(a.NonZeroRequested)
			nc.Requested = &v1alpha1.ResourcePair{Scheduler: sr, API: ar, NonZeroRequested: &nz}
			diffs++
		}
		if nc.Scheduler == Node && nc.API == Node {
			if sa, aa := fromSched(&s.Allocatable), model.ResourceOf(a.Allocatable); !equalResource(sa, aa) {
				nc.Allocatable = &v1alpha1.ResourcePair{Scheduler: sa, API: aa}
				diffs++
			}
		}
	}
	nc.MissingPods, nc.ExtraPods = x.pods(name, s, a)
	nc.MissingNominated, nc.ExtraNominated = x.nominated(name, s)
	diffs += len(nc.MissingPods) + len(nc.ExtraPods) + len(nc.MissingNominated) + len(nc.ExtraNominated)
	return nc, diffs
}

func schedState(s *schedlog.Node) string {
	switch {
	case s == nil:
		return Absent
	case s.Deleted:
		return Deleted
	}
	return Node
}

func apiState(a *cache.NodeInfo) string {
	switch {
	case a == nil:
		return Absent
	case a.Node() == nil:
		return Placeholder
	}
	return Node
}

// pods compares the pods of one NodeInfo by UID.
func (x *index) pods(name string, s *schedlog.Node, a *cache.NodeInfo) (missing, extra []v1alpha1.ComparedPod) {
	onSched := sets.New[string]()
	if s != nil {
		for _, p := range s.Pods {
			onSched.Insert(p.UID)
			if x.apiPodNode[p.UID] != name {
				extra = append(extra, comparedSchedPod(p, x.apiWhere(p.UID)))
			}
		}
	}
	if a != nil {
		for _, pi := range a.Pods {
			if uid := string(pi.Pod.UID); !onSched.Has(uid) {
				missing = append(missing, comparedAPIPod(pi.Pod, x.schedWhere(uid)))
			}
		}
	}
	return sortPods(missing), sortPods(extra)
}

// apiWhere says where the API has a pod the scheduler holds elsewhere.
func (x *index) apiWhere(uid string) string {
	if n, ok := x.apiPodNode[uid]; ok {
		return "node " + n
	}
	if p, ok := x.pending[uid]; ok {
		if !x.names.Has(schedulerName(p)) {
			return "other scheduler " + schedulerName(p)
		}
		return Pending
	}
	return Absent
}

// schedWhere says where the scheduler has a pod the API holds elsewhere.
func (x *index) schedWhere(uid string) string {
	if n, ok := x.schedPodNode[uid]; ok {
		return "node " + n
	}
	if _, ok := x.queue[uid]; ok {
		return Pending
	}
	return Absent
}

// nominated compares the pods nominated to one node: the queue's nominator
// as the dumper prints it, and the API's status.nominatedNodeName.
func (x *index) nominated(name string, s *schedlog.Node) (missing, extra []v1alpha1.ComparedPod) {
	inSched, inAPI := sets.New[string](), sets.New[string]()
	if s != nil {
		for _, p := range s.NominatedPods {
			inSched.Insert(p.UID)
		}
	}
	for _, p := range x.apiNominated[name] {
		uid := string(p.UID)
		inAPI.Insert(uid)
		if !inSched.Has(uid) {
			missing = append(missing, comparedAPIPod(p, x.schedNominatedWhere(uid)))
		}
	}
	if s != nil {
		for _, p := range s.NominatedPods {
			if !inAPI.Has(p.UID) {
				where := Absent
				if ap, ok := x.pending[p.UID]; ok && ap.Status.NominatedNodeName != "" {
					where = "node " + ap.Status.NominatedNodeName
				} else if ok {
					where = Pending
				} else if n, ok := x.apiPodNode[p.UID]; ok {
					where = "bound to node " + n
				}
				extra = append(extra, comparedSchedPod(p, where))
			}
		}
	}
	return sortPods(missing), sortPods(extra)
}

// schedNominatedWhere says where the scheduler nominated a pod, if anywhere.
func (x *index) schedNominatedWhere(uid string) string {
	for name, n := range x.sched {
		for _, p := range n.NominatedPods {
			if p.UID == uid {
				return "node " + name
			}
		}
	}
	if _, ok := x.queue[uid]; ok {
		return Pending
	}
	return Absent
}

// compareQueue compares the queue's pods with the API's pending pods of the
// scheduler's names. A pending pod the scheduler holds in a NodeInfo was
// assumed and shows up as an extra pod of that node instead.
func (x *index) compareQueue() (missing, extra []v1alpha1.ComparedPod) {
	for uid, p := range x.responsible {
		if _, ok := x.queue[uid]; ok {
			continue
		}
		if _, ok := x.schedPodNode[uid]; ok {
			continue
		}
		missing = append(missing, comparedAPIPod(p, Absent))
	}
	for uid, p := range x.queue {
		if _, ok := x.responsible[uid]; ok {
			continue
		}
		where := x.apiWhere(uid)
		if ap, ok := x.pending[uid]; ok && ap.DeletionTimestamp != nil {
			continue // the queue may or may not still hold a terminating pod
		}
		extra = append(extra, comparedSchedPod(p, where))
	}
	return sortPods(missing), sortPods(extra)
}

func comparedSchedPod(p schedlog.Pod, where string) v1alpha1.ComparedPod {
	return v1alpha1.ComparedPod{Namespace: p.Namespace, Name: p.Name, UID: p.UID, Phase: p.Phase, Elsewhere: where}
}

func comparedAPIPod(p *v1.Pod, where string) v1alpha1.ComparedPod {
	return v1alpha1.ComparedPod{Namespace: p.Namespace, Name: p.Name, UID: string(p.UID), Phase: string(p.Status.Phase), Elsewhere: where}
}

func sortPods(pods []v1alpha1.ComparedPod) []v1alpha1.ComparedPod {
	sort.Slice(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		if pods[i].Name != pods[j].Name {
			return pods[i].Name < pods[j].Name
		}
		return pods[i].UID < pods[j].UID
	})
	return pods
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
