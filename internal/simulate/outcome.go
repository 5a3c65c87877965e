package simulate

import (
	"fmt"
	"sort"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// result assembles the Simulation at the end of a run.
func (s *Simulator) result(script bool) *Result {
	out := &Result{
		Source:   s.model.Source,
		Settings: s.settings(script),
		Events:   s.events,
		Nodes:    []Node{},
		Pods:     make([]Pod, 0, len(s.pods.order)),
	}
	if out.Events == nil {
		out.Events = []Event{}
	}
	for _, name := range s.touchedInOrder() {
		before := s.before[name]
		if before != nil {
			before.overflow = model.PodsOverflows(before.node, before.pods)
		}
		out.Nodes = append(out.Nodes, summaryOf(name, before, s.finalNode(name)))
	}
	for _, t := range s.pods.order {
		out.Pods = append(out.Pods, s.outcome(t))
	}
	return out
}

// settings are the inputs that shaped the run, with the cleanup period
// and the timeline length in effect.
func (s *Simulator) settings(script bool) Settings {
	o, ttl := s.opts, s.opts.TTL
	st := Settings{
		Mode:  "timeline",
		Start: Epoch.Format(time.RFC3339),
		TTL:   ttl.TTL.String(), TTLMillis: ttl.TTL.Milliseconds(),
		TTLSource: ttl.Source, KubeVersion: ttl.Version, ZeroTTLExpires: ttl.ZeroExpires,
		End: s.now.String(), EndMillis: s.now.Milliseconds(),
	}
	if script {
		st.Mode = "script"
		return st
	}
	period, until := o.period(), o.until()
	st.Timeline = &TimelineSettings{
		Bind: string(o.defaultOutcome()), Node: o.Node,
		BindLatency: o.BindLatency.String(), BindLatencyMillis: o.BindLatency.Milliseconds(),
		CleanupPeriod: period.String(), CleanupPeriodMillis: period.Milliseconds(),
		Until: until.String(), UntilMillis: until.Milliseconds(),
	}
	for pod, outcome := range o.BindFor {
		st.Timeline.BindFor = append(st.Timeline.BindFor, BindOverride{Pod: pod, Outcome: string(outcome)})
	}
	sort.Slice(st.Timeline.BindFor, func(i, j int) bool { return st.Timeline.BindFor[i].Pod < st.Timeline.BindFor[j].Pod })
	return st
}

// summaryOf is a touched node's requests before the run and after it
// (nil: no NodeInfo then); the allocatable is the last known.
func summaryOf(name string, before, after *nodeState) Node {
	n := Node{Name: name}
	last := after
	if before != nil {
		r := before.requested
		r.Overflow = before.overflow
		n.Before = &r
		if last == nil {
			last = before
		}
	}
	if after != nil {
		r := after.requested
		r.Overflow = after.overflow
		n.After = &r
		n.Placeholder, n.Ghost = after.placeholder, after.ghost
	}
	if last != nil {
		n.Allocatable = last.allocatable
	}
	return n
}

// touchedInOrder lists the touched nodes: input nodes in input order, then
// the others in the order first touched.
func (s *Simulator) touchedInOrder() []string {
	var names []string
	input := map[string]bool{}
	for _, n := range s.model.Nodes {
		input[n.Name] = true
		if s.touchedSet[n.Name] {
			names = append(names, n.Name)
		}
	}
	for _, name := range s.touched {
		if !input[name] {
			names = append(names, name)
		}
	}
	return names
}

// outcome is a pod's final state with an explanation.
func (s *Simulator) outcome(t *tracked) Pod {
	o := Pod{
		PodRef:    podRef(t.orig),
		Requested: Usage{MilliCPU: t.req.MilliCPU, Memory: t.req.Memory, Pods: 1, Overflow: model.PodOverflows(t.orig)},
		State:     string(t.state), Node: t.node,
	}
	switch t.state {
	case cache.StateInitial:
		switch {
		case t.unschedulable != nil:
			o.State, o.Node, o.Detail, o.Unschedulable = string(StateUnschedulable), "", t.unschedulableNote, t.unschedulable
		case t.cause == "ForgetPod":
			o.Detail = "forgotten at " + offset(t.changedAt)
		default:
			o.Node, o.Detail = "", "never assumed"
		}
	case cache.StateAssumed:
		o.Detail = s.assumedDetail(t)
	case cache.StateAdded:
		switch t.cause {
		case "":
			o.Detail = "bound in the input"
		case "UpdatePod":
			o.Detail = "updated at " + offset(t.changedAt)
		default:
			o.Detail = "Add event at " + offset(t.changedAt)
		}
	case cache.StateExpired:
		o.Detail = "expired at " + offset(t.changedAt) + ": requests freed"
	case cache.StateDeleted:
		o.Detail = "removed at " + offset(t.changedAt)
	}
	return o
}

// assumedDetail says whether an assumed pod will ever leave the cache on
// its own.
func (s *Simulator) assumedDetail(t *tracked) string {
	switch {
	case !t.finished:
		return "binding not finished"
	case t.hasDeadline:
		return fmt.Sprintf("binding finished at %s, no Add event: expires at the first cleanup after %s", offset(t.finishedAt), offset(t.deadline))
	default:
		return fmt.Sprintf("binding finished at %s, no Add event: never expires (TTL 0), holds its requests on %s", offset(t.finishedAt), t.node)
	}
}
