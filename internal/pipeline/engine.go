package pipeline

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Workload is the Pod or workload of a --pod-file, whose replicas the
// commands place (decide.Workload).
type Workload = decide.Workload

// WorkloadOf is the Workload of a Pod, Deployment, ReplicaSet,
// StatefulSet, Job, CronJob or DaemonSet; an error names another kind.
func WorkloadOf(obj runtime.Object) (*Workload, error) { return decide.WorkloadOf(obj) }

// WorkloadKindNames are the kinds a --pod-file may hold, Pod first.
func WorkloadKindNames() []string { return append([]string(nil), decide.WorkloadKinds...) }

// QueueOrder is pods in the order kube-scheduler's active queue pops them
// (priority, then arrival), for a placement run.
func QueueOrder(pods []*v1.Pod) []*v1.Pod { return decide.QueueOrder(pods) }

// Fits runs kube-scheduler's Filter plugins for pod on every node of m's
// cache (as if pod were the next pod taken) and adds a FITS verdict per
// node to r (requested --pod). The caller removes a bound pod from the
// cache first. Notes: the objects pod refers to that the input lacks.
func Fits(ctx context.Context, r *v1alpha1.RequestedReport, m *model.Model, objects []runtime.Object, pod *v1.Pod, notes *Notes) error {
	WarnMissing(notes, []*v1.Pod{pod}, objects)
	snap := cache.NewEmptySnapshot()
	if err := m.Cache.UpdateSnapshot(snap); err != nil {
		return err
	}
	e, err := decide.New(ctx, decide.Input{Snapshot: snap, Pending: m.Pending, Objects: objects})
	if err != nil {
		return err
	}
	defer e.Close()
	v, err := e.FilterAll(ctx, pod)
	if err != nil {
		return err
	}
	profile := m.Cache.Profile()
	views.AttachFits(r, pod, v, &profile)
	return nil
}

// Replicas places pods, the replicas of w, one after the other over m's
// cache with cfg, each assumed before the next, and reports them with the
// replica summary. It stops at the first replica that does not fit (the
// next ones, identical, would not either), except for a DaemonSet, whose
// pods are each tied to a node. objects are the input's and the replicas'
// own (their claims). Errors name the pod whose cycle failed.
func Replicas(ctx context.Context, m *model.Model, objects []runtime.Object, cfg *Config, w *Workload, pods []*v1.Pod) (*v1alpha1.SchedulingReport, error) {
	seq, err := decide.NewSequence(ctx, m.Cache, decide.Input{Pending: m.Pending, Objects: objects, Config: cfg})
	if err != nil {
		return nil, err
	}
	defer seq.Close()
	var verdicts []*decide.Verdict
	for _, p := range pods {
		v, err := seq.Next(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("pod %s: %w", termtext.Line(p.Namespace+"/"+p.Name), err)
		}
		verdicts = append(verdicts, v)
		if v.Result != decide.Scheduled && !w.PerNode {
			break
		}
	}
	report := views.SchedulingReport(m.Source, cfg.Source, verdicts)
	report.Replicas = replicaSummary(w, len(pods), verdicts)
	return report, nil
}

func replicaSummary(w *Workload, requested int, verdicts []*decide.Verdict) *v1alpha1.ReplicaSummary {
	s := &v1alpha1.ReplicaSummary{Workload: fmt.Sprintf("%s %s/%s", w.Kind, w.Namespace, w.Name), Requested: requested, Nodes: map[string]int{}}
	for _, v := range verdicts {
		if v.Result == decide.Scheduled {
			s.Fit++
			s.Nodes[v.Node]++
		} else if s.FirstUnfit == "" {
			s.FirstUnfit = v.Pod.Namespace + "/" + v.Pod.Name
		}
	}
	return s
}
