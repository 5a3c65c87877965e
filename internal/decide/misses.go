package decide

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/helper"
)

// NearMiss is this tool's analysis of one node that rejected an
// unschedulable pod, not the scheduler's: every Filter plugin that rejects
// the pod there, where kube-scheduler stops at the first.
type NearMiss struct {
	Node string
	// Rejections are the rejecting Filter plugins in the profile's order.
	Rejections []Rejection
}

// Rejection is one Filter plugin's rejection of a pod on a node.
type Rejection struct {
	Plugin string
	// Code is "Unschedulable" or "UnschedulableAndUnresolvable".
	Code string
	// Reasons are the plugin's reason strings, verbatim.
	Reasons []string
	// Shortfalls are, for NodeResourcesFit, each resource the node lacks.
	Shortfalls []Shortfall
	// Taint is, for TaintToleration, the first NoSchedule or NoExecute
	// taint the pod does not tolerate, "key=value:Effect" ("key:Effect"
	// without a value).
	Taint string
}

// Shortfall is one resource NodeResourcesFit finds short on a node, as its
// Fits computes it (noderesources.Fits, v1.36): the pod's request against
// allocatable minus what the node's pods request. Units: milliCPU for
// "cpu", bytes for "memory" and "ephemeral-storage", pods for "pods" (the
// pod needs 1), the resource's own unit otherwise.
type Shortfall struct {
	Resource  string
	Requested int64
	// Free is allocatable minus requested on the node (negative when the
	// node is already over-committed).
	Free int64
}

// explain adds to a finished cycle's verdict what a reader asks next:
// how many nodes each plugin rejected, the best scored nodes, and for an
// unschedulable pod the nodes nearest to taking it. It changes neither the
// verdict's outcome nor the cycle's state.
func (c *cycle) explain(ctx context.Context) error {
	if !c.countOnly { // else counted as the nodes were taken and scored
		c.v.RejectedBy = rejectedBy(c.v.Nodes)
		c.v.TopNodes = topNodes(c.v.Nodes, topScored)
	}
	if c.v.Result != Unschedulable || c.e.nearMisses == 0 || c.diag.PreFilterMsg != "" {
		return nil
	}
	misses, err := c.nearMisses(ctx)
	if err != nil {
		return err
	}
	c.v.NearMisses = misses
	return nil
}

// topScored is how many of the best scored nodes a verdict keeps.
const topScored = 3

