package decide

import (
	"context"
	"sync"

	v1 "k8s.io/api/core/v1"
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
type victimRecorder struct {
	mu      sync.Mutex
	victims map[types.UID][]*v1.Pod
}

func newVictimRecorder() *victimRecorder {
	return &victimRecorder{victims: map[types.UID][]*v1.Pod{}}
}

func (r *victimRecorder) pluginName() string { return defaultpreemption.Name }

// factory returns DefaultPreemption's plugin factory with the recorder in
// place of its API calls.
func (r *victimRecorder) factory(fts plfeature.Features) frameworkruntime.PluginFactory {
	fts.EnableAsyncPreemption = false
	return func(ctx context.Context, args k8sruntime.Object, fh fwk.Handle) (fwk.Plugin, error) {
		p, err := defaultpreemption.New(ctx, args, fh, fts)
		if err != nil {
			return nil, err
		}
		p.Executor.PreemptPod = r.preemptPod
		return p, nil
	}
}

// preemptPod records the candidate's victims (all of them: the executor skips
// the call for victims already terminating).
func (r *victimRecorder) preemptPod(_ context.Context, c preemption.Candidate, preemptor preemption.ExecutorPreemptor, _ *v1.Pod, _ string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.victims[preemptor.UID()]; !ok {
		r.victims[preemptor.UID()] = append([]*v1.Pod(nil), c.Victims().Pods...)
	}
	return nil
}

// take returns and forgets the victims recorded for a preemptor.
func (r *victimRecorder) take(uid types.UID) []*v1.Pod {
	r.mu.Lock()
	defer r.mu.Unlock()
	v := r.victims[uid]
	delete(r.victims, uid)
	return v
}
