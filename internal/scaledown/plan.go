package scaledown

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Input is what Plan works on.
type Input struct {
	// Model is the cluster's model; Plan changes its cache (nodes removed,
	// pods moved): pass a model built for the purpose.
	Model *model.Model
	// Objects are the loaded objects the scheduler's plugins read, the
	// PodDisruptionBudgets among them.
	Objects []runtime.Object
	// Config is the scheduler configuration; nil means the default.
	Config *decide.Config
	// Nodes are the names of the nodes that may go; nil means every node.
	// Every node of the model stays a destination until removed.
	Nodes []string
	// Sizes are the node groups' limits from cluster-autoscaler's status
	// (ParseStatus); nil when unknown: no minimum is enforced then.
	Sizes   []GroupSize
	Options Options
	// Clock reads the time for Options.Timeout; nil means no time bound.
	Clock func() time.Time
	// Progress, when set, is called after each candidate is decided with
	// the candidates decided so far and their number.
	Progress func(done, total int)
}

// Plan answers which nodes could be removed now, cluster-autoscaler's way:
//
//  1. Each node of Input.Nodes is checked for eligibility
//     (core/scaledown/eligibility): annotated scale-down-disabled "true",
//     or utilization (utilizationOf) not below the threshold, it is no
//     candidate.
//  2. Each candidate's pods go through the drainability rules (verdictOf);
//     the first blocking pod, in namespace/name order, blocks its node.
//  3. Candidates are ordered as cluster-autoscaler's default candidate
//     processors order them (processors/scaledowncandidates): empty nodes
//     (nothing to move) first, then the others, each in name order (the
//     previous loop's unneeded nodes, which cluster-autoscaler puts next,
//     do not exist offline).
//  4. The removable set grows one candidate at a time
//     (core/scaledown/planner): a node whose group would go below its
//     minimum stays; the PodDisruptionBudgets must allow every pod to
//     move, allowances consumed across the set (NotEnoughPdb); then the
//     node and its pods leave the cache and its pods' replacements
//     (whatif.Replacement) are placed, in the scheduling queue's order, by
//     kube-scheduler's full cycle on the nodes that stay, each assumed
//     before the next. A pod with no place puts the node and its pods back
//     and the node stays (NoPlace); otherwise it is removed for good and
//     the next candidate sees its pods where they landed.
//  5. At most Pool non-empty candidates are examined, and none once
//     Options.Timeout has run out: the rest are NotExamined.
//
// Errors: the cache refusing an update, the framework failing to build,
// ctx done.
func Plan(ctx context.Context, in Input) (*Outcome, error) {
	p := newPlanner(in)
	defer p.close()
	cands, others := p.eligible()
	for _, c := range cands {
		if c.Result == "" {
			p.moves += len(c.toMove)
		}
	}
	out := &Outcome{Candidates: len(cands), Pool: p.pool()}
	nonEmpty := 0
	for i, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if c.Result == "" && !c.empty {
			switch {
			case nonEmpty >= out.Pool:
				c.Result, c.Message = NotExamined, fmt.Sprintf("beyond the candidates pool of %d non-empty nodes", out.Pool)
			case p.timedOut():
				out.TimedOut = true
				c.Result, c.Message = NotExamined, fmt.Sprintf("the simulation time budget (%s) ran out", in.Options.Timeout)
			default:
				nonEmpty++
			}
		}
		if c.Result == "" {
			if err := p.decide(ctx, c); err != nil {
				return nil, err
			}
			out.Examined++
		}
		if c.Result == NotExamined {
			out.NotExamined++
		}
		if c.Result == Removable {
			out.Removable = append(out.Removable, c.Node.Name)
		}
		out.Nodes = append(out.Nodes, c.NodeOutcome)
		if in.Progress != nil {
			in.Progress(i+1, len(cands))
		}
	}
	for _, o := range others {
		out.Nodes = append(out.Nodes, o.NodeOutcome)
	}
	out.Cycles = p.cycles
	return out, nil
}

// candidate is a node under consideration.
type candidate struct {
	NodeOutcome
	pods   []*v1.Pod // its pods in the cache, by namespace and name
	toMove []*v1.Pod
	empty  bool
}

// planner is one Plan's state.
type planner struct {
	in      Input
	budgets *whatif.Budgets
	groups  map[string]int // nodes per group still in the cluster
	start   time.Time
	sim     *simulation
	// moves is how many pods the candidates not blocked would move: about
	// the cycles to come.
	moves  int
	cycles int
}

func newPlanner(in Input) *planner {
	var pdbs []*policyv1.PodDisruptionBudget
	for _, o := range in.Objects {
		if b, ok := o.(*policyv1.PodDisruptionBudget); ok {
			pdbs = append(pdbs, b)
		}
	}
	p := &planner{in: in, budgets: whatif.NewBudgets(pdbs), groups: map[string]int{}}
	for _, n := range in.Model.Nodes {
		p.groups[GroupOf(n)]++
	}
	if in.Clock != nil {
		p.start = in.Clock()
	}
	return p
}

func (p *planner) close() {
	if p.sim != nil {
		p.sim.close()
	}
}

// pool is max(ceil(nodes × PoolRatio), PoolMinCount).
func (p *planner) pool() int {
	n := int(math.Ceil(float64(len(p.in.Model.Nodes)) * p.in.Options.PoolRatio))
	return max(n, p.in.Options.PoolMinCount)
}

func (p *planner) timedOut() bool {
	return p.in.Clock != nil && p.in.Options.Timeout > 0 && p.in.Clock().Sub(p.start) >= p.in.Options.Timeout
}

