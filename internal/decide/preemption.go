package decide

import (
	"context"
	"sync"

	v1 "k8s.io/api/core/v1"
	policy "k8s.io/api/policy/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// victimRecorder stands in for DefaultPreemption's API calls. The plugin
// chooses the node and the victims with its own code; where kube-scheduler
// would then patch each victim's status and delete it (Executor.PreemptPod,
// framework/preemption/executor.go), the recorder only notes the victims.
// The plugin is built with asynchronous preemption off, so every victim is
// noted before PostFilter returns; that changes when the API calls would
// happen, not which victims are chosen.
//
// The executor makes no call for a victim that is already being deleted
// (deletionTimestamp set), so the calls alone do not say which pods the
// chosen node's victims were: the recorder also notes the victims the
// plugin's dry run selects on each node, and take splits the chosen node's
// into those the scheduler deletes and those already terminating.
type victimRecorder struct {
	mu sync.Mutex
	// selected: the dry run's victims, by preemptor and node, in the
	// plugin's order (highest priority first).
	selected map[types.UID]map[string][]*v1.Pod
	// deleted: the victims the executor would delete, by preemptor.
	deleted map[types.UID]map[types.UID]bool
}

func newVictimRecorder() *victimRecorder {
	return &victimRecorder{selected: map[types.UID]map[string][]*v1.Pod{}, deleted: map[types.UID]map[types.UID]bool{}}
}

func (r *victimRecorder) pluginName() string { return defaultpreemption.Name }

// factory returns DefaultPreemption's plugin factory with the recorder in
// place of its API calls and around its victim selection.
func (r *victimRecorder) factory(fts plfeature.Features) frameworkruntime.PluginFactory {
	fts.EnableAsyncPreemption = false
	return func(ctx context.Context, args k8sruntime.Object, fh fwk.Handle) (fwk.Plugin, error) {
		p, err := defaultpreemption.New(ctx, args, fh, fts)
		if err != nil {
			return nil, err
		}
		p.Executor.PreemptPod = r.preemptPod
		p.Evaluator.Interface = &selectionRecorder{Interface: p.Evaluator.Interface, r: r}
		return p, nil
	}
}

// preemptPod records one delete the executor would send.
func (r *victimRecorder) preemptPod(_ context.Context, _ preemption.Candidate, preemptor preemption.ExecutorPreemptor, victim *v1.Pod, _ string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.deleted[preemptor.UID()]
	if m == nil {
		m = map[types.UID]bool{}
		r.deleted[preemptor.UID()] = m
	}
	m[victim.UID] = true
	return nil
}

// selectionRecorder is the plugin's preemption.Interface with its dry run's
// victims noted.
type selectionRecorder struct {
	preemption.Interface
	r *victimRecorder
}

func (s *selectionRecorder) SelectVictimsOnNode(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo, pdbs []*policy.PodDisruptionBudget) ([]*v1.Pod, int, *fwk.Status) {
	victims, violations, status := s.Interface.SelectVictimsOnNode(ctx, state, pod, ni, pdbs)
	if status.IsSuccess() && ni.Node() != nil {
		s.r.mu.Lock()
		m := s.r.selected[pod.UID]
		if m == nil {
			m = map[string][]*v1.Pod{}
			s.r.selected[pod.UID] = m
		}
		m[ni.Node().Name] = victims
		s.r.mu.Unlock()
	}
	return victims, violations, status
}

// take returns the victims of a preemptor's preemption on node, split into
// those the scheduler would delete and those already terminating (both in
// the plugin's order), and forgets what was recorded for the preemptor.
func (r *victimRecorder) take(uid types.UID, node string) (deleted, terminating []*v1.Pod) {
	r.mu.Lock()
	defer r.mu.Unlock()
	calls := r.deleted[uid]
	for _, p := range r.selected[uid][node] {
		if calls[p.UID] {
			deleted = append(deleted, p)
		} else {
			terminating = append(terminating, p)
		}
	}
	delete(r.selected, uid)
	delete(r.deleted, uid)
	return deleted, terminating
}

// forget drops what was recorded for a preemptor whose preemption chose no
// node (the dry run may still have selected victims).
func (r *victimRecorder) forget(uid types.UID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.selected, uid)
	delete(r.deleted, uid)
}
