package simulate

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
)

// Run simulates scheduling pods (unassigned pods, in order) on a fixed
// timeline:
//
//   - +0s: each pod is assumed, one after another, on Options.Node or
//     where kube-scheduler v1.36's scheduling cycle places it against the
//     cache as it is then (otherwise it is reported unschedulable, with
//     the scheduler's message, and not assumed);
//   - +BindLatency: for each assumed pod in turn, FinishBinding, then its
//     binding outcome (Options.Bind / BindFor): the Add event (confirm),
//     ForgetPod (fail) or nothing (lost);
//   - every CleanupPeriod until Until: the cache's cleanup, recorded only
//     when it expires a pod.
//
// Events at the same instant run in that order: binding before cleanup.
// It fails if a pod is given twice or BindFor names a pod not given.
func (s *Simulator) Run(pods []*v1.Pod) (*Result, error) {
	if s.opts.Node == "" && len(pods) > 0 && !s.ran {
		s.prebuild()
	}
	if err := s.begin(); err != nil {
		return nil, err
	}
	var assumed []*tracked
	for _, p := range pods {
		if err := s.opts.context().Err(); err != nil { // Ctrl-C: no partial result
			return nil, err
		}
		t, err := s.register(p)
		if err != nil {
			return nil, err
		}
		if s.assume(t, p, s.opts.Node) {
			assumed = append(assumed, t)
		}
	}
	if err := s.checkBindFor(); err != nil {
		return nil, err
	}
	until, period, latency := s.opts.until(), s.opts.period(), s.opts.BindLatency
	bound := false
	for tick := period; ; tick += period {
		if !bound && latency <= until && latency <= tick {
			s.setTime(latency)
			for _, t := range assumed {
				s.bind(t, s.opts.outcomeFor(podName(t.orig)))
			}
			bound = true
		}
		if tick > until {
			break
		}
		s.setTime(tick)
		s.cleanup(false)
	}
	s.setTime(until)
	if err := s.opts.context().Err(); err != nil { // the last placement was cut short
		return nil, err
	}
	return s.result(false), nil
}

// checkBindFor rejects outcomes given for pods that are not simulated,
// naming the first in name order.
func (s *Simulator) checkBindFor() error {
	names := make([]string, 0, len(s.opts.BindFor))
	for name := range s.opts.BindFor {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := s.pods.byName[name]; !ok {
			return fmt.Errorf("a binding outcome is given for pod %s, which is not among the pods to simulate", name)
		}
	}
	return nil
}
