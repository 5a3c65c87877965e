package pipeline

import (
	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// decideFunc decides the version from every node of the input: the
// Choice, and the notes that say it.
type decideFunc func(nodes []*v1.Node) (Choice, []Note, error)

// decidingBuilder is the load.Sink of a load whose version is decided
// from the nodes (files without --kube-version): the load hands every node
// before any pod (load.Sink's order), so the version is decided at the
// first pod, from every node, and the model is then built with it while
// the pods are read, as model.Builder does for a version known beforehand.
// One model is built, never a second one for another version.
type decidingBuilder struct {
	opts   func(Choice) (cache.Options, error)
	decide decideFunc
	nodes  []*v1.Node     // the nodes given before the decision
	b      *model.Builder // nil until decided
	choice Choice
	notes  []Note
	err    error // the decision's error, if any
	gone   bool  // discarded by the load
}

func newDecidingBuilder(opts func(Choice) (cache.Options, error), decide decideFunc) *decidingBuilder {
	return &decidingBuilder{opts: opts, decide: decide}
}

// AddNode keeps node until the version is decided, then adds it
// (load.Sink).
func (d *decidingBuilder) AddNode(node *v1.Node) {
	if d.b != nil {
		d.b.AddNode(node)
		return
	}
	d.nodes = append(d.nodes, node)
}

// AddPod decides the version at the first pod, then adds pod (load.Sink).
func (d *decidingBuilder) AddPod(pod *v1.Pod) {
	if d.b == nil && (d.err != nil || !d.start(d.nodes)) {
		return
	}
	d.b.AddPod(pod)
}

// Discard drops what was built (load.Sink): Finish then decides from the
// cluster's nodes and builds from the cluster.
func (d *decidingBuilder) Discard() {
	d.gone = true
	d.nodes = nil
	if d.b != nil {
		d.b.Discard()
	}
}

// start decides the version from nodes and starts the model's builder
// with the nodes kept so far; false when the decision failed.
func (d *decidingBuilder) start(nodes []*v1.Node) bool {
	d.choice, d.notes, d.err = d.decide(nodes)
	if d.err != nil {
		return false
	}
	opts, err := d.opts(d.choice)
	if err != nil {
		d.err = err
		return false
	}
	d.b = model.NewBuilder(opts)
	for _, n := range d.nodes {
		d.b.AddNode(n)
	}
	d.nodes = nil
	if d.gone {
		d.b.Discard()
	}
	return true
}

// Finish returns the model of cluster, the Cluster the load returned
// (model.Builder.Finish), the version decided and the notes saying it:
// decided at the first pod, from every node, or from cluster's nodes when
// no pod came or the load discarded the sink (a node after a pod: the
// nodes seen at the first pod were not all). The error is the decision's.
func (d *decidingBuilder) Finish(cluster *load.Cluster) (*model.Model, Choice, []Note, error) {
	if d.b == nil || d.gone {
		d.b = nil
		if !d.start(cluster.Nodes) {
			return nil, Choice{}, nil, d.err
		}
	}
	return d.b.Finish(cluster), d.choice, d.notes, nil
}

var _ load.Sink = (*decidingBuilder)(nil)
