// Package model builds the scheduler-cache model of one cluster: it feeds
// loaded Nodes and Pods into a pkg/cache Cache in the order kube-scheduler's
// informers deliver them at startup, and keeps the unassigned (pending) pods
// that the cache never sees aside.
package model

import (
	"fmt"
	"io"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Model is a cache built from a cluster, plus what the cache leaves out.
type Model struct {
	// Cache holds every node and every assigned, non-terminal pod as Added.
	Cache cache.Cache
	// Nodes are the node objects in list order (the NodeTree insertion order).
	Nodes []*v1.Node
	// Pods are every pod of the input in list order, assigned or not.
	Pods []*v1.Pod
	// Pending are the unassigned pods, in list order: the scheduler's queue,
	// not its cache, holds them.
	Pending []*v1.Pod
	// Refused are the assigned pods the cache refused to add, in list order,
	// with its error: the scheduler logs such an error and goes on without
	// the pod (e.g. a second pod with the UID of one already added).
	Refused []Refused
	// Source describes where the objects came from.
	Source string
}

// Refused is a pod the cache refused, and the error AddPod returned.
type Refused struct {
	Pod *v1.Pod
	Err error
}

// Build adds cluster's nodes (in list order, so the NodeTree matches a
// freshly started scheduler) and then every pod with spec.nodeName set, of any
// schedulerName and including terminating pods, to a new cache made with
// opts. A fresh generation counter is used unless opts sets one, so the same
// input always gives the same generations.
//
// A pod the cache refuses (AddPod fails, e.g. for a UID already added by
// another pod) is left out and recorded in Model.Refused, as kube-scheduler
// v1.36 logs "Scheduler cache AddPod failed" and goes on
// (pkg/scheduler/eventhandlers.go, addPodToCache): the first pod stays.
// The error is always nil; it is kept for callers that check it.
func Build(cluster *load.Cluster, opts cache.Options) (*Model, error) {
	b := newBuilder(opts)
	for _, n := range cluster.Nodes {
		b.AddNode(n)
	}
	for _, p := range cluster.Pods {
		b.AddPod(p)
	}
	return b.model(cluster), nil
}

// Builder builds a Model while the cluster is loaded: it is the load.Sink
// of a load (load.FileOptions, load.ListOptions), and Finish returns the
// model once the load is done, exactly what Build would have made of the
// loaded cluster. Not safe for concurrent use (a load never calls a sink
// concurrently).
type Builder struct {
	opts cache.Options // as given
	b    *builder      // nil once discarded
}

// NewBuilder returns a Builder of a cache made with opts. When opts sets
// Generations, nothing is built while loading (the counter would be advanced
// twice should the load discard the sink); Finish then calls Build.
func NewBuilder(opts cache.Options) *Builder {
	b := &Builder{opts: opts}
	if opts.Generations == nil {
		b.b = newBuilder(opts)
	}
	return b
}

// AddNode adds node to the cache (load.Sink).
func (b *Builder) AddNode(node *v1.Node) {
	if b.b != nil {
		b.b.AddNode(node)
	}
}

// AddPod adds pod to the cache, or to the pending pods (load.Sink).
func (b *Builder) AddPod(pod *v1.Pod) {
	if b.b != nil {
		b.b.AddPod(pod)
	}
}

// Discard drops what was built (load.Sink): Finish builds from the cluster.
func (b *Builder) Discard() { b.b = nil }

// Finish returns the model of cluster, the Cluster the load returned: the
// one built while loading when the sink was given exactly cluster's nodes
// and pods, else Build's.
func (b *Builder) Finish(cluster *load.Cluster) *Model {
	if b.b == nil || b.b.nodes != len(cluster.Nodes) || b.b.pods != len(cluster.Pods) {
		m, _ := Build(cluster, b.opts)
		return m
	}
	return b.b.model(cluster)
}

// builder adds nodes and pods to a model as Build does.
type builder struct {
	m           *Model
	nodes, pods int
}

func newBuilder(opts cache.Options) *builder {
	if opts.Generations == nil {
		opts.Generations = &cache.GenerationCounter{}
	}
	return &builder{m: &Model{Cache: cache.New(opts)}}
}

func (b *builder) AddNode(n *v1.Node) {
	b.m.Cache.AddNode(n)
	b.nodes++
}

func (b *builder) AddPod(p *v1.Pod) {
	b.pods++
	if p.Spec.NodeName == "" {
		b.m.Pending = append(b.m.Pending, p)
		return
	}
	if err := b.m.Cache.AddPod(p); err != nil {
		b.m.Refused = append(b.m.Refused, Refused{Pod: p, Err: err})
	}
}

// model returns the model, with cluster's nodes, pods and source.
func (b *builder) model(cluster *load.Cluster) *Model {
	b.m.Nodes, b.m.Pods, b.m.Source = cluster.Nodes, cluster.Pods, cluster.Source
	return b.m
}

// WriteWarnings writes one warning line per refused pod, with the cache's
// error as the scheduler logs it, then a count when there were several;
// then one per number the scheduler's int64 arithmetic wraps (Overflows).
func (m *Model) WriteWarnings(w io.Writer) {
	defer func() {
		for _, o := range m.Overflows() {
			fmt.Fprintln(w, load.EscapeLine("warning: "+o.String()))
		}
	}()
	for _, r := range m.Refused {
		fmt.Fprintln(w, load.EscapeLine(fmt.Sprintf("warning: Scheduler cache AddPod failed for pod %q: %v; the pod is left out, as kube-scheduler does",
			r.Pod.Namespace+"/"+r.Pod.Name, r.Err)))
	}
	if n := len(m.Refused); n > 1 {
		fmt.Fprintf(w, "warning: %s refused by the cache\n", termtext.Count(n, "pod"))
	}
}

// NominatedPods maps node name to the pending pods nominated to it
// (status.nominatedNodeName), in list order.
func (m *Model) NominatedPods() map[string][]*v1.Pod {
	out := map[string][]*v1.Pod{}
	for _, p := range m.Pending {
		if n := p.Status.NominatedNodeName; n != "" {
			out[n] = append(out[n], p)
		}
	}
	return out
}

var _ load.Sink = (*Builder)(nil)
