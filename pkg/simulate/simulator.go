package simulate

import (
	"errors"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/load"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
)

// Simulator runs one simulation over the cache model of a cluster. It is
// not safe for concurrent use, and runs once: call Run or RunScript a
// single time.
type Simulator struct {
	opts  Options
	model *model.Model
	// clock is the cache's clock: FinishBinding reads it for deadlines.
	clock *testingclock.FakePassiveClock
	now   time.Duration
	// placement is kube-scheduler's decision engine, built on first use.
	placement *placement
	// objects are the input's other objects, which the plugins read.
	objects []runtime.Object
	// nodes are the current node objects by name: the input's, then those
	// given inline by script steps.
	nodes map[string]*v1.Node
	// clusterPods are the input's pods by namespace/name, for scripts.
	clusterPods map[string]*v1.Pod
	pods        *registry

	// armed turns recording on after the model is built, so the startup
	// AddPod calls are not part of the timeline.
	armed       bool
	transitions []cache.Transition

	before     map[string]*Usage
	touched    []string
	touchedSet map[string]bool
	events     []Event
	step       int
	ran        bool
}

// New builds the cache model of cluster with a fake clock at Epoch, the TTL
// of opts and an observer that records transitions, and returns a
// Simulator over it. It fails if opts are invalid or the model cannot be
// built (a duplicate pod UID).
func New(cluster *load.Cluster, opts Options) (*Simulator, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	s := &Simulator{
		opts:        opts,
		clock:       testingclock.NewFakePassiveClock(Epoch),
		nodes:       map[string]*v1.Node{},
		clusterPods: map[string]*v1.Pod{},
		pods:        newRegistry(),
		touchedSet:  map[string]bool{},
	}
	m, err := model.Build(cluster, cache.Options{TTL: opts.TTL, Clock: s.clock, Observer: s.observe, Profile: opts.profile()})
	if err != nil {
		return nil, err
	}
	s.model = m
	s.objects = cluster.Objects
	for _, n := range m.Nodes {
		s.nodes[n.Name] = n
	}
	for _, p := range cluster.Pods {
		s.clusterPods[podName(p)] = p
	}
	return s, nil
}

// Model is the cache model the simulation runs on; its Pending pods are the
// input's unassigned pods.
func (s *Simulator) Model() *model.Model { return s.model }

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

// begin starts recording and remembers every NodeInfo for the node summary
// (the one copy of the whole cache a run makes).
func (s *Simulator) begin() error {
	if s.ran {
		return errRanTwice
	}
	s.ran, s.armed = true, true
	s.before = map[string]*Usage{}
	for name, ni := range s.model.Cache.Dump().Nodes {
		s.before[name] = usageOf(ni)
	}
	return nil
}

// setTime moves the virtual clock to offset at.
func (s *Simulator) setTime(at time.Duration) {
	s.now = at
	s.clock.SetTime(Epoch.Add(at))
}

// record runs one cache call and records it: one event per transition the
// cache reported, or, when the state did not change, a single event for
// pod on node carrying the call's error.
func (s *Simulator) record(kind string, pod *v1.Pod, node, note string, call func() error) error {
	err := call()
	if !s.recordTransitions(kind, note, err) {
		s.emit(Event{Kind: kind, Pod: pod, Node: node, Note: note, Err: err})
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
		events[i] = Event{Kind: k, Pod: tr.Pod, Node: tr.Node, From: tr.From, To: tr.To, Note: n, Err: err}
	}
	s.setUsages(events)
	for _, e := range events {
		s.emit(e)
	}
	return len(trs) > 0
}

// setUsages gives each event its node's NodeInfo right after that event.
// Only a cleanup changes several pods in one call; the cache applies them
// atomically, so the state after each expiry is the final one plus the
// requests of the pods expired after it on the same node (exactly what
// removal subtracts: the cached pod's computed resource).
func (s *Simulator) setUsages(events []Event) {
	later := map[string]*Usage{}
	for i := len(events) - 1; i >= 0; i-- {
		e := &events[i]
		e.Usage = plus(s.usage(e.Node), later[e.Node])
		if e.Kind != EventExpire {
			continue
		}
		if later[e.Node] == nil {
			later[e.Node] = &Usage{}
		}
		r := s.opts.profile().PodResource(e.Pod).Resource
		later[e.Node].MilliCPU += r.MilliCPU
		later[e.Node].Memory += r.Memory
		later[e.Node].Pods++
	}
}

// plus adds the requests of extra to u; a node without a NodeInfo at the
// end had a placeholder while the extra pods were on it.
func plus(u, extra *Usage) *Usage {
	if extra == nil {
		return u
	}
	if u == nil {
		u = &Usage{Placeholder: true}
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

// emit stamps e with the time, the script step and, unless already set,
// its node's NodeInfo after the operation, and appends it.
func (s *Simulator) emit(e Event) {
	e.At, e.Step = s.now, s.step
	if e.Node != "" {
		s.touch(e.Node)
		if e.Usage == nil {
			e.Usage = s.usage(e.Node)
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

// usage is the NodeInfo of node now, nil when the cache has none: one
// lookup, not a Dump of the whole cache.
func (s *Simulator) usage(node string) *Usage {
	ni, ok := s.model.Cache.GetNodeInfo(node)
	if !ok {
		return nil
	}
	return usageOf(ni)
}

func usageOf(ni *cache.NodeInfo) *Usage {
	if ni == nil {
		return nil
	}
	return &Usage{
		MilliCPU: ni.Requested.MilliCPU, Memory: ni.Requested.Memory, Pods: int64(len(ni.Pods)),
		AllocatableMilliCPU: ni.Allocatable.MilliCPU, AllocatableMemory: ni.Allocatable.Memory,
		AllowedPods: ni.Allocatable.AllowedPodNumber,
		Placeholder: ni.IsPlaceholder(), Ghost: ni.IsGhost(),
	}
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
