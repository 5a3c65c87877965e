package simulate

import (
	"errors"
	"fmt"
	"math"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/simulate/script"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// RunScript runs steps, in order, against the cache. pods (from --pod-file
// and --pending) are the pods the script can name first; it can also name
// any pod of the input, and define pods inline. Every step is recorded,
// with the cache's error if it returned one. Only the script's own
// mistakes (an unknown pod or node, an add without a node) stop the run:
// they are returned as *script.Error.
func (s *Simulator) RunScript(steps []script.Step, pods []*v1.Pod) (*Result, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	for _, p := range pods {
		if _, err := s.register(p); err != nil {
			return nil, err
		}
	}
	for i, st := range steps {
		s.step = i + 1
		if err := s.opts.context().Err(); err != nil { // Ctrl-C: no partial result
			return nil, err
		}
		if err := s.runStep(st); err != nil {
			return nil, &script.Error{Step: s.step, Op: st.Op, Err: err}
		}
	}
	if err := s.opts.context().Err(); err != nil { // the last placement was cut short
		return nil, err
	}
	return s.result(true), nil
}

func (s *Simulator) runStep(st script.Step) error {
	switch st.Op {
	case script.OpAdvance:
		if st.Duration > math.MaxInt64-s.now {
			return fmt.Errorf("+%s would move the virtual clock past its largest value, %s after the start", st.Duration, time.Duration(math.MaxInt64))
		}
		s.setTime(s.now + st.Duration)
		s.emit(newEvent(EventAdvance, nil, "", "clock +"+st.Duration.String(), nil))
		return nil
	case script.OpCleanup:
		s.cleanup(true)
		return nil
	case script.OpAddNode, script.OpUpdateNode, script.OpRemoveNode:
		return s.runNodeStep(st)
	}
	t, inline, err := s.resolvePod(st.Pod)
	if err != nil {
		return err
	}
	return s.runPodStep(st, t, inline)
}

// runPodStep runs a pod operation. inline, when set, replaces the object
// the operation would otherwise pass (the pod's current object).
func (s *Simulator) runPodStep(st script.Step, t *tracked, inline *v1.Pod) error {
	obj := t.cur
	if inline != nil {
		obj = inline
	}
	switch st.Op {
	case script.OpAssume:
		base := t.orig
		if inline != nil {
			base = inline
		}
		if st.Node != "" && !s.knownNode(st.Node) {
			return unknownNode(st.Node)
		}
		s.assume(t, base, st.Node)
	case script.OpFinishBinding:
		s.finishBinding(t, obj, "")
	case script.OpBind:
		if t.cur.Spec.NodeName == "" {
			return fmt.Errorf("pod %s was never assumed or bound, so it has no node to bind to", quotedPod(t.orig))
		}
		s.bind(t, s.bindOutcome(st))
	case script.OpAdd:
		return s.runAdd(st, t, obj.DeepCopy())
	case script.OpUpdate:
		return s.runUpdate(st, t, obj.DeepCopy(), inline != nil)
	case script.OpForget, script.OpRemove:
		obj = obj.DeepCopy()
		if st.Node != "" {
			obj.Spec.NodeName = st.Node
		}
		if st.Op == script.OpForget {
			s.forget(obj, "")
		} else {
			s.remove(obj)
		}
	}
	return nil
}

func (s *Simulator) bindOutcome(st script.Step) Outcome {
	if st.Outcome != "" {
		return st.Outcome
	}
	return s.opts.defaultOutcome()
}

// runAdd delivers an Add event for obj on step's node, or on the node the
// object already names (the assumed or bound node).
func (s *Simulator) runAdd(st script.Step, t *tracked, obj *v1.Pod) error {
	if st.Node != "" {
		obj.Spec.NodeName = st.Node
	}
	switch node := obj.Spec.NodeName; {
	case node == "":
		return fmt.Errorf("pod %s has no node (it was never assumed or bound): give node", quotedPod(t.orig))
	case !s.knownNode(node):
		return unknownNode(node)
	}
	s.add(t, obj, "")
	return nil
}

// runUpdate delivers an Update event from the pod's current object to obj,
// which keeps the current node unless the step names one (an inline
// manifest without spec.nodeName keeps it too).
func (s *Simulator) runUpdate(st script.Step, t *tracked, obj *v1.Pod, inline bool) error {
	if inline && obj.Spec.NodeName == "" {
		obj.Spec.NodeName = t.cur.Spec.NodeName
	}
	if st.Node != "" {
		obj.Spec.NodeName = st.Node
	}
	if len(st.Requests) > 0 {
		if len(obj.Spec.Containers) == 0 {
			return fmt.Errorf("pod %s has no containers to set requests on", quotedPod(t.orig))
		}
		c := &obj.Spec.Containers[0]
		if c.Resources.Requests == nil {
			c.Resources.Requests = v1.ResourceList{}
		}
		for name, q := range st.Requests {
			c.Resources.Requests[name] = q
		}
		load.DefaultPod(obj)
	}
	s.update(t, obj)
	return nil
}

// resolvePod finds the pod a step names, registering it the first time:
// the pods given to RunScript, then inline definitions, then the input.
// For an inline manifest it also returns the object to use, carrying the
// known pod's UID when the manifest has none.
func (s *Simulator) resolvePod(arg *script.PodArg) (*tracked, *v1.Pod, error) {
	key := arg.String()
	t := s.pods.byName[key]
	if t == nil {
		p := s.inputPod(key)
		switch {
		case p == nil && arg.Inline == nil:
			return nil, nil, fmt.Errorf("unknown pod %s: not given with --pod-file or --pending, not defined inline by an earlier step, and not in the input", termtext.Line(key))
		case p == nil:
			p = arg.Inline.DeepCopy()
			if p.UID == "" {
				p.UID = load.DerivedUID(p.Namespace, p.Name)
			}
		}
		var err error
		if t, err = s.register(p); err != nil {
			return nil, nil, err
		}
	}
	if arg.Inline == nil {
		return t, nil, nil
	}
	inline := arg.Inline.DeepCopy()
	if inline.UID == "" {
		inline.UID = t.orig.UID
	}
	return t, inline, nil
}

// cacheState asks the cache what state p is in now.
func (s *Simulator) cacheState(p *v1.Pod) cache.PodState {
	if _, err := s.model.Cache.GetPod(p); err != nil {
		return cache.StateInitial
	}
	if assumed, _ := s.model.Cache.IsAssumedPod(p); assumed {
		return cache.StateAssumed
	}
	return cache.StateAdded
}

// knownNode: a node of the input or an earlier nodeObject, or any NodeInfo
// the cache holds (placeholders included).
func (s *Simulator) knownNode(name string) bool {
	if _, ok := s.nodes[name]; ok {
		return true
	}
	_, ok := s.model.Cache.GetNodeInfo(name)
	return ok
}

func unknownNode(name string) error {
	return fmt.Errorf("unknown node %s: not in the input, not given by an earlier nodeObject, and not in the cache", termtext.Line(name))
}

// runNodeStep runs addNode, updateNode or removeNode, and mirrors on the
// placement tree exactly what the cache does to its own NodeTree, so that
// later placements see the same zones.
func (s *Simulator) runNodeStep(st script.Step) error {
	obj := st.NodeObject
	if obj == nil {
		obj = s.nodes[st.Node]
	}
	if obj == nil {
		if !s.knownNode(st.Node) {
			return unknownNode(st.Node)
		}
		// A placeholder: pods are bound to a name no node object had.
		obj = &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: st.Node}}
	}
	c := s.model.Cache
	switch st.Op {
	case script.OpAddNode:
		_ = s.record(EventAddNode, nil, obj.Name, "", func() error { c.AddNode(obj); return nil })
		s.nodes[obj.Name] = obj
	case script.OpUpdateNode:
		old := s.nodes[obj.Name]
		_ = s.record(EventUpdateNode, nil, obj.Name, "", func() error { c.UpdateNode(old, obj); return nil })
		s.nodes[obj.Name] = obj
	case script.OpRemoveNode:
		_ = s.record(EventRemoveNode, nil, obj.Name, "", func() error { return c.RemoveNode(obj) })
	default:
		return errors.New("not a node operation")
	}
	return nil
}
