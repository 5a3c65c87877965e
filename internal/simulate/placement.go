package simulate

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// placement decides where pods go the way kube-scheduler v1.36 does: a
// decide.Evaluator runs each pod's scheduling cycle (every default plugin,
// or the --config profiles) over a snapshot of the simulation's cache, and
// consecutive placements behave as consecutive cycles (the scan start
// rotates, batching hints apply). The snapshot is brought up to date before
// every placement, so each pod sees the pods assumed, forgotten or expired
// before it.
type placement struct {
	eval  *decide.Evaluator
	snap  *cache.Snapshot
	queue queue
}

// placer returns the simulation's placement, built on first use (or
// waited for, when prebuild started it).
func (s *Simulator) placer() (*placement, error) {
	if s.placement != nil {
		return s.placement, nil
	}
	s.prebuild()
	b := s.building
	<-b.done
	s.building = nil
	if b.err != nil {
		return nil, b.err
	}
	s.placement = b.p
	return s.placement, nil
}

// building is a placement being built on its own goroutine.
type building struct {
	done chan struct{}
	p    *placement
	err  error
}

// prebuild starts building the placement, unless it is built or being
// built. Run starts it before its own setup (the copy of every NodeInfo
// for the node summary), which it does not touch: both only read the
// cache, under its lock, and building the scheduler's frameworks and
// converting 150,000 pods for them takes as long again.
func (s *Simulator) prebuild() {
	if s.placement != nil || s.building != nil {
		return
	}
	b := &building{done: make(chan struct{})}
	s.building = b
	go func() {
		defer close(b.done)
		b.p, b.err = s.buildPlacement()
	}()
}

func (s *Simulator) buildPlacement() (*placement, error) {
	p := &placement{snap: cache.NewEmptySnapshot()}
	if err := s.model.Cache.UpdateSnapshot(p.snap); err != nil {
		return nil, err
	}
	e, err := decide.New(s.opts.context(), decide.Input{
		Snapshot: p.snap, Pending: s.model.Pending, Objects: s.objects, Config: s.opts.SchedulerConfig,
	})
	if err != nil {
		return nil, err
	}
	p.eval = e
	return p, nil
}

// place runs the pod's scheduling cycle against the cache as it is now,
// assumed pods included. A pod that is unschedulable gets its
// FailedScheduling message and, per node, the filter that rejected it.
func (s *Simulator) place(pod *v1.Pod) (*decide.Verdict, error) {
	p, err := s.placer()
	if err != nil {
		return nil, err
	}
	if err := s.model.Cache.UpdateSnapshot(p.snap); err != nil {
		return nil, err
	}
	p.eval.Refresh(p.snap)
	p.eval.SetPending(s.queued(p, pod))
	return p.eval.Schedule(s.opts.context(), pod)
}

// queued lists the pods the scheduler's queue would hold now: the input's
// pending pods and the simulated ones (next among them) that are not in the
// cache (never assumed, forgotten, expired or removed), each UID once, in
// that order. A tracked pod's state is the one the cache last reported; an
// untracked pending pod was never given to the cache (only a script step
// could, and it tracks the pod first). The list is valid until the next call.
func (s *Simulator) queued(pl *placement, next *v1.Pod) []*v1.Pod {
	q := &pl.queue
	q.index(s.model.Pending, s.pods)
	out := q.buf[:0]
	add := func(p *v1.Pod, t *tracked) {
		if t == nil || !inCache(t.state) {
			out = append(out, p)
		}
	}
	for i, p := range s.model.Pending {
		if q.first[i] {
			add(p, q.tracked[i])
		}
	}
	nextIsExtra := !q.pending(next.UID)
	if nextIsExtra {
		add(next, s.pods.byUID[next.UID])
	}
	for _, t := range q.extras {
		if !nextIsExtra || t.orig.UID != next.UID {
			add(t.orig, s.pods.byUID[t.orig.UID])
		}
	}
	q.buf = out
	return out
}

// queue is what queued keeps from call to call, since it runs before every
// placement and lists every pending pod: which input pending pods come
// first with their UID and their tracking, and the simulated pods that are
// not input pending pods (the registry's order only grows).
type queue struct {
	of      []*v1.Pod // the pending pods indexed
	first   []bool
	tracked []*tracked         // of each first pending pod, once simulated
	at      map[types.UID]int  // index of each pending UID's first pod
	extras  []*tracked         // simulated pods not pending, each UID's first
	extra   map[types.UID]bool // UIDs of extras
	scanned int                // of the registry's order
	buf     []*v1.Pod
}

func (q *queue) pending(uid types.UID) bool {
	_, ok := q.at[uid]
	return ok
}

