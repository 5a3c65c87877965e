package views

import (
	"slices"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
)

// RequestedOptions select the RequestedReport's nodes.
type RequestedOptions struct {
	// Selector filters nodes by label; nil or Everything keeps all nodes,
	// placeholders and ghosts included (they have no labels, so any other
	// selector drops them).
	Selector labels.Selector
}

// Requested builds the per-node RequestedReport of m, rows in name order,
// with a total row summing every row.
func Requested(m *model.Model, opts RequestedOptions) *v1alpha1.RequestedReport {
	d := m.Cache.Dump()
	out := &v1alpha1.RequestedReport{Source: m.Source, Nodes: []v1alpha1.NodeRequested{}, Total: v1alpha1.NodeRequested{Name: "TOTAL"}}
	v1alpha1.SetKind(out, "RequestedReport")
	overflows := m.OverflowsByNode()
	for _, name := range sortedNodeNames(d.Nodes) {
		ni := d.Nodes[name]
		if !selected(opts.Selector, ni) {
			continue
		}
		row := requestedRow(name, ni)
		row.Overflow = overflows[name]
		out.Nodes = append(out.Nodes, row)
		addRow(&out.Total, &row)
	}
	out.Resources = resourceNames(out.Nodes)
	return out
}

// AttachFits adds pod's verdict on each node of r: v is decide's FilterAll
// verdict (kube-scheduler's filters on every node). The pod's requests are
// those the kube-scheduler version of profile accounts (nil: v1.36 with
// its default gates). Rows without a node object (placeholders, ghosts) are
// never candidates.
func AttachFits(r *v1alpha1.RequestedReport, pod *v1.Pod, v *decide.Verdict, profile *cache.Profile) {
	if profile == nil {
		p := cache.DefaultProfile()
		profile = &p
	}
	req := profile.PodResource(pod).Resource
	r.Pod = &v1alpha1.FitPod{Namespace: pod.Namespace, Name: pod.Name, Requested: resourceOf(&req)}
	fits := make(map[string]*v1alpha1.Fit, len(v.Nodes))
	for _, n := range v.Nodes {
		fits[n.Name] = &v1alpha1.Fit{Fits: n.Feasible, Plugin: n.Plugin, Reasons: n.Reasons}
	}
	for i := range r.Nodes {
		row := &r.Nodes[i]
		if row.Fit = fits[row.Name]; row.Fit == nil {
			row.Fit = &v1alpha1.Fit{Reasons: []string{"no node object"}}
		}
		if row.Fit.Fits {
			r.Pod.FitsNodes++
		}
	}
}

func selected(sel labels.Selector, ni *cache.NodeInfo) bool {
	if sel == nil || sel.Empty() {
		return true
	}
	return ni.Node() != nil && sel.Matches(labels.Set(ni.Node().Labels))
}

func requestedRow(name string, ni *cache.NodeInfo) v1alpha1.NodeRequested {
	return v1alpha1.NodeRequested{
		Name: name, Placeholder: ni.IsPlaceholder(), Ghost: ni.IsGhost(), Pods: len(ni.Pods),
		Requested: resourceOf(ni.Requested), NonZeroRequested: nonZeroOf(ni.NonZeroRequested), Allocatable: resourceOf(ni.Allocatable),
	}
}

func addRow(total, row *v1alpha1.NodeRequested) {
	for _, res := range row.Overflow {
		if !slices.Contains(total.Overflow, res) {
			total.Overflow = append(total.Overflow, res)
			slices.Sort(total.Overflow)
		}
	}
	total.Pods += row.Pods
	addResource(&total.Requested, &row.Requested)
	addResource(&total.Allocatable, &row.Allocatable)
	total.NonZeroRequested.MilliCPU += row.NonZeroRequested.MilliCPU
	total.NonZeroRequested.Memory += row.NonZeroRequested.Memory
}

func addResource(total, r *v1alpha1.Resource) {
	total.MilliCPU += r.MilliCPU
	total.Memory += r.Memory
	total.EphemeralStorage += r.EphemeralStorage
	total.AllowedPodNumber += r.AllowedPodNumber
	for k, v := range r.ScalarResources {
		if total.ScalarResources == nil {
			total.ScalarResources = map[string]int64{}
		}
		total.ScalarResources[k] += v
	}
}

// resourceNames lists cpu, memory, ephemeral-storage, pods and then every
// scalar resource with a non-zero allocatable or requested amount on any row,
// sorted (nodes report hugepages-* as 0 even when they have none).
func resourceNames(rows []v1alpha1.NodeRequested) []string {
	scalars := map[string]bool{}
	for _, r := range rows {
		for _, m := range []map[string]int64{r.Allocatable.ScalarResources, r.Requested.ScalarResources} {
			for k, v := range m {
				if v != 0 {
					scalars[k] = true
				}
			}
		}
	}
	names := make([]string, 0, len(scalars))
	for k := range scalars {
		names = append(names, k)
	}
	sort.Strings(names)
	return append([]string{"cpu", "memory", "ephemeral-storage", "pods"}, names...)
}