// eligible splits the nodes of Input.Nodes into candidates, in the order
// they are examined, and the others (disabled, not under the threshold),
// in name order; the candidates' drainability is decided already.
func (p *planner) eligible() (cands, others []*candidate) {
	byName := map[string]*v1.Node{}
	for _, n := range p.in.Model.Nodes {
		byName[n.Name] = n
	}
	names := p.in.Nodes
	if names == nil {
		for _, n := range p.in.Model.Nodes {
			names = append(names, n.Name)
		}
	}
	names = append([]string(nil), names...)
	sort.Strings(names)
	opts := &p.in.Options
	var empty, full []*candidate
	for _, name := range names {
		n := byName[name]
		if n == nil {
			continue
		}
		c := &candidate{NodeOutcome: NodeOutcome{Node: n, Group: GroupOf(n)}}
		infos := p.podsOf(name)
		c.Utilization = utilizationOf(n, infos, opts)
		c.pods = podsOfInfos(infos)
		threshold := opts.UtilizationThreshold
		if isGPUNode(n) {
			threshold = opts.GPUUtilizationThreshold
		}
		switch {
		case n.Annotations[ScaleDownDisabledAnnotation] == "true":
			c.Result, c.Message = Disabled, "annotated "+ScaleDownDisabledAnnotation+`: "true"`
			others = append(others, c)
			continue
		case c.Utilization.Value >= threshold:
			c.Result, c.Message = NotUnderThreshold, fmt.Sprintf("%s utilization %s is not below %s", c.Utilization.Resource, percent(c.Utilization.Value), percent(threshold))
			others = append(others, c)
			continue
		}
		p.drainability(c)
		if c.empty {
			empty = append(empty, c)
		} else {
			full = append(full, c)
		}
	}
	return append(empty, full...), others
}

// podsOf is the cache's pods of node now: the pods moved onto it by the
// removals before included.
func (p *planner) podsOf(node string) []*cache.PodInfo {
	if ni, ok := p.in.Model.Cache.GetNodeInfo(node); ok {
		return ni.Pods
	}
	return nil
}

// podsOfInfos are the pods of infos, by namespace and name.
func podsOfInfos(infos []*cache.PodInfo) []*v1.Pod {
	pods := make([]*v1.Pod, len(infos))
	for i, pi := range infos {
		pods[i] = pi.Pod
	}
	return listOrder(pods)
}

// drainability applies the rules to c's pods: the first blocking pod
// blocks c; the pods that must move are kept.
func (p *planner) drainability(c *candidate) {
	c.toMove = nil
	for _, pod := range c.pods {
		fate, rule, msg := verdictOf(pod, len(p.budgets.Of(pod)) > 0, &p.in.Options)
		switch fate {
		case blocks:
			if c.Result == "" {
				c.Result, c.Pod, c.Rule, c.Message = Blocked, pod, rule, msg
			}
		case moves:
			c.toMove = append(c.toMove, pod)
		}
	}
	c.empty = c.Result == "" && len(c.toMove) == 0
}

// decide settles an examined candidate: group minimum, budgets, then
// moving its pods. Its pods are read again: the removals before may have
// moved pods onto it, which must move too.
func (p *planner) decide(ctx context.Context, c *candidate) error {
	if c.pods = podsOfInfos(p.podsOf(c.Node.Name)); !c.empty {
		p.drainability(c)
	}
	if size := SizeOf(c.Group, p.in.Sizes); size != nil && p.groups[c.Group] <= size.Min {
		c.Result, c.Message = MinSizeReached, fmt.Sprintf("node group %s has %s left, its minimum size is %d", c.Group, plural(p.groups[c.Group], "node"), size.Min)
		return nil
	}
	if p.refusedByBudget(c) {
		return nil
	}
	if p.sim == nil {
		sim, err := newSimulation(ctx, p.in, p.moves)
		if err != nil {
			return err
		}
		p.sim = sim
	}
	res, err := p.sim.remove(ctx, c.Node, c.pods, c.toMove)
	if err != nil {
		return err
	}
	p.cycles += res.cycles
	if res.failed != nil {
		c.Result, c.Pod, c.Message = NoPlace, res.failed, res.message
		return nil
	}
	c.Result, c.Moves = Removable, res.moves
	p.groups[c.Group]--
	for _, pod := range c.toMove {
		for _, b := range p.budgets.Of(pod) {
			b.Allowed--
		}
	}
	return nil
}

// refusedByBudget blocks c when its pods to move need more disruptions
// than a budget has left, the allowances of the nodes removed before
// deducted (cluster-autoscaler's remaining-PDB tracking). The pod named is
// the first of that budget's pods on c.
func (p *planner) refusedByBudget(c *candidate) bool {
	need := map[*whatif.Budget]int{}
	first := map[*whatif.Budget]*v1.Pod{}
	var order []*whatif.Budget
	for _, pod := range c.toMove {
		for _, b := range p.budgets.Of(pod) {
			if need[b] == 0 {
				order = append(order, b)
				first[b] = pod
			}
			need[b]++
		}
	}
	for _, b := range order {
		if int(b.Allowed) < need[b] {
			left := max(b.Allowed, 0)
			c.Result, c.Pod, c.Rule = Blocked, first[b], NotEnoughPdb
			c.Message = fmt.Sprintf("PodDisruptionBudget %s allows %s, %s to move", b.Key(), plural(int(left), "more disruption"), plural(need[b], "pod"))
			return true
		}
	}
	return false
}

// listOrder sorts pods by namespace, then name, as the API server lists
// them.
func listOrder(pods []*v1.Pod) []*v1.Pod {
	out := append([]*v1.Pod(nil), pods...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// percent renders 0.4375 as "43.8%".
func percent(f float64) string {
	return fmt.Sprintf("%.1f%%", f*100)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