func (q *queue) index(pending []*v1.Pod, r *registry) {
	if q.at == nil || len(q.of) != len(pending) || (len(pending) > 0 && &q.of[0] != &pending[0]) {
		*q = queue{of: pending, first: make([]bool, len(pending)), tracked: make([]*tracked, len(pending)),
			at: map[types.UID]int{}, extra: map[types.UID]bool{}}
		for i, p := range pending {
			if !q.pending(p.UID) {
				q.first[i], q.at[p.UID] = true, i
			}
		}
	}
	for ; q.scanned < len(r.order); q.scanned++ {
		t := r.order[q.scanned]
		uid := t.orig.UID
		if i, ok := q.at[uid]; ok {
			q.tracked[i] = r.byUID[uid]
		} else if !q.extra[uid] {
			q.extras = append(q.extras, r.byUID[uid])
			q.extra[uid] = true
		}
	}
}

// inCache: the cache holds a pod in state (GetPod finds it).
func inCache(state cache.PodState) bool {
	return state == cache.StateAssumed || state == cache.StateAdded
}

// Close releases the decision engine, if one was built.
func (s *Simulator) Close() {
	if s.building != nil {
		if _, err := s.placer(); err != nil {
			return
		}
	}
	if s.placement != nil {
		s.placement.eval.Close()
	}
}

// rejections lists, for an unschedulable verdict, each evaluated node with
// the Filter plugin that rejected it and its reasons.
func rejections(v *decide.Verdict) []NodeReasons {
	var out []NodeReasons
	for _, n := range v.Nodes {
		if !n.Feasible {
			if out == nil { // room for all: usually every node evaluated is
				out = make([]NodeReasons, 0, len(v.Nodes))
			}
			out = append(out, NodeReasons{Node: n.Name, Plugin: n.Plugin, Reasons: n.Reasons})
		}
	}
	return out
}

// placedNote describes a placement: the node's score among the feasible
// nodes, or that it was the only one.
func placedNote(v *decide.Verdict) string {
	switch v.TakenFirst {
	case "nominated":
		return "kube-scheduler's choice: its nominated node, tried first, passes every filter"
	case "hint":
		return "kube-scheduler's choice: the previous identical pod's runner-up (batching hint) passes every filter"
	}
	if v.FeasibleNodes <= 1 {
		return fmt.Sprintf("kube-scheduler's choice: the only feasible node of %d", v.NumAllNodes)
	}
	for _, n := range v.Nodes {
		if n.Name == v.Node {
			note := fmt.Sprintf("kube-scheduler's choice: score %d, highest of %s", n.Total, termtext.Count(v.FeasibleNodes, "feasible node"))
			if tied := tiedNodes(v); len(tied) > 0 {
				note += fmt.Sprintf(", tied with %s (%s); kube-scheduler may pick any of them",
					termtext.Count(len(tied), "node"), listFew(tied, maxTiedInNote))
			}
			return note
		}
	}
	return "kube-scheduler's choice of " + termtext.Count(v.FeasibleNodes, "feasible node")
}

// maxTiedInNote is how many tied nodes a note names; the event's
// TiedNodes lists them all.
const maxTiedInNote = 3

// tiedNodes lists the scored feasible nodes other than the chosen one
// whose total equals the chosen node's, in evaluation order. The engine
// takes the first of equal totals in scan order; kube-scheduler v1.36
// pops its score heap, whose order among equal totals is that of its
// parallel filtering (a Randomizer set only with extenders), so any of
// them is as likely a choice.
func tiedNodes(v *decide.Verdict) []string {
	if v.TakenFirst != "" || v.Result != decide.Scheduled {
		return nil
	}
	var best *decide.NodeResult
	for i := range v.Nodes {
		if v.Nodes[i].Name == v.Node {
			best = &v.Nodes[i]
		}
	}
	if best == nil || len(best.Scores) == 0 {
		return nil
	}
	var tied []string
	for _, n := range v.Nodes {
		if n.Feasible && n.Name != v.Node && len(n.Scores) > 0 && n.Total == best.Total {
			tied = append(tied, n.Name)
		}
	}
	return tied
}

// listFew joins up to n names, then "and N more".
func listFew(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// unschedulableNote is the FailedScheduling message, plus what preemption
// would do.
func unschedulableNote(v *decide.Verdict) string {
	msg := v.Message
	if p := v.Preemption; p != nil {
		msg += fmt.Sprintf(" (preemption would nominate %s and evict %s", p.NominatedNode, termtext.Count(len(p.Victims), "pod"))
		if n := len(p.TerminatingVictims); n > 0 {
			msg += fmt.Sprintf(", %d more already terminating", n)
		}
		msg += ")"
	}
	return msg
}

// fitReasons is why a pod does not fit node by resources now; nil when
// it fits or the node has no node object (the cache would create a
// placeholder, which has nothing allocatable and is not checked).
func (s *Simulator) fitReasons(req *cache.Resource, node string) []string {
	ni, ok := s.model.Cache.GetNodeInfo(node)
	if !ok || ni.Node() == nil {
		return nil
	}
	return cache.InsufficientResources(req, ni)
}
