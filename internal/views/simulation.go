package views

import (
	"github.com/schedcache/kubectl-schedcache/internal/simulate"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// Simulation is the output kind of a simulate run r, its lists in r's
// order, with the what-if edits w applied to the input (nil: none). A nil
// list of r stays nil and an empty one empty, so the JSON is r's.
func Simulation(r *simulate.Result, w *v1alpha1.WhatIf) *v1alpha1.Simulation {
	out := &v1alpha1.Simulation{
		Source:   r.Source,
		Settings: simulationSettings(r.Settings),
		Events:   mapSlice(r.Events, simulationEvent),
		Nodes:    mapSlice(r.Nodes, simulatedNode),
		Pods:     mapSlice(r.Pods, simulatedPod),
		WhatIf:   w,
	}
	v1alpha1.SetKind(out, "Simulation")
	return out
}

// mapSlice maps in element by element, keeping nil nil.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func simulationSettings(s simulate.Settings) v1alpha1.SimulationSettings {
	out := v1alpha1.SimulationSettings{
		Mode: s.Mode, Start: s.Start,
		TTL: s.TTL, TTLMillis: s.TTLMillis, TTLSource: s.TTLSource,
		KubeVersion: s.KubeVersion, ZeroTTLExpires: s.ZeroTTLExpires,
		End: s.End, EndMillis: s.EndMillis,
	}
	if t := s.Timeline; t != nil {
		out.Timeline = &v1alpha1.TimelineSettings{
			Bind: t.Bind, Node: t.Node,
			BindFor:     mapSlice(t.BindFor, func(b simulate.BindOverride) v1alpha1.BindOverride { return v1alpha1.BindOverride(b) }),
			BindLatency: t.BindLatency, BindLatencyMillis: t.BindLatencyMillis,
			CleanupPeriod: t.CleanupPeriod, CleanupPeriodMillis: t.CleanupPeriodMillis,
			Until: t.Until, UntilMillis: t.UntilMillis,
		}
	}
	return out
}

func simulationEvent(e simulate.Event) v1alpha1.SimulationEvent {
	out := v1alpha1.SimulationEvent{
		At: e.At, AtMillis: e.AtMillis, Step: e.Step, Event: e.Event,
		Node: e.Node, From: e.From, To: e.To,
		Requested: usagePtr(e.Requested),
		Note:      e.Note, Error: e.Error, TiedNodes: e.TiedNodes,
	}
	if e.Pod != nil {
		ref := v1alpha1.PodRef(*e.Pod)
		out.Pod = &ref
	}
	return out
}

func usagePtr(u *simulate.Usage) *v1alpha1.NodeUsage {
	if u == nil {
		return nil
	}
	out := v1alpha1.NodeUsage(*u)
	return &out
}

func simulatedNode(n simulate.Node) v1alpha1.SimulatedNode {
	return v1alpha1.SimulatedNode{
		Name: n.Name, Allocatable: v1alpha1.NodeUsage(n.Allocatable),
		Before: usagePtr(n.Before), After: usagePtr(n.After),
		Placeholder: n.Placeholder, Ghost: n.Ghost,
	}
}

func simulatedPod(p simulate.Pod) v1alpha1.SimulatedPod {
	return v1alpha1.SimulatedPod{
		PodRef: v1alpha1.PodRef(p.PodRef), Requested: v1alpha1.NodeUsage(p.Requested),
		State: p.State, Node: p.Node, Detail: p.Detail,
		Unschedulable: mapSlice(p.Unschedulable, func(r simulate.NodeReasons) v1alpha1.NodeReasons { return v1alpha1.NodeReasons(r) }),
	}
}
