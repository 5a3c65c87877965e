package views

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// RequestedOptions select the RequestedReport's nodes and choose its rows.
// The node filters choose which nodes are shown (and whose pods the pod
// and namespace rows list); they never change a node's own numbers. Any
// node filter drops placeholders and ghosts, which have no node object.
type RequestedOptions struct {
	// Selector filters nodes by label; nil or Everything keeps all nodes,
	// placeholders and ghosts included (they have no labels, so any other
	// selector drops them).
	Selector labels.Selector
	// Taints keeps the nodes that have, for each filter, a taint it matches.
	Taints []TaintFilter
	// Untainted keeps the nodes without any taint.
	Untainted bool
	// Cordoned, when set, keeps the nodes whose spec.unschedulable is
	// *Cordoned (true: cordoned; false: schedulable).
	Cordoned *bool
	// Pods adds a row per pod of the selected nodes (Report.Pods);
	// ByNamespace a row per namespace (Report.Namespaces).
	Pods, ByNamespace bool
	// Namespace ("" for all) and PodSelector (nil for all) choose the pods
	// of the pod and namespace rows.
	Namespace   string
	PodSelector labels.Selector
	// Limits adds the limits (component-helpers' resource.PodLimits) of
	// every row.
	Limits bool
}

// Requested builds the per-node RequestedReport of m, rows in name order,
// with a total row summing every row, and the pod or namespace rows asked
// for.
func Requested(m *model.Model, opts RequestedOptions) (out *v1alpha1.RequestedReport) {
	profile := m.Cache.Profile()
	m.Cache.Inspect(func(d *cache.Dump) { out = requestedOf(m, d, opts, &profile) })
	return out
}

