package load

import (
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
)

// Sink receives the nodes and pods a load keeps, as it keeps them, so that
// a model of the cluster can be built while the rest is still being read or
// listed, instead of in a second pass once everything is in (internal/model's
// Builder is one). Calls never overlap and come in this order: every node,
// in list order, then every pod, in list order, each exactly as it appears
// in the Cluster returned. When the objects given so far turn out not to be
// that (a file gives a node after pods, or an object a second time, which
// replaces the first in place), the load calls Discard and nothing more;
// the caller then builds from the Cluster. After a failed load, what the
// sink holds means nothing.
type Sink interface {
	AddNode(*corev1.Node)
	AddPod(*corev1.Pod)
	Discard()
}

// sinkFeed hands objects to a Sink (nil: none) under Sink's rules, and
// counts those the sink was given for the progress line. After goAsync it
// hands them on from a goroutine of its own (sinkQueue).
type sinkFeed struct {
	sink      Sink
	discarded bool
	gavePod   bool
	nodes     atomic.Int64
	pods      atomic.Int64
	queue     *sinkQueue // nil: calls are made at once
}

// node hands node on, unless a pod was handed on already (then the sink is
// discarded: its nodes must all come first).
func (f *sinkFeed) node(node *corev1.Node) {
	if f.sink == nil || f.discarded {
		return
	}
	if f.gavePod {
		f.discard()
		return
	}
	f.call(sinkCall{node: node})
}

func (f *sinkFeed) pod(pod *corev1.Pod) {
	if f.sink == nil || f.discarded {
		return
	}
	f.gavePod = true
	f.call(sinkCall{pod: pod})
}

// discard tells the sink that what it was given is not the cluster.
func (f *sinkFeed) discard() {
	if f.sink == nil || f.discarded {
		return
	}
	f.discarded = true
	f.call(sinkCall{})
}

// sinkCall is one call to the sink: AddNode, AddPod, or (neither set)
// Discard.
type sinkCall struct {
	node *corev1.Node
	pod  *corev1.Pod
}

func (f *sinkFeed) call(c sinkCall) {
	if f.queue != nil {
		f.queue.calls = append(f.queue.calls, c)
		return
	}
	f.make(c)
}

// make makes call c to the sink.
func (f *sinkFeed) make(c sinkCall) {
	switch {
	case c.node != nil:
		f.sink.AddNode(c.node)
		f.nodes.Add(1)
	case c.pod != nil:
		f.sink.AddPod(c.pod)
		f.pods.Add(1)
	default:
		f.sink.Discard()
	}
}

// sinkQueue holds the calls to the sink made since the last flush, and
// the goroutine that makes them.
type sinkQueue struct {
	calls []sinkCall
	out   chan []sinkCall
	done  chan struct{}
}

// goAsync makes the sink's calls on a goroutine of their own, in order and
// never overlapping, as flush hands them over: the model is then built
// while the next objects are read, instead of on the reading goroutine,
// which adds every object in order. It returns wait, which flushes and
// waits until the sink has had every call (the caller must call it before
// it returns). Without a sink it does nothing.
func (f *sinkFeed) goAsync() (wait func()) {
	if f.sink == nil {
		return func() {}
	}
	q := &sinkQueue{out: make(chan []sinkCall, sinkBacklog), done: make(chan struct{})}
	f.queue = q
	go func() {
		defer close(q.done)
		for calls := range q.out {
			for _, c := range calls {
				f.make(c)
			}
		}
	}()
	return func() {
		f.flush()
		close(q.out)
		<-q.done
		f.queue = nil
	}
}

// sinkBacklog is how many batches of calls the sink's goroutine may be
// behind before flush waits for it. The sink is not steady: a model
// deciding its version from the nodes adds them all at the first pod
// (pipeline's decidingBuilder), a pause in which, one batch behind, the
// decode workers stood idle too. The objects are kept by the collector
// anyway, so the backlog costs only its calls: 16 bytes each, at most
// 4 MB.
const sinkBacklog = 1024

// flush hands the calls queued since the last flush to the sink's
// goroutine (goAsync); it blocks while that goroutine is sinkBacklog
// batches behind.
func (f *sinkFeed) flush() {
	if f.queue == nil || len(f.queue.calls) == 0 {
		return
	}
	f.queue.out <- f.queue.calls
	f.queue.calls = make([]sinkCall, 0, batchSize)
}
