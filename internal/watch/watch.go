// Package watch keeps the scheduler-cache model of a live cluster up to date
// the way kube-scheduler does: client-go shared informers for nodes and pods
// (pods with the scheduler's field selector), their events applied to
// pkg/cache with the operations kube-scheduler's event handlers use, and a
// Snapshot brought up to date incrementally. Changes are reported in
// batches, each with the Snapshot's generation before and after and the
// NodeInfos that changed and why.
//
// It only lists and watches. Its memory is the informers' objects (as the
// scheduler's) plus a bounded record per node of the events since the last
// batch.
package watch

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/clock"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

const (
	// DefaultInterval is the least time between two batches: events that
	// arrive within it are reported together.
	DefaultInterval = 200 * time.Millisecond
	// maxReasons bounds the reasons kept per node and batch.
	maxReasons = 8
)

// Options configure a Watcher.
type Options struct {
	// Client lists and watches nodes and pods.
	Client kubernetes.Interface
	// Source describes the cluster, e.g. "cluster https://…".
	Source string
	// Host is the API server's address, named in errors and notes.
	Host string
	// Cache configures the cache model (feature gates, generations).
	Cache cache.Options
	// Notes receives one line when an outage starts and one when it ends,
	// one per relist, and one per cache operation that failed
	// (kube-scheduler logs those). May be nil.
	Notes io.Writer
	// Interval is the least time between batches; default DefaultInterval.
	Interval time.Duration
	// Clock times the batches; default the real clock.
	Clock clock.WithTicker
	// Synced, when set, is called once the initial state is complete,
	// before it is written (e.g. to say what could wait until the server
	// was known to answer).
	Synced func()
}

// Delta is one batch of changes.
type Delta struct {
	// Sequence numbers the batches from 1.
	Sequence int
	// From and To are the Snapshot's generation before and after the batch.
	From, To int64
	// Events is the number of node and pod events applied.
	Events int
	// Changes are the NodeInfos whose generation changed, that appeared or
	// disappeared, or whose nominated pods changed, sorted by name.
	Changes []NodeChange
}

// NodeChange is one NodeInfo of a batch.
type NodeChange struct {
	Name string
	// Reasons are the events that touched the node, in order, at most
	// maxReasons and then "… N more".
	Reasons []string
	// Gone: the NodeInfo existed at the last batch and no longer does.
	Gone bool
}

// Render builds what to print for the model: the whole view when d is nil
// (the first time), else the batch d. It runs with the model locked, so
// nothing changes meanwhile, and must only copy what it needs out of the
// model; the Text it returns runs after the lock is released (formatting a
// large view does not hold up the informers), and its text is written.
type Render func(m *model.Model, snapshot *cache.Snapshot, d *Delta) (Text, error)

// Text renders what a Render built.
type Text func() (string, error)

// Watcher holds the model and the informers feeding it.
type Watcher struct {
	opts Options

	mu       sync.Mutex
	cache    cache.Cache
	snapshot *cache.Snapshot
	pending  map[types.UID]*v1.Pod
	reasons  map[string][]string
	more     map[string]int
	events   int
	gens     map[string]int64
	seq      int

	dirty  chan struct{}
	fatal  chan error
	synced atomic.Bool
	notes  *noteWriter
	outage *outage
	// changes counts the events that changed something (not an
	// unchanged object of a relist), for the reconnection note.
	changes atomic.Int64
	// stopped: Run returned; nothing more is said.
	stopped atomic.Bool
}

// New returns a Watcher; Run starts it.
func New(opts Options) *Watcher {
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if opts.Cache.Generations == nil {
		opts.Cache.Generations = &cache.GenerationCounter{}
	}
	notes := &noteWriter{w: opts.Notes, last: map[string]string{}}
	return &Watcher{
		opts: opts, cache: cache.New(opts.Cache), snapshot: cache.NewEmptySnapshot(),
		pending: map[types.UID]*v1.Pod{}, reasons: map[string][]string{}, more: map[string]int{},
		gens: map[string]int64{}, dirty: make(chan struct{}, 1), fatal: make(chan error, 1),
		notes: notes, outage: newOutage(notes, opts.Clock.Now),
	}
}

// Run starts the informers, waits until both have delivered the initial
// state, writes render(model, snapshot, nil) to out, then a batch each time
// events changed the cache, until ctx is done (it then returns ctx.Err()).
// Before the initial state is complete, a failed list ends Run with the
// error a listing gives (internal/load's *Error: Unreachable, Forbidden…);
// a refused request (Forbidden, Unauthorized: for a watch, the verb watch
// is missing) ends it at any time. Later failures are an outage: one note
// when it starts, one when the watches run again, while the informers
// retry with backoff and relist as client-go does. Each batch is written
// with one Write, so a cancellation never leaves half of one; after Run
// returns nothing more is written to Notes.
func (w *Watcher) Run(ctx context.Context, out io.Writer, render Render) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer w.notes.stop()
	defer w.stopped.Store(true)
	regs, err := w.start(ctx)
	if err != nil {
		return err
	}
	err = wait.PollUntilContextCancel(ctx, 20*time.Millisecond, true, func(context.Context) (bool, error) {
		select {
		case err := <-w.fatal:
			return false, err
		default:
		}
		for _, r := range regs {
			if !r.HasSynced() {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	w.synced.Store(true)
	if w.opts.Synced != nil {
		w.opts.Synced()
	}
	if err := write(ctx, out, w.initial, render); err != nil {
		return err
	}
	return w.loop(ctx, out, render)
}

// loop waits for events, lets a batch gather for the interval, and reports it.
func (w *Watcher) loop(ctx context.Context, out io.Writer, render Render) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-w.fatal:
			return err
		case <-w.dirty:
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-w.fatal:
			return err
		case <-w.opts.Clock.After(w.opts.Interval):
		}
		if err := write(ctx, out, w.flush, render); err != nil {
			return err
		}
		w.outage.report(w.changes.Load())
	}
}

