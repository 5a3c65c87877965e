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
// counts them for the progress line.
type sinkFeed struct {
	sink      Sink
	discarded bool
	nodes     atomic.Int64
	pods      atomic.Int64
}

// node hands node on, unless a pod was handed on already (then the sink is
// discarded: its nodes must all come first).
func (f *sinkFeed) node(node *corev1.Node) {
	if f.sink == nil || f.discarded {
		return
	}
	if f.pods.Load() > 0 {
		f.discard()
		return
	}
	f.sink.AddNode(node)
	f.nodes.Add(1)
}

func (f *sinkFeed) pod(pod *corev1.Pod) {
	if f.sink == nil || f.discarded {
		return
	}
	f.sink.AddPod(pod)
	f.pods.Add(1)
}

// discard tells the sink that what it was given is not the cluster.
func (f *sinkFeed) discard() {
	if f.sink == nil || f.discarded {
		return
	}
	f.discarded = true
	f.sink.Discard()
}
