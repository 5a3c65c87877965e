package whatif

import (
	"fmt"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// Edits are the what-if changes of the decision commands' flags, applied
// to the loaded cluster before the cache model is built.
type Edits struct {
	// Cordon and Uncordon name nodes whose spec.unschedulable is set or
	// cleared (--cordon, --uncordon), as kubectl cordon / uncordon do.
	Cordon, Uncordon []string
	// RemoveNodes name nodes taken out of the cluster (--remove-node), as
	// after a node failure once its pods are deleted: the pods a controller
	// recreates come back as pending replacements.
	RemoveNodes []string
	// AddNodes are the copies of template nodes to add (--add-node,
	// --add-node-file).
	AddNodes []NodeCopies
	// Evict names pods evicted (--evict): recreated by their controller as
	// pending replacements, gone without one.
	Evict []types.NamespacedName
}

// NodeCopies asks for Count copies of a template node.
type NodeCopies struct {
	// Template is the name of a node of the input, or of Node.
	Template string
	// Node is a template read from File (--add-node-file); nil for a node
	// of the input.
	Node *v1.Node
	File string
	// Count is the number of copies, at least 1.
	Count int
}

// Empty reports whether there is no edit at all.
func (e Edits) Empty() bool {
	return len(e.Cordon)+len(e.Uncordon)+len(e.RemoveNodes)+len(e.AddNodes)+len(e.Evict) == 0
}

// ParseCopies parses NAME[=COUNT] (--add-node, --add-node-file): the
// count defaults to 1 and must be a positive integer. ok reports whether a
// count was given.
func ParseCopies(s string) (name string, count int, given bool, err error) {
	name, c, given := strings.Cut(s, "=")
	if name == "" {
		return "", 0, false, fmt.Errorf("%q: want NAME[=COUNT]", s)
	}
	if !given {
		return name, 1, false, nil
	}
	n, err := strconv.Atoi(c)
	if err != nil || n < 1 {
		return "", 0, false, fmt.Errorf("%q: COUNT must be a positive integer, got %q", s, c)
	}
	return name, n, true, nil
}

// Applied records what Apply did, in Apply's order (internal/views maps
// it to the reports' whatIf field).
type Applied struct {
	// Cordoned and Uncordoned are the nodes whose cordon changed.
	Cordoned, Uncordoned []string
	// RemovedNodes are the nodes removed, each with its pods gone.
	RemovedNodes []RemovedNode
	// AddedNodes are the copies of each template added.
	AddedNodes []AddedNodes
	// Evicted are the pods evicted.
	Evicted []GonePod
}

// RemovedNode is one node removed and the pods that went with it.
type RemovedNode struct {
	Node string
	Pods []GonePod
}

// GonePod is one pod gone ("namespace/name"): whether and how its
// controller recreates it (a Recreation), and its replacement's name.
type GonePod struct {
	Pod         string
	Recreation  string
	Replacement string
}

// AddedNodes are the copies of one template (a node of the input, or of
// File): their names, in order.
type AddedNodes struct {
	Template string
	File     string
	Names    []string
}

// Apply returns a copy of c with the edits made: the Nodes and Pods slices
// are new, and every object changed is a copy (the loader's objects are
// shared with the original cluster and never modified). Objects gains a
// renamed copy of a template's CSINode, so that the copies have the
// template's CSI attach limits (NodeVolumeLimits reads them per node).
//
// Errors name the node or pod that does not exist, a node given to two
// edits that contradict each other (cordon and uncordon, or removed and
// cordoned), a pod evicted twice or on a removed node, or an added node
// whose name is already taken.
func Apply(c *load.Cluster, e Edits) (*load.Cluster, *Applied, error) {
	nodes := map[string]*v1.Node{}
	for _, n := range c.Nodes {
		nodes[n.Name] = n
	}
	cordon, uncordon, remove, err := nodeSets(nodes, e)
	if err != nil {
		return nil, nil, err
	}
	out := *c
	a := &Applied{}
	out.Nodes = make([]*v1.Node, 0, len(c.Nodes))
	for _, n := range c.Nodes {
		switch {
		case remove.Has(n.Name):
			continue
		case cordon.Has(n.Name):
			n = Cordoned(n, true)
		case uncordon.Has(n.Name):
			n = Cordoned(n, false)
		}
		out.Nodes = append(out.Nodes, n)
	}
	a.Cordoned, a.Uncordoned = orderOf(e.Cordon), orderOf(e.Uncordon)
	if out.Pods, err = a.movePods(c.Pods, remove, e); err != nil {
		return nil, nil, err
	}
	if err := a.addNodes(&out, c, nodes, e.AddNodes); err != nil {
		return nil, nil, err
	}
	return &out, a, nil
}

// nodeSets checks that every node named exists and that no node is given
// to contradicting edits.
func nodeSets(nodes map[string]*v1.Node, e Edits) (cordon, uncordon, remove sets.Set[string], err error) {
	lists := []struct {
		flag  string
		names []string
	}{{"--cordon", e.Cordon}, {"--uncordon", e.Uncordon}, {"--remove-node", e.RemoveNodes}}
	seen := map[string]string{}
	for _, l := range lists {
		for _, name := range l.names {
			if nodes[name] == nil {
				return nil, nil, nil, fmt.Errorf("%s %s: no such node in the input", l.flag, name)
			}
			if prev, ok := seen[name]; ok && prev != l.flag {
				return nil, nil, nil, fmt.Errorf("node %s is given to both %s and %s", name, prev, l.flag)
			}
			seen[name] = l.flag
		}
	}
	return sets.New(e.Cordon...), sets.New(e.Uncordon...), sets.New(e.RemoveNodes...), nil
}

// orderOf is names without repeats, in the order given.
func orderOf(names []string) []string {
	var out []string
	seen := sets.New[string]()
	for _, n := range names {
		if !seen.Has(n) {
			seen.Insert(n)
			out = append(out, n)
		}
	}
	return out
}

// UnschedulableTaintKey is the taint the node lifecycle controller keeps on
// a cordoned node (TaintNodesByCondition, v1.36:
// node.kubernetes.io/unschedulable, effect NoSchedule).
const UnschedulableTaintKey = "node.kubernetes.io/unschedulable"

// Cordoned returns a copy of n with spec.unschedulable set to cordon, and
// the node.kubernetes.io/unschedulable:NoSchedule taint that the node
// lifecycle controller adds to (or removes from) a cordoned node. n is not
// modified.
func Cordoned(n *v1.Node, cordon bool) *v1.Node {
	c := n.DeepCopy()
	c.Spec.Unschedulable = cordon
	var taints []v1.Taint
	for _, t := range c.Spec.Taints {
		if t.Key != UnschedulableTaintKey {
			taints = append(taints, t)
		}
	}
	if cordon {
		taints = append(taints, v1.Taint{Key: UnschedulableTaintKey, Effect: v1.TaintEffectNoSchedule})
	}
	c.Spec.Taints = taints
	return c
}

// movePods returns the pods without those of removed nodes and the evicted
// ones, then the replacements their controllers create, in that order (the
// replacements arrive last in the scheduler's queue).
func (a *Applied) movePods(pods []*v1.Pod, remove sets.Set[string], e Edits) ([]*v1.Pod, error) {
	evict := map[types.NamespacedName]bool{}
	for _, k := range e.Evict {
		if _, dup := evict[k]; dup {
			return nil, fmt.Errorf("--evict %s given twice", k)
		}
		evict[k] = false
	}
	byNode := map[string]*RemovedNode{}
	for _, n := range orderOf(e.RemoveNodes) {
		a.RemovedNodes = append(a.RemovedNodes, RemovedNode{Node: n})
	}
	for i := range a.RemovedNodes {
		byNode[a.RemovedNodes[i].Node] = &a.RemovedNodes[i]
	}
	out := make([]*v1.Pod, 0, len(pods))
	var replacements []*v1.Pod
	evicted := map[types.NamespacedName]GonePod{}
	for _, p := range pods {
		key := types.NamespacedName{Namespace: p.Namespace, Name: p.Name}
		seen, evicting := evict[key]
		switch {
		case remove.Has(p.Spec.NodeName):
			if evicting {
				return nil, fmt.Errorf("--evict %s: the pod is on node %s, which --remove-node removes", key, p.Spec.NodeName)
			}
			gone, r := goneOf(p)
			byNode[p.Spec.NodeName].Pods = append(byNode[p.Spec.NodeName].Pods, gone)
			replacements = appendIf(replacements, r)
		case evicting && !seen:
			evict[key] = true
			gone, r := goneOf(p)
			evicted[key] = gone
			if gone.Recreation == string(NotMoved) {
				out = append(out, p) // its DaemonSet recreates it on the same node
				continue
			}
			replacements = appendIf(replacements, r)
		default:
			out = append(out, p)
		}
	}
	for _, k := range e.Evict {
		if !evict[k] {
			return nil, fmt.Errorf("--evict %s: no such pod in the input", k)
		}
		a.Evicted = append(a.Evicted, evicted[k])
	}
	return append(out, replacements...), nil
}

func appendIf(pods []*v1.Pod, p *v1.Pod) []*v1.Pod {
	if p == nil {
		return pods
	}
	return append(pods, p)
}

// goneOf is what becomes of p once deleted: its record and, when its
// controller recreates it, the replacement.
func goneOf(p *v1.Pod) (GonePod, *v1.Pod) {
	rec := RecreationOf(p)
	g := GonePod{Pod: p.Namespace + "/" + p.Name, Recreation: string(rec)}
	if rec != Recreated {
		return g, nil
	}
	r := Replacement(p)
	g.Replacement = r.Namespace + "/" + r.Name
	return g, r
}