// rejectedBy counts the rejected nodes per plugin: the plugin the
// scheduler records for each (the first that rejected it). Nodes a
// PreFilter's node subset left out count under their reason.
func rejectedBy(nodes []NodeResult) map[string]int {
	var out map[string]int
	for i := range nodes {
		n := &nodes[i]
		if n.Feasible {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[rejectedKey(n.Plugin, n.Reasons)]++
	}
	return out
}

// rejectedKey is the RejectedBy key of a node rejected by plugin with
// reasons: the plugin, else (a PreFilter's node subset left it out) the
// reasons.
func rejectedKey(plugin string, reasons []string) string {
	if plugin == "" {
		return strings.Join(reasons, ", ")
	}
	return plugin
}

// topNodes are the n scored nodes with the highest totals, in the order
// the cycle ranks them (equal totals in scan order, so the chosen node is
// first); nil when nothing was scored. It keeps n indices as it goes
// rather than sorting the hundreds of scored nodes of a large cluster.
func topNodes(nodes []NodeResult, n int) []NodeResult {
	top := topIndices(len(nodes), n, func(i int) (int64, bool) {
		r := &nodes[i]
		return r.Total, r.Feasible && len(r.Scores) > 0
	})
	if len(top) == 0 {
		return nil
	}
	out := make([]NodeResult, len(top))
	for k, i := range top {
		out[k] = nodes[i]
	}
	return out
}

// topIndices are the indices, among count candidates in order, of the n
// highest totals (equal totals in order); total says whether a candidate
// counts and its total.
func topIndices(count, n int, total func(i int) (int64, bool)) []int {
	top := make([]int, 0, n+1)
	totals := make([]int64, 0, n+1)
	for i := range count {
		t, ok := total(i)
		if !ok {
			continue
		}
		// Insert after every kept node with a total at least as high.
		at := len(top)
		for at > 0 && totals[at-1] < t {
			at--
		}
		if at >= n {
			continue
		}
		top, totals = slices.Insert(top, at, i), slices.Insert(totals, at, t)
		if len(top) > n {
			top, totals = top[:n], totals[:n]
		}
	}
	return top
}

// nearMisses runs every Filter plugin on every node for the pod, with the
// cycle's PreFilter state, and keeps the nodes rejected by the fewest
// plugins (Input.NearMisses of them; all with a negative count), fewest
// first, then fewest reasons (a node short of cpu alone before one short
// of cpu and memory), then the smallest shortage (see shortage), then in
// NodeTree order.
func (c *cycle) nearMisses(ctx context.Context) ([]NearMiss, error) {
	nodes := c.e.lister.list
	order := map[string]int{}
	for i, p := range c.fw.ListPlugins().Filter.Enabled {
		order[p.Name] = i
	}
	c.asks = newPodAsks(c.pod)
	misses := make([]NearMiss, len(nodes))
	errs := make([]error, len(nodes))
	c.fw.Parallelizer().Until(ctx, len(nodes), func(i int) {
		misses[i], errs[i] = c.missOn(ctx, nodes[i], order)
	}, "NearMisses")
	kept := misses[:0]
	for i := range misses {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if len(misses[i].Rejections) > 0 {
			kept = append(kept, misses[i])
		}
	}
	return nearest(kept, c.e.nearMisses), nil
}

// shortage is how far the node is from the pod's resource requests: the
// sum, over the resources it is short of, of the missing part of the
// request (1 when nothing is free). Among nodes short of the same number
// of resources, the one that misses the least comes first: 1670m free of
// a 3-cpu request before 620m.
func (m *NearMiss) shortage() float64 {
	total := 0.0
	for i := range m.Rejections {
		for _, s := range m.Rejections[i].Shortfalls {
			if s.Requested <= 0 {
				continue
			}
			free := max(s.Free, 0)
			total += float64(s.Requested-min(free, s.Requested)) / float64(s.Requested)
		}
	}
	return total
}

// reasons counts the reasons of every rejection.
func (m *NearMiss) reasons() int {
	n := 0
	for i := range m.Rejections {
		n += len(m.Rejections[i].Reasons)
	}
	return n
}

// missOn collects every rejection of the pod on one node over the
// scheduler's two passes: with the nominated pods of equal or higher
// priority added, then without them (RunFilterPluginsWithNominatedPods,
// v1.36). A node the scheduler rejected where every plugin passes here
// (one a PreFilter's node subset left out) gets the scheduler's status.
func (c *cycle) missOn(ctx context.Context, ni fwk.NodeInfo, order map[string]int) (NearMiss, error) {
	m := NearMiss{Node: ni.Node().Name}
	seen := sets.New[string]()
	state, withNominated, added, err := c.addNominated(ctx, ni)
	if err != nil {
		return m, err
	}
	if added {
		if err := c.rejections(ctx, state, withNominated, &m, seen); err != nil {
			return m, err
		}
	}
	if err := c.rejections(ctx, c.state, ni, &m, seen); err != nil {
		return m, err
	}
	if len(m.Rejections) == 0 {
		if s := c.diag.NodeToStatus.Get(m.Node); s.IsRejected() {
			m.Rejections = append(m.Rejections, Rejection{Plugin: s.Plugin(), Code: s.Code().String(), Reasons: s.Reasons()})
		}
		return m, nil
	}
	sort.SliceStable(m.Rejections, func(i, j int) bool { return order[m.Rejections[i].Plugin] < order[m.Rejections[j].Plugin] })
	return m, nil
}

// rejections runs the profile's Filter plugins on ni again and again, each
// time skipping the plugins that rejected the pod so far, and adds each
// rejection not seen yet to m.
func (c *cycle) rejections(ctx context.Context, state fwk.CycleState, ni fwk.NodeInfo, m *NearMiss, seen sets.Set[string]) error {
	skip := sets.New[string]()
	if s := state.GetSkipFilterPlugins(); s != nil {
		skip = s.Clone()
	}
	view := &skipping{CycleState: state, skip: skip}
	for {
		s := c.fw.RunFilterPlugins(ctx, view, c.pod, ni)
		switch {
		case s.IsSuccess():
			return nil
		case !s.IsRejected():
			return s.AsError()
		case s.Plugin() == "" || skip.Has(s.Plugin()):
			return nil // cannot skip it: no further plugin is reachable
		}
		skip.Insert(s.Plugin())
		if !seen.Has(s.Plugin()) {
			seen.Insert(s.Plugin())
			m.Rejections = append(m.Rejections, c.rejection(s, ni))
		}
	}
}

// skipping is a cycle state whose Filter plugins to skip are its own:
// every node's repeated filter passes skip different plugins over the same
// PreFilter state.
type skipping struct {
	fwk.CycleState
	skip sets.Set[string]
}

func (s *skipping) GetSkipFilterPlugins() sets.Set[string] { return s.skip }

// rejection turns a status into a Rejection with what the plugin does not
// say: the shortfall per resource, the taint not tolerated.
func (c *cycle) rejection(s *fwk.Status, ni fwk.NodeInfo) Rejection {
	r := Rejection{Plugin: s.Plugin(), Code: s.Code().String(), Reasons: s.Reasons()}
	switch r.Plugin {
	case "NodeResourcesFit":
		r.Shortfalls = c.asks.shortfalls(ni, r.Reasons)
	case "TaintToleration":
		r.Taint = untoleratedTaint(c.pod, ni.Node())
	}
	return r
}

// untoleratedTaint is the taint TaintToleration's Filter finds first.
func untoleratedTaint(pod *v1.Pod, node *v1.Node) string {
	t, ok := corev1helpers.FindMatchingUntoleratedTaint(klog.Background(), node.Spec.Taints, pod.Spec.Tolerations,
		helper.DoNotScheduleTaintsFilterFunc(), utilfeature.DefaultFeatureGate.Enabled(features.TaintTolerationComparisonOperators))
	if !ok {
		return ""
	}
	if t.Value == "" {
		return fmt.Sprintf("%s:%s", t.Key, t.Effect)
	}
	return fmt.Sprintf("%s=%s:%s", t.Key, t.Value, t.Effect)
}

// addNominated is the scheduler's first filter pass's input: the node with
// the pods nominated to it of equal or higher priority (other than the pod
// itself) added, and the PreFilter state told of them. added is false when
// there are none.
func (c *cycle) addNominated(ctx context.Context, ni fwk.NodeInfo) (fwk.CycleState, fwk.NodeInfo, bool, error) {
	nominated := c.fw.NominatedPodsForNode(ni.Node().Name)
	if len(nominated) == 0 {
		return nil, nil, false, nil
	}
	var state fwk.CycleState
	var out fwk.NodeInfo
	prio := corev1helpers.PodPriority(c.pod)
	for _, pi := range nominated {
		p := pi.GetPod()
		if corev1helpers.PodPriority(p) < prio || p.UID == c.pod.UID {
			continue
		}
		if out == nil {
			out, state = ni.Snapshot(), c.state.Clone()
		}
		out.AddPodInfo(pi)
		if s := c.fw.RunPreFilterExtensionAddPod(ctx, state, c.pod, pi, out); !s.IsSuccess() {
			return nil, nil, false, s.AsError()
		}
	}
	return state, out, out != nil, nil
}
