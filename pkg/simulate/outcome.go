package simulate

import (
	"fmt"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// result assembles the Result at the end of a run.
func (s *Simulator) result(script bool) *Result {
	opts := s.opts
	opts.CleanupPeriod, opts.Until = opts.period(), opts.until()
	r := &Result{Script: script, Source: s.model.Source, Options: opts, End: s.now, Events: s.events}
	for _, name := range s.touchedInOrder() {
		r.Nodes = append(r.Nodes, NodeChange{Name: name, Before: s.before[name], After: s.usage(name)})
	}
	for _, t := range s.pods.order {
		r.Pods = append(r.Pods, s.outcome(t))
	}
	return r
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
func (s *Simulator) outcome(t *tracked) PodOutcome {
	o := PodOutcome{Pod: t.orig, Requested: t.req, State: t.state, Node: t.node}
	switch t.state {
	case cache.StateInitial:
		switch {
		case t.unschedulable != nil:
			o.State, o.Node, o.Detail, o.Unschedulable = StateUnschedulable, "", t.unschedulableNote, t.unschedulable
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