// write renders with step (under the lock), formats the result (outside
// it) and writes it unless ctx is done: an interrupted watch prints
// nothing more.
func write(ctx context.Context, out io.Writer, step func(Render) (Text, error), render Render) error {
	text, err := step(render)
	if err != nil || text == nil {
		return err
	}
	s, err := text()
	if err != nil || s == "" {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	_, err = io.WriteString(out, s)
	return err
}

// model returns the model view of the current state. The caller holds mu.
func (w *Watcher) model() *model.Model {
	pending := make([]*v1.Pod, 0, len(w.pending))
	for _, p := range w.pending {
		pending = append(pending, p)
	}
	sort.Slice(pending, func(i, j int) bool {
		if pending[i].Namespace != pending[j].Namespace {
			return pending[i].Namespace < pending[j].Namespace
		}
		return pending[i].Name < pending[j].Name
	})
	return &model.Model{Cache: w.cache, Pending: pending, Source: w.opts.Source}
}

// initial renders the state the informers synced to.
func (w *Watcher) initial(render Render) (Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.updateSnapshot(); err != nil {
		return nil, err
	}
	for name, ni := range w.cache.Dump().Nodes {
		w.gens[name] = ni.Generation
	}
	w.reasons, w.more, w.events = map[string][]string{}, map[string]int{}, 0
	return render(w.model(), w.snapshot, nil)
}

// flush turns the events since the last batch into a Delta and renders it;
// nil when they changed no NodeInfo (e.g. a pending pod without nomination).
func (w *Watcher) flush(render Render) (Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	from := w.snapshot.Generation()
	if err := w.updateSnapshot(); err != nil {
		return nil, err
	}
	d := &Delta{From: from, To: w.snapshot.Generation(), Events: w.events}
	changed := map[string]bool{}
	now := w.cache.Dump().Nodes
	for name, ni := range now {
		if old, ok := w.gens[name]; !ok || old != ni.Generation {
			changed[name] = true
		}
		w.gens[name] = ni.Generation
	}
	gone := map[string]bool{}
	for name := range w.gens {
		if _, ok := now[name]; !ok {
			changed[name], gone[name] = true, true
			delete(w.gens, name)
		}
	}
	for name := range w.reasons {
		// A pod nominated to a node the cache does not have changes no row.
		if _, ok := now[name]; ok || gone[name] {
			changed[name] = true
		}
	}
	for name := range changed {
		c := NodeChange{Name: name, Reasons: w.reasons[name]}
		if n := w.more[name]; n > 0 {
			c.Reasons = append(c.Reasons, fmt.Sprintf("… %d more", n))
		}
		if len(c.Reasons) == 0 {
			c.Reasons = []string{"changed"}
		}
		c.Gone = gone[name]
		d.Changes = append(d.Changes, c)
	}
	w.reasons, w.more, w.events = map[string][]string{}, map[string]int{}, 0
	if len(d.Changes) == 0 {
		return nil, nil
	}
	sort.Slice(d.Changes, func(i, j int) bool { return d.Changes[i].Name < d.Changes[j].Name })
	w.seq++
	d.Sequence = w.seq
	return render(w.model(), w.snapshot, d)
}

// updateSnapshot brings the snapshot up to date. A snapshot the cache finds
// inconsistent is rebuilt from scratch, as kube-scheduler does after its
// consistency check fails. The caller holds mu.
func (w *Watcher) updateSnapshot() error {
	if err := w.cache.UpdateSnapshot(w.snapshot); err != nil {
		w.notes.note("snapshot", fmt.Sprintf("snapshot inconsistent (%v); rebuilding it", err))
		w.snapshot = cache.NewEmptySnapshot()
		return w.cache.UpdateSnapshot(w.snapshot)
	}
	return nil
}

// touched records why a node changed and marks a batch due. The caller holds mu.
func (w *Watcher) touched(node, reason string) {
	if node == "" {
		return
	}
	if len(w.reasons[node]) < maxReasons {
		w.reasons[node] = append(w.reasons[node], reason)
	} else {
		w.more[node]++
	}
}

// event ends an event handler: counts it (and, when it changed
// something, the change) and marks a batch due. The caller holds mu.
func (w *Watcher) event(changed bool) {
	if changed {
		w.changes.Add(1)
	}
	w.events++
	select {
	case w.dirty <- struct{}{}:
	default:
	}
}

// due marks a batch due, without an event.
func (w *Watcher) due() {
	select {
	case w.dirty <- struct{}{}:
	default:
	}
}

// fail ends Run with err.
func (w *Watcher) fail(err error) {
	select {
	case w.fatal <- err:
	default:
	}
}

// noteWriter writes notes, each once until it changes for its subject,
// until stop.
type noteWriter struct {
	mu   sync.Mutex
	w    io.Writer
	last map[string]string
}

// stop ends the notes: after Ctrl-C, nothing follows "interrupted".
func (n *noteWriter) stop() {
	n.mu.Lock()
	n.w = nil
	n.mu.Unlock()
}

func (n *noteWriter) note(subject, msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.w == nil || n.last[subject] == msg {
		return
	}
	n.last[subject] = msg
	fmt.Fprintf(n.w, "note: %s\n", msg)
}

// always writes a note even if it repeats the last one.
func (n *noteWriter) always(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.w != nil {
		fmt.Fprintf(n.w, "note: %s\n", msg)
	}
}
