package pipeline

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

const (
	// togetherNamed is how many pods the note names before "…".
	togetherNamed = 3
	// togetherMax is how many scheduled pods Together places one after
	// another at most: one scheduling cycle each (about 15 ms of CPU at
	// 5,000 nodes), after the verdicts' own, which share work between
	// alike pods; simulate --pending is the tool for more.
	togetherMax = 200
)

// Together considers together the pods verdicts call scheduled (each
// judged alone, as if it were the next pod): when they all fit on the
// nodes named for them (decide.FitWhereNamed) none would stay Pending;
// else, up to togetherMax pods, they are placed one after another in the
// scheduler's queue order, each assumed before the next
// (decide.PlaceTogether, as simulate --pending places them), and a note
// says how many would stay Pending, pointing to simulate --pending; more
// pods get that pointer without a count. It returns nil, and runs nothing,
// for fewer than two scheduled pods. The model's cache is changed during
// the placement and restored: nothing may read it meanwhile.
func Together(ctx context.Context, in *Input, cfg *Config, verdicts []*decide.Verdict, notes *Notes) (*v1alpha1.Together, error) {
	var pods []*v1.Pod
	for _, v := range verdicts {
		if v.Result == decide.Scheduled && v.Pod.Spec.NodeName == "" {
			pods = append(pods, v.Pod)
		}
	}
	if len(pods) < 2 {
		return nil, nil
	}
	m := in.Model
	out := &v1alpha1.Together{Scheduled: len(pods)}
	snap := cache.NewEmptySnapshot()
	if err := m.Cache.UpdateSnapshot(snap); err != nil {
		return nil, err
	}
	if out.FitWhereNamed = decide.FitWhereNamed(snap, verdicts); out.FitWhereNamed {
		return out, nil
	}
	if len(pods) > togetherMax {
		notes.Add(SeverityNote, "%s", togetherNote(out))
		return out, nil
	}
	placed, err := decide.PlaceTogether(ctx, m.Cache, decide.Input{Pending: m.Pending, Objects: in.Cluster.Objects, Config: cfg, OmitNodes: true, Cycles: len(pods)}, pods)
	if err != nil {
		return nil, err
	}
	out.Placed = true
	for _, v := range placed {
		if v.Result != decide.Scheduled {
			out.StayPending = append(out.StayPending, v.Pod.Namespace+"/"+v.Pod.Name)
		}
	}
	if line := togetherNote(out); line != "" {
		notes.Add(SeverityNote, "%s", line)
	}
	return out, nil
}

// togetherNote is the note's text, "" when every pod would be placed:
// "each pod is judged alone, as if it were the next; placed one after
// another in queue order, 1 of the 2 pods scheduled here would stay
// Pending (ml/b): 'simulate --pending' places them together".
func togetherNote(t *v1alpha1.Together) string {
	const lead = "each pod is judged alone, as if it were the next; "
	const tail = ": 'simulate --pending' places them together"
	if !t.Placed {
		if t.FitWhereNamed {
			return ""
		}
		return fmt.Sprintf("%sthe %d pods scheduled here do not all fit on the nodes named for them%s", lead, t.Scheduled, tail)
	}
	n := len(t.StayPending)
	if n == 0 {
		return ""
	}
	list := termtext.Line(strings.Join(t.StayPending[:min(n, togetherNamed)], ", "))
	if n > togetherNamed {
		list += ", …"
	}
	return fmt.Sprintf("%splaced one after another in queue order, %d of the %d pods scheduled here would stay Pending (%s)%s", lead, n, t.Scheduled, list, tail)
}
