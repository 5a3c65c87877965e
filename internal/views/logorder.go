package views

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/node/topology"

	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// UndeterminedOrder is next-nodes' one note on what of the NodeTree order is
// known, when no scheduler log gives the running scheduler's.
// kube-scheduler's nodeTree appends each node it receives to its zone, a
// new zone going last (v1.18–v1.36); what is not determined is the order
// in which it received the nodes present when it started: from v1.35 its
// client-go (WatchListClient) streams the initial list from an API server
// v1.34+ (WatchList) into a map-backed temporaryStore and hands over that
// map's iteration order (tools/cache/reflector.go, watchList), drawn anew
// on every start and re-list; v1.18's API server served the LIST from its
// watch cache's map, unsorted.
const UndeterminedOrder = "node order: the zones and each zone's nodes follow the order kube-scheduler received the nodes (later ones appended to their zone); " +
	"the order it received those present at its start is not determined (v1.35+ with an API server v1.34+: a streaming list through a Go map, drawn anew on each start or re-list; v1.18: an unsorted LIST): " +
	"this order assumes the input's; --scheduler-log FILE gives the running scheduler's"

// LogOrder is a scheduler log's NodeTree matched with the input's nodes.
type LogOrder struct {
	// Names are the nodes of the input in the log's tree order.
	Names []string
	// Unnamed are the input's nodes the log's tree lacks, in input order:
	// their place is not known; they are taken to come after the others.
	Unnamed []string
	// Missing are the nodes of the log's tree the input lacks.
	Missing []string
	// Moved are the nodes whose zone differs between the input and the
	// log (relabelled since, or the log is older than the input).
	Moved []string
	tree  *schedlog.NodeTreeLog
	file  string
}

// MatchLogOrder matches tree, read from file, with nodes.
func MatchLogOrder(file string, tree *schedlog.NodeTreeLog, nodes []*v1.Node) *LogOrder {
	o := &LogOrder{tree: tree, file: file}
	byName := make(map[string]*v1.Node, len(nodes))
	for _, n := range nodes {
		byName[n.Name] = n
	}
	named := map[string]bool{}
	for _, name := range tree.Order() {
		n := byName[name]
		if n == nil {
			o.Missing = append(o.Missing, name)
			continue
		}
		named[name] = true
		o.Names = append(o.Names, name)
		if z, _ := tree.Zone(name); z != topology.GetZoneKey(n) {
			o.Moved = append(o.Moved, name)
		}
	}
	for _, n := range nodes {
		if !named[n.Name] {
			o.Unnamed = append(o.Unnamed, n.Name)
		}
	}
	return o
}

// Apply returns nodes in the log's order, the unnamed ones after, in
// their input order: a NodeTree built from the result is the log's tree
// (see cache.Cache.OrderNodeTree, its twin for a built model).
func (o *LogOrder) Apply(nodes []*v1.Node) []*v1.Node {
	byName := make(map[string]*v1.Node, len(nodes))
	for _, n := range nodes {
		byName[n.Name] = n
	}
	out := make([]*v1.Node, 0, len(nodes))
	for _, name := range o.Names {
		out = append(out, byName[name])
	}
	for _, name := range o.Unnamed {
		out = append(out, byName[name])
	}
	return out
}

// LogOrderNote is one of LogOrder.Notes: a note, or a warning (a doubt on
// the order), its text without the "note: " prefix.
type LogOrderNote struct {
	Warning bool
	Text    string
}

// Notes say where the order comes from and what the log leaves open, one
// line each.
func (o *LogOrder) Notes() []LogOrderNote {
	t := o.tree
	version := ""
	if t.Version != "" {
		version = " " + t.Version
	}
	start := fmt.Sprintf("since its start at line %d", t.StartLine)
	if t.StartLine == 0 {
		start = "from the log's first line"
	}
	out := []LogOrderNote{{Text: fmt.Sprintf("node order: kube-scheduler%s's NodeTree, replayed from %s (%d NodeTree records %s)",
		version, termtext.Line(o.file), t.Records, start)}}
	if t.StartLine == 0 {
		out = append(out, LogOrderNote{Warning: true, Text: "node order: the scheduler log has no \"Starting Kubernetes Scheduler\" line: it may begin after the start, and the nodes received before are not in it"})
	}
	if len(t.Unknown) > 0 {
		out = append(out, LogOrderNote{Warning: true, Text: termtext.Fold("node order: the scheduler log removes "+termtext.Line(t.Unknown[0]), t.Unknown) +
			" without adding it first: lines are missing"})
	}
	if len(o.Unnamed) > 0 {
		out = append(out, LogOrderNote{Text: termtext.Fold(fmt.Sprintf("node order: the scheduler log does not name %s of the input, %s", nodeCount(len(o.Unnamed)), termtext.Line(o.Unnamed[0])), o.Unnamed) +
			": its place in the running scheduler's order is not known; taken to come last in its zone"})
	}
	if len(o.Missing) > 0 {
		out = append(out, LogOrderNote{Text: termtext.Fold(fmt.Sprintf("node order: the scheduler log's NodeTree holds %s the input lacks, %s", nodeCount(len(o.Missing)), termtext.Line(o.Missing[0])), o.Missing) +
			": left out"})
	}
	if len(o.Moved) > 0 {
		z, _ := t.Zone(o.Moved[0])
		out = append(out, LogOrderNote{Warning: true, Text: termtext.Fold(fmt.Sprintf("node order: node %s is in zone %q in the scheduler log, another in the input",
			termtext.Line(o.Moved[0]), cache.ZoneKeyString(z)), o.Moved) + ": the input's zones are used, the log's order within them"})
	}
	return out
}

func nodeCount(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}
