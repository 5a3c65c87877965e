package pipeline

import (
	"context"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BoundResult is the "before" of a replacement in a ChangedPod: the pod it
// replaces was bound to a node.
const BoundResult = "bound"

// Changes compares verdicts, decided on in's edited cluster, with the
// same pods on the cluster as it is (in.Original, same version and
// configuration): the pods whose result or node differs, in verdicts'
// order, each with a note ("what-if: POD was X, now Y"), or one note that
// nothing changed. A replacement's "before" is the node its pod was
// bound to. Nil without edits. d.EvaluateEach applies to the pods on the
// cluster as it is too.
func Changes(ctx context.Context, in *Input, cfg *Config, verdicts []*decide.Verdict, d Detail, notes *Notes) ([]v1alpha1.ChangedPod, error) {
	if in.Applied == nil {
		return nil, nil
	}
	before, err := beforeEdits(ctx, in, cfg, verdicts, d.EvaluateEach)
	if err != nil {
		return nil, err
	}
	var changed []v1alpha1.ChangedPod
	for _, v := range verdicts {
		key := v.Pod.Namespace + "/" + v.Pod.Name
		b := before[key]
		if b.result == string(v.Result) && b.node == v.Node {
			continue
		}
		changed = append(changed, v1alpha1.ChangedPod{Pod: key, Before: b.result, BeforeNode: b.node, After: string(v.Result), AfterNode: v.Node})
	}
	for _, c := range changed {
		notes.Add(SeverityNote, "what-if: %s was %s, now %s", termtext.Line(c.Pod), resultOn(c.Before, c.BeforeNode), resultOn(c.After, c.AfterNode))
	}
	if len(changed) == 0 {
		notes.Add(SeverityNote, "what-if: no pod's result changed against the cluster as it is")
	}
	return changed, nil
}

func resultOn(result, node string) string {
	if node == "" {
		return result
	}
	if result == BoundResult {
		return "bound to " + node
	}
	return result + " on " + node
}

type outcomeOn struct{ result, node string }

// beforeEdits evaluates, on the unedited input, the pods of verdicts that
// were pending there; a replacement's "before" is the node its pod was
// bound to.
func beforeEdits(ctx context.Context, in *Input, cfg *Config, verdicts []*decide.Verdict, each bool) (map[string]outcomeOn, error) {
	m := build(in.Original, in.Choice, cache.Options{})
	in.order.Apply(m, nil)
	pending := map[string]*v1.Pod{}
	for _, p := range m.Pending {
		pending[p.Namespace+"/"+p.Name] = p
	}
	bound := map[string]string{}
	for _, p := range in.Original.Pods {
		if p.Spec.NodeName != "" {
			bound[p.Namespace+"/"+p.Name] = p.Spec.NodeName
		}
	}
	replaced := map[string]string{}
	for _, g := range in.Applied.Evicted {
		replaced[g.Replacement] = g.Pod
	}
	for _, r := range in.Applied.RemovedNodes {
		for _, g := range r.Pods {
			replaced[g.Replacement] = g.Pod
		}
	}
	out := map[string]outcomeOn{}
	var targets []*v1.Pod
	for _, v := range verdicts {
		key := v.Pod.Namespace + "/" + v.Pod.Name
		if orig, ok := replaced[key]; ok {
			out[key] = outcomeOn{result: BoundResult, node: bound[orig]}
		} else if p := pending[key]; p != nil {
			targets = append(targets, p)
		}
	}
	// The same evaluation, its notes already said once (they go nowhere);
	// only each verdict's result and node are read, so it keeps no
	// per-node results and computes no near misses.
	vs, err := Evaluate(ctx, m, in.Original.Objects, cfg, targets, Detail{OmitNodes: true, EvaluateEach: each}, &Notes{})
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		out[v.Pod.Namespace+"/"+v.Pod.Name] = outcomeOn{result: string(v.Result), node: v.Node}
	}
	return out, nil
}