// requestedOf is Requested from d, which it reads without retaining any of
// it.
func requestedOf(m *model.Model, d *cache.Dump, opts RequestedOptions, profile *cache.Profile) *v1alpha1.RequestedReport {
	out := &v1alpha1.RequestedReport{Source: m.Source, Nodes: []v1alpha1.NodeRequested{}, Total: v1alpha1.NodeRequested{Name: "TOTAL"}}
	v1alpha1.SetKind(out, "RequestedReport")
	overflows := m.OverflowsByNodeIn(d)
	var pods []v1alpha1.PodRequested
	for _, name := range sortedNodeNames(d.Nodes) {
		ni := d.Nodes[name]
		if !opts.nodeSelected(ni) {
			continue
		}
		row := requestedRow(name, ni)
		row.Overflow = overflows[name]
		if opts.Limits {
			row.Limits = &v1alpha1.Resource{}
		}
		for _, pi := range ni.Pods {
			var limits *v1alpha1.Resource
			if opts.Limits {
				l := profile.PodLimits(pi.Pod)
				lr := model.ResourceOf(&l)
				limits = &lr
				row.Limits.Add(limits)
			}
			if (opts.Pods || opts.ByNamespace) && opts.podSelected(pi.Pod) {
				pods = append(pods, v1alpha1.PodRequested{
					Namespace: pi.Pod.Namespace, Name: pi.Pod.Name, Node: name,
					Requested:        model.ResourceOf(&pi.Resource.Resource),
					NonZeroRequested: v1alpha1.NonZeroResource{MilliCPU: pi.Resource.NonZeroMilliCPU, Memory: pi.Resource.NonZeroMemory},
					Limits:           limits,
				})
			}
		}
		out.Nodes = append(out.Nodes, row)
		addRow(&out.Total, &row)
	}
	out.Resources = resourceNames(out.Nodes)
	sort.SliceStable(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	if opts.Pods {
		out.Pods = append([]v1alpha1.PodRequested{}, pods...)
	}
	if opts.ByNamespace {
		out.Namespaces = byNamespace(pods, opts.Limits)
	}
	return out
}

// byNamespace sums pods (sorted by namespace) per namespace.
func byNamespace(pods []v1alpha1.PodRequested, limits bool) []v1alpha1.NamespaceRequested {
	out := []v1alpha1.NamespaceRequested{}
	var nodes sets.Set[string]
	for i := range pods {
		p := &pods[i]
		if len(out) == 0 || out[len(out)-1].Namespace != p.Namespace {
			out = append(out, v1alpha1.NamespaceRequested{Namespace: p.Namespace})
			nodes = sets.New[string]()
			if limits {
				out[len(out)-1].Limits = &v1alpha1.Resource{}
			}
		}
		ns := &out[len(out)-1]
		ns.Pods++
		if !nodes.Has(p.Node) {
			nodes.Insert(p.Node)
			ns.Nodes++
		}
		ns.Requested.Add(&p.Requested)
		ns.NonZeroRequested.Add(&p.NonZeroRequested)
		if p.Limits != nil && ns.Limits != nil {
			ns.Limits.Add(p.Limits)
		}
	}
	return out
}

func (o *RequestedOptions) nodeSelected(ni *cache.NodeInfo) bool {
	if !selected(o.Selector, ni) {
		return false
	}
	if len(o.Taints) == 0 && !o.Untainted && o.Cordoned == nil {
		return true
	}
	n := ni.Node()
	if n == nil {
		return false
	}
	if o.Untainted && len(n.Spec.Taints) > 0 {
		return false
	}
	if o.Cordoned != nil && n.Spec.Unschedulable != *o.Cordoned {
		return false
	}
	for _, f := range o.Taints {
		if !slices.ContainsFunc(n.Spec.Taints, f.Matches) {
			return false
		}
	}
	return true
}

func (o *RequestedOptions) podSelected(p *v1.Pod) bool {
	if o.Namespace != "" && p.Namespace != o.Namespace {
		return false
	}
	return o.PodSelector == nil || o.PodSelector.Matches(labels.Set(p.Labels))
}

// TaintFilter matches taints by key and, when set, value and effect
// (--taint KEY[=VALUE][:EFFECT]).
type TaintFilter struct {
	Key string
	// Value, when not nil, must equal the taint's value ("" included).
	Value  *string
	Effect v1.TaintEffect
}

// Matches reports whether t is a taint f describes.
func (f TaintFilter) Matches(t v1.Taint) bool {
	return t.Key == f.Key && (f.Value == nil || t.Value == *f.Value) && (f.Effect == "" || t.Effect == f.Effect)
}

// ParseTaintFilter parses KEY[=VALUE][:EFFECT], EFFECT one of NoSchedule,
// PreferNoSchedule, NoExecute.
func ParseTaintFilter(s string) (TaintFilter, error) {
	var f TaintFilter
	rest, effect, hasEffect := strings.Cut(s, ":")
	if hasEffect {
		switch e := v1.TaintEffect(effect); e {
		case v1.TaintEffectNoSchedule, v1.TaintEffectPreferNoSchedule, v1.TaintEffectNoExecute:
			f.Effect = e
		default:
			return f, fmt.Errorf("invalid taint effect %q in %q: valid effects are NoSchedule, PreferNoSchedule, NoExecute", effect, s)
		}
	}
	key, value, hasValue := strings.Cut(rest, "=")
	if key == "" {
		return f, fmt.Errorf("invalid taint %q: want KEY[=VALUE][:EFFECT]", s)
	}
	f.Key = key
	if hasValue {
		f.Value = &value
	}
	return f, nil
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
	r.Pod = &v1alpha1.FitPod{Namespace: pod.Namespace, Name: pod.Name, Requested: model.ResourceOf(&req)}
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
		Requested: model.ResourceOf(ni.Requested), NonZeroRequested: model.NonZeroOf(ni.NonZeroRequested), Allocatable: model.ResourceOf(ni.Allocatable),
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
	total.Requested.Add(&row.Requested)
	total.Allocatable.Add(&row.Allocatable)
	total.NonZeroRequested.Add(&row.NonZeroRequested)
	if row.Limits != nil {
		if total.Limits == nil {
			total.Limits = &v1alpha1.Resource{}
		}
		total.Limits.Add(row.Limits)
	}
}

// resourceNames lists cpu, memory, ephemeral-storage, pods and then every
// scalar resource with a non-zero allocatable or requested amount on any row,
// sorted (nodes report hugepages-* as 0 even when they have none).
func resourceNames(rows []v1alpha1.NodeRequested) []string {
	scalars := sets.New[string]()
	for _, r := range rows {
		for _, m := range []map[string]int64{r.Allocatable.ScalarResources, r.Requested.ScalarResources} {
			for k, v := range m {
				if v != 0 {
					scalars.Insert(k)
				}
			}
		}
	}
	return append([]string{"cpu", "memory", "ephemeral-storage", "pods"}, sets.List(scalars)...)
}
