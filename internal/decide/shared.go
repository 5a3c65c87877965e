package decide

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// Pods of different classes (classKey) still often give one plugin the
// same inputs: two workloads with equal requests are the same pod to
// NodeResourcesFit's Filter and to the resource scores, two with the same
// images to ImageLocality's Score. sharedResults keeps such a plugin's
// result per node for each key of its inputs, so the next pod with that
// key reads it instead of running the plugin again on that node. What each
// key holds is proved per plugin (sharedfit.go, sharedscores.go,
// sharedimages.go): the plugin's result is a function of the key, the
// node's NodeInfo, the plugin's arguments and what stays fixed for the
// Evaluator's life.
//
// Only the lister's own NodeInfos are served (found by pointer in index):
// the copies the framework makes — a node with nominated pods added, a
// node without preemption victims — are passed to the plugin as they are.
// The lister's NodeInfos change only in Refresh, and the results are
// forgotten wherever the class verdicts are (Evaluator.forget): Refresh,
// SetPending, Schedule, Restart. Input.EvaluateEach turns the sharing off.
//
// A cycle's goroutines filter or score distinct nodes, and cycles run one
// after the other, so each node's slot of a table is written by one
// goroutine at a time; begin, called before each cycle, makes every plugin
// look its table up again for the next pod.
type sharedResults struct {
	off    bool
	lister *lister
	// index is the position in list of each of the lister's NodeInfos.
	index map[fwk.NodeInfo]int
	list  []fwk.NodeInfo
	memos []memoReset
}

// memoReset is what sharedResults does to each plugin's memo.
type memoReset interface {
	unbind()    // the next cycle looks its table up again
	forgetAll() // every result is forgotten
}

func newSharedResults(l *lister, off bool) *sharedResults {
	return &sharedResults{off: off, lister: l}
}

// begin prepares the shared results for a new cycle.
func (s *sharedResults) begin() {
	if s == nil || s.off {
		return
	}
	if !sameSlice(s.list, s.lister.list) {
		s.index = make(map[fwk.NodeInfo]int, len(s.lister.list))
		for i, ni := range s.lister.list {
			s.index[ni] = i
		}
		s.list = s.lister.list
		s.forget()
	}
	for _, m := range s.memos {
		m.unbind()
	}
}

// forget forgets every shared result.
func (s *sharedResults) forget() {
	if s == nil {
		return
	}
	for _, m := range s.memos {
		m.forgetAll()
	}
}

// forget drops the class verdicts and the shared plugin results: the
// state they were computed over changed.
func (e *Evaluator) forget() {
	clear(e.memo)
	e.shared.forget()
}

// position is ni's index in the lister's list, if ni is one of its own.
func (s *sharedResults) position(ni fwk.NodeInfo) (int, bool) {
	i, ok := s.index[ni]
	return i, ok
}

// memo holds one plugin's results of type R by key, each a slot per node.
// The table of the pod in the current cycle is looked up once (cur).
type memo[R any] struct {
	// plugin names the plugin whose results these are (for tests).
	plugin string
	shared *sharedResults
	mu     sync.Mutex
	tables map[string]*pagedSlots[slot[R]]
	cur    atomic.Pointer[binding[R]]
	// hits counts the results read instead of computed (for tests).
	hits atomic.Int64
}

type slot[R any] struct {
	set    bool
	result R
}

// binding is the table of one pod in the current cycle; nil slots: the
// pod's results are not shared.
type binding[R any] struct {
	pod   *v1.Pod
	slots *pagedSlots[slot[R]]
}

func newMemo[R any](s *sharedResults, plugin string) *memo[R] {
	m := &memo[R]{plugin: plugin, shared: s, tables: map[string]*pagedSlots[slot[R]]{}}
	s.memos = append(s.memos, m)
	return m
}

func (m *memo[R]) unbind() { m.cur.Store(nil) }

func (m *memo[R]) forgetAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.tables)
	m.cur.Store(nil)
}

