package decide

import (
	"context"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// ScheduleCounts is Schedule for callers that read only the pod-level
// outcome of each placement (Result, Node, Message, Preemption), as a
// simulation moving thousands of pods does: the verdict keeps no
// NodeResult per node (Nodes nil; RejectedBy counts the rejected nodes
// and TopNodes holds the best scored ones, as Evaluate's with
// Input.OmitNodes). At 5,000 nodes the per-node results were most of a
// placement cycle's allocations. The decision, the message and what the
// cycle hands to the next one (the scan start, OpportunisticBatching's
// chosen node and runners-up) are Schedule's.
func (e *Evaluator) ScheduleCounts(ctx context.Context, pod *v1.Pod) (*Verdict, error) {
	return e.schedule(ctx, pod, true)
}

// storeScores is store for a cycle without per-node results: the
// runners-up come from the scores themselves, which list the feasible
// nodes in scan order, as the per-node results do.
func (b *batchCycle) storeScores(c *cycle, chosen string, scores []fwk.NodePluginScores) {
	b.storeWith(c, chosen, func() framework.SortedScoredNodes { return runnersUpOfScores(scores, chosen) })
}

// runnersUpOfScores orders the scored nodes other than chosen by total
// score, highest first, equal totals in scan order (runnersUp's order).
func runnersUpOfScores(scores []fwk.NodePluginScores, chosen string) framework.SortedScoredNodes {
	return byTotal(len(scores), func(i int) (string, int64, bool) {
		return scores[i].Name, scores[i].TotalScore, scores[i].Name != chosen
	})
}
