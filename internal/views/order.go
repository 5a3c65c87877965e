package views

import (
	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// NodeOrderOptions configure NodeOrder.
type NodeOrderOptions struct {
	// Count is the number of Next() calls; 0 means one per node.
	Count int
	// Cycles is the number of scheduling cycles to show (0: none).
	Cycles int
	// Percentage is percentageOfNodesToScore (0 = adaptive).
	Percentage int32
	// Behavior is the kube-scheduler version modelled; nil means v1.36.
	Behavior *cache.Behavior
}

// NodeOrder builds the NodeOrder of nodes (in informer order): Count nodes
// of the zone round-robin — calls of the stateful NodeTree.Next() for the
// versions that have it (v1.18–v1.19), the List() order repeated for later
// ones, which is the same sequence for a tree built from scratch — and, for
// Cycles cycles, the nodes each scheduling cycle examines over the snapshot
// list (NodeTree.List order) from the moving start index, assuming every
// node is feasible, so each cycle stops after numFeasibleNodesToFind nodes
// and the next starts after them.
func NodeOrder(source string, nodes []*v1.Node, opts NodeOrderOptions) *v1alpha1.NodeOrder {
	tree := cache.NewNodeTree(nodes)
	zone := map[string]string{}
	for _, n := range nodes {
		zone[n.Name] = zoneOf(n)
	}
	out := &v1alpha1.NodeOrder{Source: source, NumNodes: tree.NumNodes(), Order: []v1alpha1.NodeSlot{}}
	v1alpha1.SetKind(out, "NodeOrder")
	count := opts.Count
	if count == 0 {
		count = tree.NumNodes()
	}
	if opts.Behavior == nil || !opts.Behavior.NodeOrderByNext {
		out.Order = listOrder(tree, count, zone)
	} else {
		for i := 1; i <= count && tree.NumNodes() > 0; i++ {
			name := tree.Next()
			// Rounds() counts the wraps made up to and including this call.
			out.Order = append(out.Order, v1alpha1.NodeSlot{Index: i, Node: name, Zone: zone[name], Round: tree.Rounds() + 1})
		}
	}
	out.Cycles = cycles(tree, opts)
	return out
}

// listOrder is count slots of the List() order, round after round.
func listOrder(tree *cache.NodeTree, count int, zone map[string]string) []v1alpha1.NodeSlot {
	out := []v1alpha1.NodeSlot{}
	names, err := tree.List()
	if err != nil || len(names) == 0 {
		return out
	}
	for i := 0; i < count; i++ {
		name := names[i%len(names)]
		out = append(out, v1alpha1.NodeSlot{Index: i + 1, Node: name, Zone: zone[name], Round: i/len(names) + 1})
	}
	return out
}

func cycles(tree *cache.NodeTree, opts NodeOrderOptions) []v1alpha1.CycleScan {
	names, err := tree.List()
	if err != nil || len(names) == 0 || opts.Cycles == 0 {
		return nil
	}
	numToFind := int(cache.NumFeasibleNodesToFind(opts.Percentage, int32(len(names))))
	var out []v1alpha1.CycleScan
	start := 0
	for c := 1; c <= opts.Cycles; c++ {
		scan := v1alpha1.CycleScan{Cycle: c, StartIndex: start, NumToFind: numToFind}
		for i := 0; i < numToFind; i++ {
			scan.Nodes = append(scan.Nodes, names[(start+i)%len(names)])
		}
		out = append(out, scan)
		start = (start + numToFind) % len(names)
	}
	return out
}
