package pipeline

import (
	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/internal/views"
)

// NodeOrder is a running kube-scheduler's NodeTree, read from its own log
// (--scheduler-log: schedlog.ParseNodeTree), in which every model Open
// builds keeps its nodes, so that the scheduling cycles scan them in the
// running scheduler's order; without it a model keeps the input's order,
// as a scheduler that received the nodes in that order would.
type NodeOrder struct {
	// File names the log in the notes.
	File string
	Tree *schedlog.NodeTreeLog
}

// Apply puts m's NodeTree, and m.Nodes, in the log's order (nodes the log
// does not name after, each last in its zone), its notes on notes (nil:
// none). A nil NodeOrder does nothing.
func (o *NodeOrder) Apply(m *model.Model, notes *Notes) {
	if o == nil {
		return
	}
	lo := o.match(m.Nodes, notes)
	m.Cache.OrderNodeTree(lo.Names)
	m.Nodes = lo.Apply(m.Nodes)
}

// Nodes returns nodes in the log's order, its notes on notes: the order a
// NodeTree built from them has (next-nodes).
func (o *NodeOrder) Nodes(nodes []*v1.Node, notes *Notes) []*v1.Node {
	return o.match(nodes, notes).Apply(nodes)
}

func (o *NodeOrder) match(nodes []*v1.Node, notes *Notes) *views.LogOrder {
	lo := views.MatchLogOrder(o.File, o.Tree, nodes)
	if notes != nil {
		for _, n := range lo.Notes() {
			s := SeverityNote
			if n.Warning {
				s = SeverityWarning
			}
			notes.Add(s, "%s", n.Text)
		}
	}
	return lo
}
