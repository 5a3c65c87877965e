package decide

import (
	"context"
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
)

// fitPlugin is the in-tree NodeResourcesFit, every method its own, with
// its Filter results and scores shared between pods of equal requests
// (sharedResults).
//
// Why the request is the whole key (noderesources.Fit.Filter and
// fitsRequest, v1.36.3): Filter reads of the pod only the request its
// PreFilter wrote into the cycle state (a framework.Resource: milliCPU,
// memory, ephemeral storage, allowed pods, scalar resources), and compares
// it with the node's allocatable, requested and number of pods, skipping
// the extended resources the plugin's arguments ignore and, with
// DRAExtendedResource, those the node does not offer that a DeviceClass
// maps (the DRA manager's extended-resource cache, filled once from the
// input's DeviceClasses). Equal requests on one NodeInfo: the same status.
type fitPlugin struct {
	*noderesources.Fit
	memo *memo[filterResult]
	// scores are its shared Score results (sharedscores.go).
	scores sharedScorer
}

func wrapFit(pl fwk.Plugin, s *sharedResults) fwk.Plugin {
	fit, ok := pl.(*noderesources.Fit)
	if !ok {
		return pl
	}
	return &fitPlugin{Fit: fit, memo: newMemo[filterResult](s, names.NodeResourcesFit),
		scores: newSharedScorer(s, names.NodeResourcesFit, requestsKeyAt(fitScoreStateKey))}
}

func (p *fitPlugin) Filter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo) *fwk.Status {
	return sharedFilter(p.memo, pod, ni,
		func() (string, bool) { return fitKey(state) },
		func() *fwk.Status { return p.Fit.Filter(ctx, state, pod, ni) })
}

// fitStateKey is where NodeResourcesFit's PreFilter keeps the request.
const fitStateKey fwk.StateKey = "PreFilter" + names.NodeResourcesFit

// fitKey is the request NodeResourcesFit's Filter reads, as a key; false
// when the state holds none (the Filter then fails as it does upstream).
func fitKey(state fwk.CycleState) (string, bool) {
	d, err := state.Read(fitStateKey)
	if err != nil {
		return "", false
	}
	r, ok := d.(fwk.Resource)
	if !ok {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d %d %d", r.GetMilliCPU(), r.GetMemory(), r.GetEphemeralStorage(), r.GetAllowedPodNumber())
	scalars := r.GetScalarResources()
	keys := make([]string, 0, len(scalars))
	for name := range scalars {
		keys = append(keys, string(name))
	}
	sort.Strings(keys)
	for _, name := range keys {
		fmt.Fprintf(&b, " %s=%d", name, scalars[v1.ResourceName(name)])
	}
	return b.String(), true
}
