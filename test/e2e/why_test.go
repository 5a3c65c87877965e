//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// decisionTimeout bounds the wait for the scheduler to decide every pod.
const decisionTimeout = 2 * time.Minute

// decisionCluster starts the real control plane of a test that compares
// the plugin's decisions with kube-scheduler's (in parallel with the other
// e2e tests; skipped with -short) and returns it with a context bounding
// the test and the admin client.
func decisionCluster(t *testing.T) (*framework.Cluster, context.Context, kubernetes.Interface) {
	t.Helper()
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), decisionTimeout+testTimeout)
	t.Cleanup(cancel)
	return c, ctx, c.AdminClient()
}

// TestWhyAgreesWithRealScheduler creates the decisions fixture with the
// scheduler stopped, asks `why -A` what kube-scheduler will do, then starts
// the real kube-scheduler v1.36.3 and requires, pod by pod: an unschedulable
// verdict's message equal to the scheduler's FailedScheduling event, a
// scheduled verdict whose node is the scheduler's choice or ties with it
// for the highest score, a gated verdict for a SchedulingGated pod, and a
// preemption that nominates the same node and deletes the same victims.
func TestWhyAgreesWithRealScheduler(t *testing.T) {
	c, ctx, cs := decisionCluster(t)
	f := newWhyFixture()
	if err := f.create(ctx, cs); err != nil {
		t.Fatal(err)
	}
	// --show-nodes: checkTopScore reads every node's score.
	r := runPlugin(t, nil, "why", "-A", "-o", "json", "--show-nodes", "--kubeconfig="+c.Kubeconfig(framework.UserAdmin))
	if r.code != 1 { // some pods are unschedulable
		t.Fatalf("why -A: want exit 1\n%v", r)
	}
	report := decodeKind[v1alpha1.SchedulingReport](t, "SchedulingReport", r.stdout)
	ours := map[string]*v1alpha1.PodDecision{}
	for i := range report.Pods {
		ours[report.Pods[i].Pod] = &report.Pods[i]
	}
	if len(ours) != len(f.pending) {
		t.Fatalf("why reported %d pods, want the %d pending ones", len(ours), len(f.pending))
	}

	framework.StartScheduler(t, c)
	waitCtx, waitCancel := context.WithTimeout(ctx, decisionTimeout)
	defer waitCancel()
	var pods map[string]*corev1.Pod
	waitUntil(waitCtx, t, "the scheduler to decide every pending pod", func() (bool, string) {
		var undecided []string
		pods, undecided = schedulerOutcomes(waitCtx, t, cs, f, ours)
		return len(undecided) == 0, fmt.Sprintf("undecided: %v", undecided)
	})
	events := failedScheduling(ctx, t, cs)
	for _, key := range slices.Sorted(maps.Keys(ours)) {
		checkDecision(t, ours[key], pods[key], events[key])
		checkVictims(t, ours[key], pods)
	}
}

// schedulerOutcomes reads the pending pods back and lists those the
// scheduler has not decided yet: neither bound, nor marked unschedulable
// or gated in their PodScheduled condition, nor (where we expect
// preemption) nominated.
func schedulerOutcomes(ctx context.Context, t *testing.T, cs kubernetes.Interface, f *whyFixture, ours map[string]*v1alpha1.PodDecision) (map[string]*corev1.Pod, []string) {
	list, err := cs.CoreV1().Pods(whyNS).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pods := map[string]*corev1.Pod{}
	for i := range list.Items {
		pods[whyNS+"/"+list.Items[i].Name] = &list.Items[i]
	}
	var undecided []string
	for _, p := range f.pending {
		key := whyNS + "/" + p.Name
		got := pods[key]
		switch {
		case got == nil:
			undecided = append(undecided, key+" (missing)")
		case got.Spec.NodeName != "":
		case ours[key].Preemption != nil && got.Status.NominatedNodeName == "" && got.Spec.NodeName == "":
			undecided = append(undecided, key+" (not nominated yet)")
		case scheduledCondition(got) == nil:
			undecided = append(undecided, key)
		}
	}
	return pods, undecided
}

func scheduledCondition(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if c := &p.Status.Conditions[i]; c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return c
		}
	}
	return nil
}

