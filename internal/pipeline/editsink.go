package pipeline

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
)

// editingSink is the load.Sink of a what-if run whose version is known by
// the first pod (chooser.streams): the load hands every node before any
// pod, so at the first pod the node edits are made (whatif.Apply's node
// list: cordons, removals, the copies at the end) and the edited nodes go
// to the chooser's builder, the version decided from the unedited nodes;
// then each pod goes on as whatif.Apply keeps it (none of a removed node,
// an evicted pod only when its DaemonSet recreates it in place). finish
// adds what Apply appends last (replacements, the copies' node-bound
// pods), so that one model is built while reading, never a second pass
// over the cluster. Whatever does not match Apply's cluster exactly
// (an edit refused, a node after a pod, a failed decision) is left to
// the whole-cluster path.
type editingSink struct {
	edits   whatif.Edits
	builder load.Sink
	nodes   []*v1.Node // unedited until the first pod, then edited
	fed     []*v1.Pod  // the pods given to builder, in order
	remove  sets.Set[string]
	evict   map[types.NamespacedName]bool // true once seen
	started bool
	failed  bool // an edit refused, a node after a pod, a decision failed
}

// newEditingSink returns the sink for e (no --add-node-file) in front of
// builder, the chooser's (a *decidingBuilder or a *model.Builder).
func newEditingSink(e *Edits, builder load.Sink) *editingSink {
	edits := e.Edits
	if e.UntilFits {
		edits.AddNodes = nil // the template stays out of the cluster
	}
	s := &editingSink{edits: edits, builder: builder, remove: sets.New(edits.RemoveNodes...), evict: map[types.NamespacedName]bool{}}
	for _, k := range edits.Evict {
		s.evict[k] = false
	}
	return s
}

// AddNode keeps node until the first pod (load.Sink).
func (s *editingSink) AddNode(node *v1.Node) {
	if s.started {
		s.failed = true // the load discards the sink too
		return
	}
	s.nodes = append(s.nodes, node)
}

// AddPod makes the node edits at the first pod, then passes pod on when
// whatif.Apply keeps it in place (load.Sink).
func (s *editingSink) AddPod(pod *v1.Pod) {
	if !s.started {
		s.start()
	}
	if s.failed {
		return
	}
	if s.remove.Has(pod.Spec.NodeName) {
		return
	}
	key := types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	if seen, evicting := s.evict[key]; evicting && !seen {
		s.evict[key] = true
		if whatif.RecreationOf(pod) != whatif.NotMoved {
			return
		}
	}
	s.fed = append(s.fed, pod)
	s.builder.AddPod(pod)
}

// Discard gives up streaming (load.Sink): a node came after a pod.
func (s *editingSink) Discard() {
	s.failed = true
	s.builder.Discard()
}

// start edits the nodes given so far (every node: load.Sink's order) and
// starts the builder with them, the version decided from the unedited ones.
func (s *editingSink) start() {
	s.started = true
	nodeEdits := s.edits
	nodeEdits.Evict = nil // the pods are not known yet
	edited, _, err := whatif.Apply(&load.Cluster{Nodes: s.nodes}, nodeEdits)
	if err != nil {
		s.failed = true // the whole-cluster path says it
		return
	}
	unedited := s.nodes
	s.nodes = edited.Nodes
	for _, n := range s.nodes {
		s.builder.AddNode(n)
	}
	if d, ok := s.builder.(*decidingBuilder); ok && !d.start(unedited) {
		s.failed = true
	}
}

// complete adds the pods edited's list holds beyond those streamed (the
// replacements, the copies' node-bound pods) and gives edited the nodes
// the builder was given; false, and edited unchanged, when edited is not
// the cluster streamed (then the caller builds the model from edited).
func (s *editingSink) complete(edited *load.Cluster) bool {
	if !s.started || s.failed || len(edited.Nodes) != len(s.nodes) || len(edited.Pods) < len(s.fed) {
		return false
	}
	for i, n := range edited.Nodes {
		if n.Name != s.nodes[i].Name {
			return false
		}
	}
	for i, p := range s.fed {
		if edited.Pods[i] != p {
			return false
		}
	}
	for _, p := range edited.Pods[len(s.fed):] {
		s.builder.AddPod(p)
	}
	edited.Nodes = s.nodes
	return true
}

var _ load.Sink = (*editingSink)(nil)
