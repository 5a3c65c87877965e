package views

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
)

// RequestedOptions select and annotate the RequestedReport.
type RequestedOptions struct {
	// Selector filters nodes by label; nil or Everything keeps all nodes,
	// placeholders and ghosts included (they have no labels, so any other
	// selector drops them).
	Selector labels.Selector
	// FitPod, if set, gets a per-node NodeResourcesFit verdict.
	FitPod *v1.Pod
	// Gates compute FitPod's requests (default: v1.36's).
	Gates *cache.FeatureGates
}

// Requested builds the per-node RequestedReport of m, rows in name order,
// with a total row summing every row.
func Requested(m *model.Model, opts RequestedOptions) *v1alpha1.RequestedReport {
	d := m.Cache.Dump()
	out := &v1alpha1.RequestedReport{Source: m.Source, Nodes: []v1alpha1.NodeRequested{}, Total: v1alpha1.NodeRequested{Name: "TOTAL"}}
	v1alpha1.SetKind(out, "RequestedReport")
	var fitReq *cache.Resource
	if opts.FitPod != nil {
		gates := cache.DefaultFeatureGates()
		if opts.Gates != nil {
			gates = *opts.Gates
		}
		r := cache.ComputePodResource(opts.FitPod, gates).Resource
		fitReq = &r
		out.Pod = &v1alpha1.FitPod{Namespace: opts.FitPod.Namespace, Name: opts.FitPod.Name, Requested: resourceOf(fitReq)}
	}
	for _, name := range sortedNodeNames(d.Nodes) {
		ni := d.Nodes[name]
		if !selected(opts.Selector, ni) {
			continue
		}
		row := requestedRow(name, ni, fitReq)
		if row.Fit != nil && row.Fit.Fits {
			out.Pod.FitsNodes++
		}
		out.Nodes = append(out.Nodes, row)
		addRow(&out.Total, &row)
	}
	out.Resources = resourceNames(out.Nodes)
	return out
}

func selected(sel labels.Selector, ni *cache.NodeInfo) bool {
	if sel == nil || sel.Empty() {
		return true
	}
	return ni.Node() != nil && sel.Matches(labels.Set(ni.Node().Labels))
}

func requestedRow(name string, ni *cache.NodeInfo, fitReq *cache.Resource) v1alpha1.NodeRequested {
	row := v1alpha1.NodeRequested{
		Name: name, Placeholder: ni.IsPlaceholder(), Ghost: ni.IsGhost(), Pods: len(ni.Pods),
		Requested: resourceOf(ni.Requested), NonZeroRequested: nonZeroOf(ni.NonZeroRequested), Allocatable: resourceOf(ni.Allocatable),
	}
	if fitReq == nil {
		return row
	}
	if ni.Node() == nil {
		// The scheduler never considers NodeInfos without a node object.
		row.Fit = &v1alpha1.Fit{Reasons: []string{"no node object"}}
		return row
	}
	reasons := cache.InsufficientResources(fitReq, ni)
	row.Fit = &v1alpha1.Fit{Fits: len(reasons) == 0, Reasons: reasons}
	return row
}

func addRow(total, row *v1alpha1.NodeRequested) {
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
