package views

import (
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/scaleup"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// ScaleUpReport renders why --scale-up's outcome as the ScaleUpReport
// kind: one entry per node group (by name), least-waste's choice and the
// one-line verdict. pods counts the pods placed; workload names the
// --pod-file workload ("" for the pending pods).
func ScaleUpReport(source, config, workload string, pods int, o *scaleup.Outcome) *v1alpha1.ScaleUpReport {
	out := &v1alpha1.ScaleUpReport{Source: source, Config: config, Workload: workload, Pods: pods,
		Groups: []v1alpha1.ScaleUpGroup{}, Expander: "least-waste", Chosen: append([]string{}, o.Chosen...)}
	v1alpha1.SetKind(out, "ScaleUpReport")
	for i := range o.Groups {
		out.Groups = append(out.Groups, scaleUpGroup(&o.Groups[i]))
	}
	out.Verdict = scaleUpVerdict(out)
	return out
}

func scaleUpGroup(g *scaleup.GroupOutcome) v1alpha1.ScaleUpGroup {
	api := UntilFits(&g.Search.Estimate)
	d := v1alpha1.ScaleUpGroup{Group: g.Group.Name, Template: g.Group.Template.Name, Size: g.Group.Nodes,
		Result: string(g.Result), Nodes: g.Count, NeverFit: api.NeverFit, StillPending: api.StillPending, Bound: api.Bound, Trials: api.Trials}
	if g.Max >= 0 {
		maxSize, allowed := g.Max, g.Allowed
		d.MaxSize, d.Allowed = &maxSize, &allowed
	}
	for _, p := range g.Group.Pods {
		d.TemplatePods = append(d.TemplatePods, p.Namespace+"/"+p.Name)
	}
	if g.WasteOK {
		cpu, mem := g.Waste.CPU, g.Waste.Memory
		d.CPUWaste, d.MemoryWaste = &cpu, &mem
		d.PodsOnNewNodes = len(g.Placed)
	}
	return d
}

// scaleUpVerdict: least-waste's choice and its figures, a tie, or why
// no group is chosen.
func scaleUpVerdict(r *v1alpha1.ScaleUpReport) string {
	byName := map[string]*v1alpha1.ScaleUpGroup{}
	fit := 0
	for i := range r.Groups {
		byName[r.Groups[i].Group] = &r.Groups[i]
		if r.Groups[i].Result == "fits" {
			fit++
		}
	}
	figures := func(name string) string {
		g := byName[name]
		return fmt.Sprintf("%s (%s: %s cpu and %s memory wasted)", name, termtext.Count(g.Nodes, "node"), percent(*g.CPUWaste), percent(*g.MemoryWaste))
	}
	switch {
	case len(r.Chosen) == 1:
		of := ""
		if fit > 1 {
			of = fmt.Sprintf(", the least of %d groups that fit", fit)
		}
		return "least-waste would grow " + figures(r.Chosen[0]) + of
	case len(r.Chosen) > 1:
		names := make([]string, len(r.Chosen))
		for i, c := range r.Chosen {
			names[i] = figures(c)
		}
		return "least-waste ties between " + strings.Join(names, " and ") + "; cluster-autoscaler picks one of them at random"
	}
	for _, g := range r.Groups {
		if g.Result == "not-needed" {
			return "no node group needs to grow: the pods are scheduled on the cluster as it is"
		}
	}
	return fmt.Sprintf("no node group can take the pods (%s)", termtext.Count(len(r.Groups), "group"))
}

// percent renders a share as a whole percentage, "25%", or with one
// decimal when that is not exact enough, "37.5%".
func percent(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", f*100), "0"), ".") + "%"
}
