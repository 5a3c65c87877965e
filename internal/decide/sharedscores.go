package decide

import (
	"context"
	"reflect"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
)

// The resource scores of NodeResourcesFit and NodeResourcesBalancedAllocation
// are shared between pods that request the same (sharedResults).
//
// Why the requests are the whole key (noderesources, v1.36.3: Fit.Score,
// BalancedAllocation.Score, resourceAllocationScorer.score): each Score
// reads of the pod only the request list its PreScore wrote into the cycle
// state (podRequests: one number per resource of the plugin's arguments,
// with the non-zero defaults its scoring strategy asks for), and computes
// the score from it, the node's NodeInfo (allocatable and requested), the
// strategy and resources of its arguments, and the DRA state PreScore
// reads from the DRA manager and those resources, not from the pod. When
// the state holds no request list (Score then computes it from the pod),
// nothing is shared.

// Where each plugin's PreScore keeps the request list.
const (
	fitScoreStateKey      fwk.StateKey = "PreScore" + names.NodeResourcesFit
	balancedScoreStateKey fwk.StateKey = "PreScore" + names.NodeResourcesBalancedAllocation
)

func (p *fitPlugin) Score(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo) (int64, *fwk.Status) {
	return p.scores.score(state, pod, ni, func() (int64, *fwk.Status) { return p.Fit.Score(ctx, state, pod, ni) })
}

// balancedPlugin is the in-tree NodeResourcesBalancedAllocation, every
// method its own, with its Score shared between pods of equal requests.
type balancedPlugin struct {
	*noderesources.BalancedAllocation
	scores sharedScorer
}

func wrapBalanced(pl fwk.Plugin, s *sharedResults) fwk.Plugin {
	return wrapScore(pl, s, names.NodeResourcesBalancedAllocation, requestsKeyAt(balancedScoreStateKey),
		func(ba *noderesources.BalancedAllocation, sc sharedScorer) fwk.Plugin {
			return &balancedPlugin{BalancedAllocation: ba, scores: sc}
		})
}

func (p *balancedPlugin) Score(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo) (int64, *fwk.Status) {
	return p.scores.score(state, pod, ni, func() (int64, *fwk.Status) { return p.BalancedAllocation.Score(ctx, state, pod, ni) })
}

// sharedScorer is a wrapped plugin's shared Score: its memo, and the key of
// what its Score reads of a pod.
type sharedScorer struct {
	memo *memo[scoreResult]
	key  func(fwk.CycleState, *v1.Pod) (string, bool)
}

func newSharedScorer(s *sharedResults, plugin string, key func(fwk.CycleState, *v1.Pod) (string, bool)) sharedScorer {
	return sharedScorer{memo: newMemo[scoreResult](s, plugin), key: key}
}

// score is the plugin's score of pod on ni through the memo: run is the
// plugin's own Score (sharedScore).
func (sc sharedScorer) score(state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo, run func() (int64, *fwk.Status)) (int64, *fwk.Status) {
	return sharedScore(sc.memo, pod, ni, func() (string, bool) { return sc.key(state, pod) }, run)
}

// wrapScore is pl wrapped by wrap with a sharedScorer for plugin keyed by
// key, when pl is a P; else pl as it is.
func wrapScore[P fwk.Plugin](pl fwk.Plugin, s *sharedResults, plugin string, key func(fwk.CycleState, *v1.Pod) (string, bool), wrap func(P, sharedScorer) fwk.Plugin) fwk.Plugin {
	p, ok := pl.(P)
	if !ok {
		return pl
	}
	return wrap(p, newSharedScorer(s, plugin, key))
}

// requestsKeyAt is podRequestsKey of the state kept under key.
func requestsKeyAt(key fwk.StateKey) func(fwk.CycleState, *v1.Pod) (string, bool) {
	return func(state fwk.CycleState, _ *v1.Pod) (string, bool) { return podRequestsKey(state, key) }
}

// podRequestsKey is the request list a PreScore kept under key, as a key;
// false when the state holds none or not in the shape of v1.36.3 (a
// pointer to a struct whose field podRequests is a []int64).
//
// The field is unexported, so it is read through reflect, which reads
// (never writes) such a field; TestSharedPluginResultsAreExact fails when
// a new version moves it (no score is served), rather than let the sharing
// stop unnoticed.
func podRequestsKey(state fwk.CycleState, key fwk.StateKey) (string, bool) {
	d, err := state.Read(key)
	if err != nil {
		return "", false
	}
	v := reflect.ValueOf(d)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", false
	}
	f := v.Elem().FieldByName("podRequests")
	if !f.IsValid() || f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Int64 {
		return "", false
	}
	var b strings.Builder
	for i := range f.Len() {
		b.WriteString(strconv.FormatInt(f.Index(i).Int(), 10))
		b.WriteByte(' ')
	}
	return b.String(), true
}
