package decide

import (
	"context"
	"fmt"

	fwk "k8s.io/kube-scheduler/framework"
)

// score runs PreScore and Score over the feasible nodes and chooses the
// node with the highest total (prioritizeNodes and selectHost's heap,
// schedule_one.go v1.36). The framework's per-plugin scores are already
// normalised and multiplied by the plugin's weight. Among equal totals the
// scheduler takes whichever its heap yields, which depends on the order the
// parallel filter listed them in; here the first in scan order wins, so any
// tied node is a correct answer for a live scheduler.
func (c *cycle) score(ctx context.Context) error {
	if s := c.fw.RunPreScorePlugins(ctx, c.state, c.pod, c.feasible); !s.IsSuccess() {
		return s.AsError()
	}
	scores, s := c.fw.RunScorePlugins(ctx, c.state, c.pod, c.feasible)
	if !s.IsSuccess() {
		return s.AsError()
	}
	if c.countOnly {
		c.keepTop(scores)
		return nil
	}
	byName := make(map[string]int, len(c.v.Nodes))
	for i, n := range c.v.Nodes {
		byName[n.Name] = i
	}
	best := -1
	for i, ns := range scores {
		j, ok := byName[ns.Name]
		if !ok {
			return fmt.Errorf("scored node %q was not filtered", ns.Name)
		}
		nr := &c.v.Nodes[j]
		nr.Scores, nr.Total = pluginScores(&ns), ns.TotalScore
		if best < 0 || ns.TotalScore > scores[best].TotalScore {
			best = i
		}
	}
	c.v.Result, c.v.Node = Scheduled, scores[best].Name
	c.batch.store(c, scores[best].Name, c.v.Nodes)
	return nil
}

// keepTop chooses the node as score does and keeps only the topScored
// nodes' results (TopNodes): scores are in scan order, as the feasible
// nodes among the per-node results are, so the ranking is topNodes'.
func (c *cycle) keepTop(scores []fwk.NodePluginScores) {
	top := topIndices(len(scores), topScored, func(i int) (int64, bool) { return scores[i].TotalScore, true })
	for _, i := range top {
		ns := &scores[i]
		c.v.TopNodes = append(c.v.TopNodes, NodeResult{Name: ns.Name, Feasible: true, Scores: pluginScores(ns), Total: ns.TotalScore})
	}
	if len(top) > 0 {
		c.v.Result, c.v.Node = Scheduled, scores[top[0]].Name
		c.batch.storeScores(c, c.v.Node, scores)
	}
}

// pluginScores are one node's weighted scores in profile order.
func pluginScores(ns *fwk.NodePluginScores) []PluginScore {
	out := make([]PluginScore, 0, len(ns.Scores))
	for _, ps := range ns.Scores {
		out = append(out, PluginScore{Plugin: ps.Name, Score: ps.Score})
	}
	return out
}
