package simulate

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// This file holds the pod operations shared by the timeline and scripts.
// Each records exactly one cache call.

// assume assumes a copy of base with spec.nodeName set to node, or to the
// node kube-scheduler would choose when node is "" (recording an
// unschedulable event with the scheduler's message, and assuming nothing,
// when no node passes its filters). It reports whether the cache accepted
// the pod.
func (s *Simulator) assume(t *tracked, base *v1.Pod, node string) bool {
	note, tied := "", []string(nil)
	if node != "" {
		// An explicit node is not checked, as a bind by hand is not; the
		// note shows when it over-commits.
		req := s.opts.profile().PodResource(base).Resource
		if reasons := s.fitReasons(&req, node); len(reasons) > 0 {
			note = "no fit check: " + strings.Join(reasons, ", ")
		}
	} else {
		v, err := s.place(base)
		if err != nil {
			s.emit(newEvent(EventUnschedulable, base, "", "", err))
			return false
		}
		if v.Result != decide.Scheduled {
			t.unschedulable, t.unschedulableNote = rejections(v), unschedulableNote(v)
			if v.Result != decide.Unschedulable {
				t.unschedulableNote = string(v.Result) + ": " + v.Message
			}
			s.emit(newEvent(EventUnschedulable, base, "", t.unschedulableNote, nil))
			return false
		}
		node, note, tied = v.Node, placedNote(v), tiedNodes(v)
	}
	obj := base.DeepCopy()
	obj.Spec.NodeName = node
	err := s.record(EventAssume, obj, node, note, func() error { return s.model.Cache.AssumePod(obj) })
	if err != nil {
		return false
	}
	if last := &s.events[len(s.events)-1]; len(tied) > 0 && last.Event == EventAssume {
		last.TiedNodes = tied
	}
	t.cur = obj
	return true
}

// finishBinding tells the cache the bind call returned; for outcome Lost
// the note says no Add event will follow. An empty outcome adds nothing.
func (s *Simulator) finishBinding(t *tracked, obj *v1.Pod, outcome Outcome) {
	t.finishBinding(s.now, s.opts.ttl(), s.opts.profile().ZeroTTLNeverExpires)
	note := "not assumed: no-op"
	switch {
	case t.finished && t.hasDeadline:
		note = "deadline " + offset(t.deadline)
	case t.finished:
		note = "TTL 0: no deadline"
	}
	if outcome == Lost {
		note = joinNotes(note, "Add event lost")
	}
	_ = s.record(EventFinishBinding, obj, obj.Spec.NodeName, note, func() error { return s.model.Cache.FinishBinding(obj) })
}

// bind is the scheduler's binding cycle after the bind call returns:
// FinishBinding, then the pod's Add event (confirm), ForgetPod (fail) or
// nothing (lost).
func (s *Simulator) bind(t *tracked, outcome Outcome) {
	s.finishBinding(t, t.cur, outcome)
	switch outcome {
	case Confirm:
		// The informer delivers a new object: the bound pod.
		s.add(t, t.cur.DeepCopy(), "")
	case Fail:
		s.forget(t.cur, "binding failed")
	}
}

func (s *Simulator) add(t *tracked, obj *v1.Pod, note string) {
	if s.record(EventAdd, obj, obj.Spec.NodeName, note, func() error { return s.model.Cache.AddPod(obj) }) == nil {
		t.cur = obj
	}
}

func (s *Simulator) update(t *tracked, obj *v1.Pod) {
	old := t.cur
	if s.record(EventUpdate, obj, obj.Spec.NodeName, "", func() error { return s.model.Cache.UpdatePod(old, obj) }) == nil {
		t.cur = obj
	}
}

func (s *Simulator) forget(obj *v1.Pod, note string) {
	if s.cacheState(obj) == cache.StateInitial && s.opts.profile().ForgetUnknownIsNil {
		// v1.35+ returns nil for a pod it does not hold.
		note = joinNotes(note, "not in the cache: ignored")
	}
	_ = s.record(EventForget, obj, obj.Spec.NodeName, note, func() error { return s.model.Cache.ForgetPod(obj) })
}

func (s *Simulator) remove(obj *v1.Pod) {
	_ = s.record(EventRemove, obj, obj.Spec.NodeName, "", func() error { return s.model.Cache.RemovePod(obj) })
}

// cleanup runs the cache's cleanup at the current time: one expire event
// per expired pod. A cleanup that expires nothing is recorded only when
// always is set (script steps); timeline ticks would drown the timeline.
func (s *Simulator) cleanup(always bool) {
	s.model.Cache.Cleanup(s.clock.Now())
	if !s.recordTransitions(EventCleanup, "", nil) && always {
		s.emit(newEvent(EventCleanup, nil, "", s.cleanupNote(), nil))
	}
}

// cleanupNote explains why nothing expired.
func (s *Simulator) cleanupNote() string {
	if s.opts.ttl() == 0 && s.opts.profile().ZeroTTLNeverExpires {
		return "TTL 0: nothing ever expires"
	}
	var next *tracked
	for _, t := range s.pods.order {
		if t.state == cache.StateAssumed && t.hasDeadline && (next == nil || t.deadline < next.deadline) {
			next = t
		}
	}
	if next == nil {
		return "nothing expired: no assumed pod has finished binding"
	}
	return fmt.Sprintf("nothing expired: next deadline %s (%s)", offset(next.deadline), quotedPod(next.orig))
}
