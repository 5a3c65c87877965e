package simulate

import (
	"errors"
	"fmt"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Simulator runs one simulation over the cache model of a cluster. It is
// not safe for concurrent use, and runs once: call Run or RunScript a
// single time.
type Simulator struct {
	opts  Options
	model *model.Model
	// clock is the cache's clock: FinishBinding reads it for deadlines.
	clock *virtualClock
	now   time.Duration
	// placement is kube-scheduler's decision engine, built on first use
	// or ahead of it (building).
	placement *placement
	building  *building
	// objects are the input's other objects, which the plugins read.
	objects []runtime.Object
	// nodes are the current node objects by name: the input's, then those
	// given inline by script steps.
	nodes map[string]*v1.Node
	// inputPods are the input's pods by namespace/name, for scripts; built
	// on first use.
	inputPods map[string]*v1.Pod
	pods      *registry

	// armed turns recording on after the model is built, so the startup
	// AddPod calls are not part of the timeline.
	armed       bool
	transitions []cache.Transition

	before     map[string]*nodeState
	touched    []string
	touchedSet map[string]bool
	// mayOverflow holds the nodes whose events compute their overflow
	// marks (model.MayOverflow); overflowScanned the nodes whose pods were
	// looked at once, when an event first touched them.
	mayOverflow, overflowScanned map[string]bool
	events                       []Event
	step                         int
	ran                          bool
}

// ModelBuilder builds the cache model of the input with the cache options
// it is given, as the commands build theirs (internal/model), and returns it
// with the input's other objects, which placement reads. It may read the
// input itself, building the model as it goes.
type ModelBuilder func(cache.Options) (*model.Model, []runtime.Object, error)

// New returns a Simulator over the model that build makes with the cache
// options a simulation needs: the TTL and profile of opts, the virtual
// clock at Epoch, and an observer that records the cache's transitions.
// It fails if opts are invalid or build fails.
func New(opts Options, build ModelBuilder) (*Simulator, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	s := &Simulator{
		opts:       opts,
		clock:      newVirtualClock(),
		nodes:      map[string]*v1.Node{},
		pods:       newRegistry(),
		touchedSet: map[string]bool{}, mayOverflow: map[string]bool{}, overflowScanned: map[string]bool{},
	}
	m, objects, err := build(cache.Options{TTL: opts.ttl(), Clock: s.clock, Observer: s.observe, Profile: opts.profile()})
	if err != nil {
		return nil, err
	}
	s.model, s.objects = m, objects
	for _, n := range m.Nodes {
		s.nodes[n.Name] = n
	}
	return s, nil
}

// Model is the cache model the simulation runs on; its Pending pods are the
// input's unassigned pods.
func (s *Simulator) Model() *model.Model { return s.model }

// inputPod is the input's pod namespace/name, or nil.
func (s *Simulator) inputPod(name string) *v1.Pod {
	if s.inputPods == nil {
		s.inputPods = make(map[string]*v1.Pod, len(s.model.Pods))
		for _, p := range s.model.Pods {
			s.inputPods[podName(p)] = p
		}
	}
	return s.inputPods[name]
}

// register starts tracking p, in its current cache state, with the requests
// of the version modelled.
func (s *Simulator) register(p *v1.Pod) (*tracked, error) {
	return s.pods.add(p, s.cacheState(p), s.opts.profile().PodResource(p).Resource)
}

// observe is the cache Observer. The cache calls it synchronously, after
// releasing its lock, within the operation that made the change.
func (s *Simulator) observe(t cache.Transition) {
	if s.armed {
		s.transitions = append(s.transitions, t)
	}
}

var errRanTwice = errors.New("a Simulator runs only once")

// begin starts recording and remembers every NodeInfo's totals, node and
// pods for the node summary (the one copy of the whole cache's pod lists a
// run makes; the rest of a NodeInfo, its maps above all, is not copied).
func (s *Simulator) begin() error {
	if s.ran {
		return errRanTwice
	}
	s.ran, s.armed = true, true
	s.before = map[string]*nodeState{}
	s.model.Cache.Inspect(func(d *cache.Dump) {
		for name, ni := range d.Nodes {
			// Overflows are looked for in the touched nodes only (result):
			// a scan of every pod is not free at 150,000 pods
			// (docs/PERFORMANCE.md#decisions).
			st := stateOf(ni)
			st.node, st.pods = ni.Node(), slices.Clone(ni.Pods)
			s.before[name] = st
		}
	})
	return nil
}

// setTime moves the virtual clock to offset at.
func (s *Simulator) setTime(at time.Duration) {
	s.now = at
	s.clock.set(at)
}

// record runs one cache call and records it: one event per transition the
// cache reported, or, when the state did not change, a single event for
// pod on node carrying the call's error.
func (s *Simulator) record(kind string, pod *v1.Pod, node, note string, call func() error) error {
	err := call()
	if !s.recordTransitions(kind, note, err) {
		s.emit(newEvent(kind, pod, node, note, err))
	}
	return err
}

// recordTransitions turns the transitions of the last cache call into
// events (expiry for Cleanup) and reports whether there were any.
func (s *Simulator) recordTransitions(kind, note string, err error) bool {
	trs := s.transitions
	s.transitions = nil
	events := make([]Event, len(trs))
	for i, tr := range trs {
		k, n := kind, note
		if tr.Cause == "Cleanup" {
			k, n = EventExpire, s.expiryNote(tr.Pod)
		}
		if prev := s.pods.apply(tr, s.now); prev != "" && prev != tr.Node {
			s.touch(prev)
			if tr.Cause == "AddPod" {
				n = joinNotes(n, fmt.Sprintf("moved: was assumed on %s", prev))
			}
		}
		events[i] = newEvent(k, tr.Pod, tr.Node, n, err)
		events[i].From, events[i].To = string(tr.From), string(tr.To)
	}
	s.setRequested(events, trs)
	for _, e := range events {
		s.emit(e)
	}
	return len(trs) > 0
}

// setRequested gives each event its node's requests right after that
// event. Only a cleanup changes several pods (trs) in one call; the cache
// applies them atomically, so the state after each expiry is the final one
// plus the requests of the pods expired after it on the same node (exactly
// what removal subtracts: the cached pod's computed resource).
func (s *Simulator) setRequested(events []Event, trs []cache.Transition) {
	later := map[string]*Usage{}
	laterPods := map[string][]*cache.PodInfo{}
	for i := len(events) - 1; i >= 0; i-- {
		e := &events[i]
		e.Requested = plus(s.requested(e.Node), later[e.Node])
		s.markOverflow(e.Requested, e.Node, trs[i].Pod, laterPods[e.Node])
		if e.Event != EventExpire {
			continue
		}
		if later[e.Node] == nil {
			later[e.Node] = &Usage{}
		}
		r := s.opts.profile().PodResource(trs[i].Pod).Resource
		later[e.Node].MilliCPU += r.MilliCPU
		later[e.Node].Memory += r.Memory
		later[e.Node].Pods++
		laterPods[e.Node] = append(laterPods[e.Node], &cache.PodInfo{Pod: trs[i].Pod, Resource: cache.PodResource{Resource: r}})
	}
}

// markOverflow sets u.Overflow, the overflow marks of node after an event
// about pod (nil for node and clock events); extra are the pods a cleanup
// expired after this event on node (in the state setRequested rebuilds).
// The marks are model.PodsOverflows of that state, computed only for the
// nodes model.MayOverflow flags: the others cannot wrap, and computing
// them at every event would cost the node's pod count each time.
func (s *Simulator) markOverflow(u *Usage, node string, pod *v1.Pod, extra []*cache.PodInfo) {
	if u == nil || node == "" {
		return
	}
	if !s.overflowScanned[node] {
		s.overflowScanned[node] = true
		if ni, ok := s.model.Cache.GetNodeInfo(node); ok {
			s.flagOverflow(node, ni.Pods...)
		}
	}
	if pod != nil && !s.mayOverflow[node] {
		s.flagOverflow(node, &cache.PodInfo{Pod: pod, Resource: s.opts.profile().PodResource(pod)})
	}
	s.flagOverflow(node, extra...)
	if model.AllocatableOverflows(s.nodes[node]) || model.TooManyPodsToBeSafe(int(u.Pods)) {
		s.mayOverflow[node] = true
	}
	if !s.mayOverflow[node] {
		return
	}
	ni, ok := s.model.Cache.GetNodeInfo(node)
	if !ok {
		return
	}
	u.Overflow = model.PodsOverflows(ni.Node(), slices.Concat(ni.Pods, extra))
}

// flagOverflow flags node when one of pods may overflow.
func (s *Simulator) flagOverflow(node string, pods ...*cache.PodInfo) {
	for _, pi := range pods {
		if s.mayOverflow[node] {
			return
		}
		s.mayOverflow[node] = model.MayOverflow(pi.Pod, pi.Resource.Resource)
	}
}

// plus adds extra to u; a node without a NodeInfo at the end had a
// placeholder while the extra pods were on it.
func plus(u, extra *Usage) *Usage {
	if extra == nil {
		return u
	}
	if u == nil {
		u = &Usage{}
	}
	sum := *u
	sum.MilliCPU += extra.MilliCPU
	sum.Memory += extra.Memory
	sum.Pods += extra.Pods
	return &sum
}

// expiryNote is computed before the transition is applied, while the
// pod's deadline is still known.
func (s *Simulator) expiryNote(p *v1.Pod) string {
	if t := s.pods.byUID[p.UID]; t != nil && t.hasDeadline {
		return fmt.Sprintf("deadline %s passed: requests freed", offset(t.deadline))
	}
	return "requests freed"
}

// newEvent is an event of kind concerning pod (nil for node and clock
// events) and node, with the cache's error.
func newEvent(kind string, pod *v1.Pod, node, note string, err error) Event {
	e := Event{Event: kind, Node: node, Note: note}
	if pod != nil {
		ref := podRef(pod)
		e.Pod = &ref
	}
	if err != nil {
		e.Error = err.Error()
	}
	return e
}

// emit stamps e with the time, the script step and, unless already set,
// its node's requests after the operation, and appends it.
func (s *Simulator) emit(e Event) {
	e.At, e.AtMillis, e.Step = s.now.String(), s.now.Milliseconds(), s.step
	if e.Node != "" {
		s.touch(e.Node)
		if e.Requested == nil {
			e.Requested = s.requested(e.Node)
			s.markOverflow(e.Requested, e.Node, nil, nil)
		}
	}
	s.events = append(s.events, e)
}

func (s *Simulator) touch(node string) {
	if !s.touchedSet[node] {
		s.touchedSet[node] = true
		s.touched = append(s.touched, node)
	}
}

// nodeState is what the node summary shows of one NodeInfo.
type nodeState struct {
	requested, allocatable Usage
	placeholder, ghost     bool
	// overflow: model.NodeOverflows, for the node summary only (result,
	// finalNode); events do not compute it.
	overflow []string
	// node and pods of a NodeInfo before the run (begin), for its overflows.
	node *v1.Node
	pods []*cache.PodInfo
}

// finalNode is node with its overflows, for the node summary.
func (s *Simulator) finalNode(name string) *nodeState {
	ni, ok := s.model.Cache.GetNodeInfo(name)
	if !ok {
		return nil
	}
	st := stateOf(ni)
	st.overflow = model.NodeOverflows(ni)
	return st
}

// node is the totals of the NodeInfo of name now, nil when the cache has
// none: one lookup, without cloning the node's pods or Dumping the cache.
func (s *Simulator) node(name string) *nodeState {
	sum, ok := s.model.Cache.GetNodeSummary(name)
	if !ok {
		return nil
	}
	return &nodeState{
		requested:   Usage{MilliCPU: sum.Requested.MilliCPU, Memory: sum.Requested.Memory, Pods: int64(sum.Pods)},
		allocatable: Usage{MilliCPU: sum.Allocatable.MilliCPU, Memory: sum.Allocatable.Memory, Pods: sum.Allocatable.AllowedPodNumber},
		placeholder: sum.Placeholder, ghost: sum.Ghost,
	}
}

// requested is the requests of node now, nil when the cache has no
// NodeInfo for it.
func (s *Simulator) requested(node string) *Usage {
	st := s.node(node)
	if st == nil {
		return nil
	}
	return &st.requested
}

func stateOf(ni *cache.NodeInfo) *nodeState {
	return &nodeState{
		requested:   Usage{MilliCPU: ni.Requested.MilliCPU, Memory: ni.Requested.Memory, Pods: int64(len(ni.Pods))},
		allocatable: Usage{MilliCPU: ni.Allocatable.MilliCPU, Memory: ni.Allocatable.Memory, Pods: ni.Allocatable.AllowedPodNumber},
		placeholder: ni.IsPlaceholder(), ghost: ni.IsGhost(),
	}
}

func podRef(p *v1.Pod) PodRef {
	return PodRef{Namespace: p.Namespace, Name: p.Name, UID: string(p.UID)}
}

// offset renders a clock offset as "+31s".
func offset(d time.Duration) string { return "+" + d.String() }

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// SetVersion sets the TTL and the profile the simulation follows to those
// its model was built with, when they were chosen while the model was
// built (the version of files follows their nodes' kubelets, so it is
// known only once they are read). Call it before running.
func (s *Simulator) SetVersion(ttl TTLChoice, p *cache.Profile) {
	s.opts.TTL, s.opts.Profile = ttl, p
}