// failedScheduling maps namespace/name to the notes of the pod's
// FailedScheduling events, oldest first.
func failedScheduling(ctx context.Context, t *testing.T, cs kubernetes.Interface) map[string][]string {
	list, err := cs.EventsV1().Events(whyNS).List(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("reason", "FailedScheduling").String()})
	if err != nil {
		t.Fatal(err)
	}
	items := list.Items
	sort.SliceStable(items, func(i, j int) bool { return eventTime(&items[i]).Before(eventTime(&items[j])) })
	out := map[string][]string{}
	for _, e := range items {
		key := e.Regarding.Namespace + "/" + e.Regarding.Name
		out[key] = append(out[key], e.Note)
	}
	return out
}

func eventTime(e *eventsv1.Event) time.Time {
	if !e.EventTime.IsZero() {
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

func checkDecision(t *testing.T, ours *v1alpha1.PodDecision, got *corev1.Pod, notes []string) {
	t.Helper()
	switch ours.Result {
	case "scheduled":
		if got.Spec.NodeName == "" {
			t.Errorf("%s: why says scheduled on %s; the scheduler did not bind it (events %q)", ours.Pod, ours.Node, notes)
			return
		}
		checkTopScore(t, ours, got.Spec.NodeName)
	case "unschedulable":
		// After a preemption the victims go at once (grace period 0) and the
		// next cycle binds the pod to the node it was nominated to.
		if got.Spec.NodeName != "" && (ours.Preemption == nil || got.Spec.NodeName != ours.Preemption.NominatedNode) {
			t.Errorf("%s: why says unschedulable; the scheduler bound it to %s", ours.Pod, got.Spec.NodeName)
			return
		}
		if len(notes) == 0 || notes[0] != eventNote(ours.Message) {
			t.Errorf("%s: FailedScheduling message\n  why:       %q\n  scheduler: %q", ours.Pod, ours.Message, notes)
		}
		checkPreemption(t, ours, got)
	case "gated":
		if c := scheduledCondition(got); c == nil || c.Reason != corev1.PodReasonSchedulingGated {
			t.Errorf("%s: why says gated; the scheduler's condition is %+v", ours.Pod, c)
		}
	default:
		t.Errorf("%s: unexpected result %q", ours.Pod, ours.Result)
	}
}

// checkTopScore: the scheduler's node must have the highest total why
// computed (equal totals may go either way).
func checkTopScore(t *testing.T, ours *v1alpha1.PodDecision, chosen string) {
	t.Helper()
	var best int64 = -1
	scores := map[string]int64{}
	for _, n := range ours.Nodes {
		if n.Score != nil {
			scores[n.Name] = *n.Score
			best = max(best, *n.Score)
		}
	}
	if len(scores) == 0 { // one feasible node: no scoring
		if chosen != ours.Node {
			t.Errorf("%s: why chose %s (the only feasible node); the scheduler bound it to %s", ours.Pod, ours.Node, chosen)
		}
		return
	}
	if s, ok := scores[chosen]; !ok || s != best {
		t.Errorf("%s: the scheduler chose %s, scored %d by why (feasible %t); why's best is %d (%s)", ours.Pod, chosen, s, ok, best, ours.Node)
	}
}

func checkPreemption(t *testing.T, ours *v1alpha1.PodDecision, got *corev1.Pod) {
	t.Helper()
	if ours.Preemption == nil {
		if got.Status.NominatedNodeName != "" {
			t.Errorf("%s: why expects no preemption; the scheduler nominated %s", ours.Pod, got.Status.NominatedNodeName)
		}
		return
	}
	if got.Status.NominatedNodeName != ours.Preemption.NominatedNode && got.Spec.NodeName != ours.Preemption.NominatedNode {
		t.Errorf("%s: why nominates %s; the scheduler nominated %q", ours.Pod, ours.Preemption.NominatedNode, got.Status.NominatedNodeName)
	}
}

// eventNote is an event note as the scheduler cuts it (1024 bytes).
func eventNote(msg string) string {
	if len(msg) <= 1024 {
		return msg
	}
	return msg[:1020] + " ..."
}

// checkVictims: why's victims are gone or being deleted (the scheduler
// deletes them), and only they.
func checkVictims(t *testing.T, ours *v1alpha1.PodDecision, pods map[string]*corev1.Pod) {
	t.Helper()
	if ours.Preemption == nil {
		return
	}
	for _, v := range ours.Preemption.Victims {
		if p := pods[v]; p != nil && p.DeletionTimestamp == nil {
			t.Errorf("%s: why names victim %s; the scheduler did not delete it", ours.Pod, v)
		}
	}
	for key, p := range pods {
		if p.DeletionTimestamp != nil && !slices.Contains(ours.Preemption.Victims, key) {
			t.Errorf("%s: the scheduler deleted %s, which why does not name as a victim", ours.Pod, key)
		}
	}
}