// slot is pod's slot for ni, nil when the result is not to be shared:
// sharing off, a NodeInfo not the lister's, or key says no (ok false).
func (m *memo[R]) slot(pod *v1.Pod, ni fwk.NodeInfo, key func() (string, bool)) *slot[R] {
	if m.shared.off {
		return nil
	}
	i, ok := m.shared.position(ni)
	if !ok {
		return nil
	}
	b := m.cur.Load()
	if b == nil || b.pod != pod {
		b = m.bind(pod, key)
	}
	if b.slots == nil {
		return nil
	}
	return b.slots.at(i)
}

func (m *memo[R]) bind(pod *v1.Pod, key func() (string, bool)) *binding[R] {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.cur.Load(); b != nil && b.pod == pod {
		return b
	}
	b := &binding[R]{pod: pod}
	if k, ok := key(); ok {
		b.slots = m.tables[k]
		if b.slots == nil {
			b.slots = newPagedSlots[slot[R]](len(m.shared.list))
			m.tables[k] = b.slots
		}
	}
	m.cur.Store(b)
	return b
}

// filterResult is a Filter plugin's status, kept without its plugin name
// (the framework sets it on the status it returns).
type filterResult struct {
	code    fwk.Code
	reasons []string
}

// status is a new status with r's code and reasons: the framework writes
// the plugin's name into the status a Filter returns. The reasons are
// clipped, so appending to them copies them.
func (r filterResult) status() *fwk.Status {
	if r.code == fwk.Success {
		return nil
	}
	return fwk.NewStatus(r.code, r.reasons...)
}

// keepable: a pass or a rejection; an error is not kept.
func keepable(s *fwk.Status) bool {
	return s.IsSuccess() || s.IsRejected()
}

func resultOf(s *fwk.Status) filterResult {
	if s.IsSuccess() { // nil: a pass
		return filterResult{code: fwk.Success}
	}
	return filterResult{code: s.Code(), reasons: slices.Clip(s.Reasons())}
}

// sharedFilter is how a memo'd Filter runs: the slot's result, else the
// plugin's, kept.
func sharedFilter(m *memo[filterResult], pod *v1.Pod, ni fwk.NodeInfo, key func() (string, bool), run func() *fwk.Status) *fwk.Status {
	sl := m.slot(pod, ni, key)
	if sl == nil {
		return run()
	}
	if sl.set {
		m.hits.Add(1)
		return sl.result.status()
	}
	s := run()
	if keepable(s) {
		sl.result, sl.set = resultOf(s), true
	}
	return s
}

// scoreResult is a Score plugin's score on one node.
type scoreResult = int64

// sharedScore is how a memo'd Score runs: the slot's score, else the
// plugin's, kept when it succeeded.
func sharedScore(m *memo[scoreResult], pod *v1.Pod, ni fwk.NodeInfo, key func() (string, bool), run func() (int64, *fwk.Status)) (int64, *fwk.Status) {
	sl := m.slot(pod, ni, key)
	if sl == nil {
		return run()
	}
	if sl.set {
		m.hits.Add(1)
		return sl.result, nil
	}
	score, s := run()
	if s.IsSuccess() {
		sl.result, sl.set = score, true
	}
	return score, s
}

// withSharedResults replaces the factories of the plugins whose results
// are shared by ones that build the in-tree plugin and wrap it.
func withSharedResults(registry frameworkruntime.Registry, s *sharedResults) {
	for name, wrap := range sharedPlugins() {
		inTree, ok := registry[name]
		if !ok {
			continue
		}
		registry[name] = func(ctx context.Context, args k8sruntime.Object, h fwk.Handle) (fwk.Plugin, error) {
			pl, err := inTree(ctx, args, h)
			if err != nil {
				return nil, err
			}
			return wrap(pl, s), nil
		}
	}
}

// sharedPlugins wraps, by name, each plugin whose results are shared.
func sharedPlugins() map[string]func(fwk.Plugin, *sharedResults) fwk.Plugin {
	return map[string]func(fwk.Plugin, *sharedResults) fwk.Plugin{
		names.NodeResourcesFit:                wrapFit,
		names.NodeResourcesBalancedAllocation: wrapBalanced,
		names.ImageLocality:                   wrapImageLocality,
	}
}
