package views

import (
	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// SchedulingReport renders decide's verdicts as the SchedulingReport kind.
func SchedulingReport(source, config string, verdicts []*decide.Verdict) *v1alpha1.SchedulingReport {
	out := &v1alpha1.SchedulingReport{Source: source, Config: config, Pods: []v1alpha1.PodDecision{}}
	v1alpha1.SetKind(out, "SchedulingReport")
	for _, v := range verdicts {
		out.Pods = append(out.Pods, podDecision(v))
	}
	return out
}

func podDecision(v *decide.Verdict) v1alpha1.PodDecision {
	d := v1alpha1.PodDecision{
		Pod: podKey(v.Pod), Profile: v.Profile, Result: string(v.Result), Node: v.Node, Message: v.Message,
		NominatedNodeName: v.Pod.Status.NominatedNodeName, NumAllNodes: v.NumAllNodes, EvaluatedNodes: v.EvaluatedNodes, FeasibleNodes: v.FeasibleNodes,
	}
	if p := v.Preemption; p != nil {
		d.Preemption = &v1alpha1.PreemptionDecision{NominatedNode: p.NominatedNode, Victims: []string{}}
		for _, victim := range p.Victims {
			d.Preemption.Victims = append(d.Preemption.Victims, podKey(victim))
		}
		for _, victim := range p.TerminatingVictims {
			d.Preemption.TerminatingVictims = append(d.Preemption.TerminatingVictims, podKey(victim))
		}
	}
	for _, n := range v.Nodes {
		d.Nodes = append(d.Nodes, nodeDecision(n))
	}
	for _, n := range v.Nodes {
		if len(n.Scores) > 0 {
			d.ScorePlugins = scorePlugins(n)
			break
		}
	}
	if len(d.ScorePlugins) == 0 && len(v.TopNodes) > 0 {
		d.ScorePlugins = scorePlugins(v.TopNodes[0])
	}
	d.RejectedBy = v.RejectedBy
	for _, n := range v.TopNodes {
		d.TopNodes = append(d.TopNodes, nodeDecision(n))
	}
	for _, m := range v.NearMisses {
		d.NearMisses = append(d.NearMisses, nearMiss(m))
	}
	d.ClusterScheduler = recordedVerdict(v)
	return d
}

func scorePlugins(n decide.NodeResult) []string {
	out := make([]string, 0, len(n.Scores))
	for _, s := range n.Scores {
		out = append(out, s.Plugin)
	}
	return out
}

func nodeDecision(n decide.NodeResult) v1alpha1.NodeDecision {
	d := v1alpha1.NodeDecision{Name: n.Name, Filter: n.Filter(), Plugin: n.Plugin, Code: n.Code, Reasons: n.Reasons}
	if len(n.Scores) > 0 {
		total := n.Total
		d.Score = &total
		d.Scores = make(map[string]int64, len(n.Scores))
		for _, s := range n.Scores {
			d.Scores[s.Plugin] = s.Score
		}
	}
	return d
}

func podKey(p *v1.Pod) string { return p.Namespace + "/" + p.Name }
