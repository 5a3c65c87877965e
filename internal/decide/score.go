package decide

import (
	"context"
	"fmt"
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
		nr.Scores = make([]PluginScore, 0, len(ns.Scores))
		for _, ps := range ns.Scores {
			nr.Scores = append(nr.Scores, PluginScore{Plugin: ps.Name, Score: ps.Score})
		}
		nr.Total = ns.TotalScore
		if best < 0 || ns.TotalScore > scores[best].TotalScore {
			best = i
		}
	}
	c.v.Result, c.v.Node = Scheduled, scores[best].Name
	c.batch.store(c, scores[best].Name, c.v.Nodes)
	return nil
}
