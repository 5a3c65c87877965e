package views

import (
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/scaledown"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// ScaleDownReport renders scale-down's outcome as the ScaleDownReport kind:
// per node its result, with the totals per node group (sizes: the groups'
// limits from cluster-autoscaler's status, nil when unknown) and the
// one-line verdict. groupNodes counts the nodes of each group in the
// cluster.
func ScaleDownReport(source, config string, threshold float64, o *scaledown.Outcome, groupNodes map[string]int, sizes []scaledown.GroupSize) *v1alpha1.ScaleDownReport {
	out := &v1alpha1.ScaleDownReport{Source: source, Config: config, UtilizationThreshold: threshold,
		Removable: append([]string{}, o.Removable...), Nodes: []v1alpha1.ScaleDownNode{}}
	v1alpha1.SetKind(out, "ScaleDownReport")
	groups := map[string]*v1alpha1.ScaleDownGroup{}
	for g, n := range groupNodes {
		groups[g] = &v1alpha1.ScaleDownGroup{Group: g, Nodes: n}
		if s := scaledown.SizeOf(g, sizes); s != nil {
			minSize := s.Min
			groups[g].MinSize = &minSize
		}
	}
	t := &out.Totals
	for i := range o.Nodes {
		n := &o.Nodes[i]
		out.Nodes = append(out.Nodes, scaleDownNode(n))
		if n.Result != scaledown.Removable {
			continue
		}
		freed := allocatableOf(n.Node)
		t.Freed.Add(&freed)
		if g := groups[n.Group]; g != nil {
			g.Removable++
			g.Freed.Add(&freed)
		}
	}
	t.Nodes, t.Candidates, t.Examined, t.NotExamined = len(o.Nodes), o.Candidates, o.Examined, o.NotExamined
	t.Removable, t.Pool, t.TimedOut, t.Cycles = len(o.Removable), o.Pool, o.TimedOut, o.Cycles
	t.Groups = []v1alpha1.ScaleDownGroup{}
	for _, g := range groups {
		t.Groups = append(t.Groups, *g)
	}
	sort.Slice(t.Groups, func(i, j int) bool { return t.Groups[i].Group < t.Groups[j].Group })
	out.Verdict = scaleDownVerdict(out)
	return out
}

func scaleDownNode(n *scaledown.NodeOutcome) v1alpha1.ScaleDownNode {
	d := v1alpha1.ScaleDownNode{Node: n.Node.Name, Group: n.Group, Result: string(n.Result),
		Utilization: n.Utilization.Value, UtilizationResource: string(n.Utilization.Resource),
		CPU: n.Utilization.CPU, Memory: n.Utilization.Memory, Rule: string(n.Rule), Message: n.Message}
	if n.Pod != nil {
		d.Pod = podKey(n.Pod)
	}
	for _, m := range n.Moves {
		d.Moves = append(d.Moves, v1alpha1.ScaleDownMove{Pod: podKey(m.Pod), Node: m.Node})
	}
	return d
}

// allocatableOf is node's allocatable as the cache accounts it.
func allocatableOf(node *v1.Node) v1alpha1.Resource {
	r := model.ResourceOf(cache.NewResource(node.Status.Allocatable))
	r.ScalarResources = nil // cpu, memory, storage and pods are what the totals say
	return r
}

// scaleDownVerdict is e.g. "2 of 12 nodes removable, freeing 6 cpu and
// 24Gi memory allocatable; 3 candidates not examined".
func scaleDownVerdict(r *v1alpha1.ScaleDownReport) string {
	t := r.Totals
	s := fmt.Sprintf("%d of %s removable", t.Removable, termtext.Count(t.Nodes, "node"))
	if t.Removable > 0 {
		s += fmt.Sprintf(", freeing %s cpu and %s memory allocatable", cores(t.Freed.MilliCPU), gibibytes(t.Freed.Memory))
	}
	if t.NotExamined > 0 {
		why := []string{}
		if t.TimedOut {
			why = append(why, "--scale-down-simulation-timeout")
		}
		why = append(why, fmt.Sprintf("pool of %d", t.Pool))
		s += fmt.Sprintf("; %s not examined (%s)", termtext.Count(t.NotExamined, "candidate"), strings.Join(why, ", "))
	}
	return s
}

// cores renders millicores as cores: "6", "2.5".
func cores(m int64) string {
	if m%1000 == 0 {
		return fmt.Sprintf("%d", m/1000)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", float64(m)/1000), "0"), ".")
}

// gibibytes renders bytes as "24Gi", "1.5Gi", or "512Mi" below 1Gi.
func gibibytes(b int64) string {
	const gi, mi = 1 << 30, 1 << 20
	if b < gi {
		return fmt.Sprintf("%dMi", b/mi)
	}
	if b%gi == 0 {
		return fmt.Sprintf("%dGi", b/gi)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.1f", float64(b)/gi), "0"), ".") + "Gi"
}
