package simulate

import (
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// Simulation converts the result to the output kind; ttl is the choice the
// simulation's TTL came from.
func (r *Result) Simulation(ttl TTLChoice) *v1alpha1.Simulation {
	out := &v1alpha1.Simulation{
		Source:   r.Source,
		Settings: r.settings(ttl),
		Events:   make([]v1alpha1.SimulationEvent, 0, len(r.Events)),
		Nodes:    make([]v1alpha1.SimulatedNode, 0, len(r.Nodes)),
		Pods:     make([]v1alpha1.SimulatedPod, 0, len(r.Pods)),
	}
	v1alpha1.SetKind(out, "Simulation")
	for i := range r.Events {
		out.Events = append(out.Events, apiEvent(&r.Events[i]))
	}
	for _, n := range r.Nodes {
		out.Nodes = append(out.Nodes, apiNode(n))
	}
	for i := range r.Pods {
		out.Pods = append(out.Pods, apiPod(&r.Pods[i]))
	}
	return out
}

func (r *Result) settings(ttl TTLChoice) v1alpha1.SimulationSettings {
	s := v1alpha1.SimulationSettings{
		Mode:  "timeline",
		Start: Epoch.Format(time.RFC3339),
		TTL:   r.Options.TTL.String(), TTLMillis: r.Options.TTL.Milliseconds(),
		TTLSource: ttl.Source, KubeVersion: ttl.Version, ZeroTTLExpires: ttl.ZeroExpires,
		End: r.End.String(), EndMillis: r.End.Milliseconds(),
	}
	if r.Script {
		s.Mode = "script"
		return s
	}
	o := r.Options
	s.Timeline = &v1alpha1.TimelineSettings{
		Bind: string(o.defaultOutcome()), Node: o.Node,
		BindLatency: o.BindLatency.String(), BindLatencyMillis: o.BindLatency.Milliseconds(),
		CleanupPeriod: o.CleanupPeriod.String(), CleanupPeriodMillis: o.CleanupPeriod.Milliseconds(),
		Until: o.Until.String(), UntilMillis: o.Until.Milliseconds(),
	}
	for pod, outcome := range o.BindFor {
		s.Timeline.BindFor = append(s.Timeline.BindFor, v1alpha1.BindOverride{Pod: pod, Outcome: string(outcome)})
	}
	sort.Slice(s.Timeline.BindFor, func(i, j int) bool { return s.Timeline.BindFor[i].Pod < s.Timeline.BindFor[j].Pod })
	return s
}

func apiEvent(e *Event) v1alpha1.SimulationEvent {
	out := v1alpha1.SimulationEvent{
		At: e.At.String(), AtMillis: e.At.Milliseconds(), Step: e.Step, Event: e.Kind,
		Node: e.Node, From: string(e.From), To: string(e.To), Note: e.Note,
		Requested: requestedOf(e.Usage),
	}
	if e.Pod != nil {
		ref := podRef(e.Pod)
		out.Pod = &ref
	}
	if e.Err != nil {
		out.Error = e.Err.Error()
	}
	return out
}

func apiNode(n NodeChange) v1alpha1.SimulatedNode {
	out := v1alpha1.SimulatedNode{Name: n.Name, Before: requestedOf(n.Before), After: requestedOf(n.After)}
	last := n.After
	if last == nil {
		last = n.Before
	}
	if last != nil {
		out.Allocatable = v1alpha1.NodeUsage{MilliCPU: last.AllocatableMilliCPU, Memory: last.AllocatableMemory, Pods: last.AllowedPods}
	}
	if n.After != nil {
		out.Placeholder, out.Ghost = n.After.Placeholder, n.After.Ghost
	}
	return out
}

func apiPod(p *PodOutcome) v1alpha1.SimulatedPod {
	out := v1alpha1.SimulatedPod{
		PodRef:    podRef(p.Pod),
		Requested: v1alpha1.NodeUsage{MilliCPU: p.Requested.MilliCPU, Memory: p.Requested.Memory, Pods: 1},
		State:     string(p.State), Node: p.Node, Detail: p.Detail,
	}
	for _, u := range p.Unschedulable {
		out.Unschedulable = append(out.Unschedulable, v1alpha1.NodeReasons{Node: u.Node, Plugin: u.Plugin, Reasons: u.Reasons})
	}
	return out
}

func podRef(p *v1.Pod) v1alpha1.PodRef {
	return v1alpha1.PodRef{Namespace: p.Namespace, Name: p.Name, UID: string(p.UID)}
}

func requestedOf(u *Usage) *v1alpha1.NodeUsage {
	if u == nil {
		return nil
	}
	return &v1alpha1.NodeUsage{MilliCPU: u.MilliCPU, Memory: u.Memory, Pods: u.Pods}
}
