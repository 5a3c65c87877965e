package scaleup

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/scaledown"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
)

// Input is what Run works on.
type Input struct {
	// Model is the cluster (what-if edits applied); its cache is changed
	// during each group's search and restored.
	Model   *model.Model
	Objects []runtime.Object
	Config  *decide.Config
	// Groups are the node groups and their templates (Templates).
	Groups []Group
	// Sizes are the groups' limits from cluster-autoscaler's status
	// (scaledown.ParseStatus); nil when unknown: no maximum then.
	Sizes []scaledown.GroupSize
	// Pods are the pods to schedule: the selected pending pods, or a
	// workload's replicas (Workload names it, e.g. "Deployment shop/api").
	Pods     []*v1.Pod
	Workload string
	// WithoutBound: each group's search as if there were no bound
	// (whatif.UntilFitsInput.WithoutBound), for checking the bound.
	WithoutBound bool
}

// Result is a group's answer.
type Result string

const (
	// Fits means Count new nodes schedule every pod that fits one alone.
	Fits Result = "fits"
	// NotNeeded means the pods are scheduled on the cluster as it is.
	NotNeeded Result = "not-needed"
	// RuledOut means the pods left pending on the cluster as it is fit no
	// new node even alone (Search.Estimate.NeverFit says which filter rejects
	// each).
	RuledOut Result = "ruled-out"
	// TooFew means even one new node per pod leaves some pending.
	TooFew Result = "too-few"
	// OverMax means Count nodes are needed, more than the group's maximum
	// size allows (Allowed).
	OverMax Result = "over-max"
)

// GroupOutcome is what one group would do.
type GroupOutcome struct {
	Group  Group
	Result Result
	// Count is the number of new nodes found (Fits, OverMax).
	Count int
	// Max is the group's maximum size and Allowed how many nodes it may
	// still add (Max minus its target size, or minus its node count when
	// the status has no target); -1 when the status does not give them.
	Max, Allowed int
	// Search is the until-fits search on the group's template.
	Search *whatif.UntilFitsResult
	// Placed are the pods that land on the new nodes at Count, in queue
	// order: those least-waste counts.
	Placed []*v1.Pod
	// Waste is least-waste's measure (Fits only; ok false otherwise).
	Waste   Waste
	WasteOK bool
}

// Outcome is Run's answer.
type Outcome struct {
	Groups []GroupOutcome
	// Chosen are the groups least-waste keeps among those that fit
	// (LeastWaste): one, or several on a tie; empty when none fits.
	Chosen []string
}

// Run searches, group by group, for the smallest number of new nodes like
// the group's template that schedules in.Pods (whatif.UntilFits: the
// scheduler's full cycle places the pods one after the other with the
// copies added, each copy running the template's Group.Pods), caps it by
// the group's maximum size, and lets least-waste choose among the groups
// that fit. The searches share one Evaluator and the run with no new
// node (whatif.Shared).
func Run(ctx context.Context, in Input) (*Outcome, error) {
	out := &Outcome{}
	shared, err := whatif.NewShared(ctx, in.Model, in.Objects, in.Config)
	if err != nil {
		return nil, err
	}
	defer shared.Close()
	var options []Option
	for _, g := range in.Groups {
		o, err := runGroup(ctx, in, g, shared)
		if err != nil {
			return nil, fmt.Errorf("node group %s: %w", g.Name, err)
		}
		if o.WasteOK {
			options = append(options, Option{Group: g.Name, Waste: o.Waste})
		}
		out.Groups = append(out.Groups, *o)
	}
	out.Chosen = LeastWaste(options)
	return out, nil
}

func runGroup(ctx context.Context, in Input, g Group, shared *whatif.Shared) (*GroupOutcome, error) {
	res, err := whatif.UntilFits(ctx, whatif.UntilFitsInput{Model: in.Model, Objects: in.Objects, Config: in.Config,
		Template: g.Template, Bound: g.Pods, Pods: in.Pods, Workload: in.Workload, Shared: shared, WithoutBound: in.WithoutBound,
		CountsOnly: true})
	if err != nil {
		return nil, err
	}
	o := &GroupOutcome{Group: g, Search: res, Max: -1, Allowed: -1}
	if s := scaledown.SizeOf(g.Name, in.Sizes); s != nil {
		current := s.Target
		if current < 0 {
			current = g.Nodes
		}
		o.Max, o.Allowed = s.Max, max(s.Max-current, 0)
	}
	switch {
	case res.Estimate.Count == 0 && len(placedOnCopies(res.Verdicts, "")) == len(res.Verdicts):
		o.Result = NotNeeded
	case res.Estimate.Count == 0 || len(res.Estimate.NeverFit) == len(in.Pods):
		// The pods left pending on the cluster as it is fit no new node.
		o.Result = RuledOut
	case res.Estimate.Count < 0:
		o.Result = TooFew
	case o.Allowed >= 0 && res.Estimate.Count > o.Allowed:
		o.Result, o.Count = OverMax, res.Estimate.Count
	default:
		o.Result, o.Count = Fits, res.Estimate.Count
		o.Placed = placedOnCopies(res.Verdicts, g.Template.Name)
		o.Waste, o.WasteOK = WasteOf(g.Template, o.Count, o.Placed)
	}
	return o, nil
}

// placedOnCopies are the pods of verdicts scheduled on a copy of
// template ("": on any node).
func placedOnCopies(verdicts []*decide.Verdict, template string) []*v1.Pod {
	prefix := ""
	if template != "" {
		prefix = template + whatif.CopySuffix
	}
	var out []*v1.Pod
	for _, v := range verdicts {
		if v.Result == decide.Scheduled && strings.HasPrefix(v.Node, prefix) {
			out = append(out, v.Pod)
		}
	}
	return out
}
