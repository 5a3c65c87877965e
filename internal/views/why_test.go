package views

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
)

func unschedulablePod(msg string) *v1.Pod {
	at := metav1.NewTime(time.Date(2026, 7, 20, 8, 15, 0, 0, time.UTC))
	return &v1.Pod{Status: v1.PodStatus{Conditions: []v1.PodCondition{
		{Type: v1.PodReady, Status: v1.ConditionFalse},
		{Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: v1.PodReasonUnschedulable, Message: msg, LastTransitionTime: at},
	}}}
}

// TestRecordedVerdict: the pod's PodScheduled=False/Unschedulable condition
// beside the decision. The DRA phrase is DynamicResources' PostFilter
// message for a pod without claims in k8s.io/kubernetes v1.34.3 and
// v1.36.3, absent in v1.33.7.
func TestRecordedVerdict(t *testing.T) {
	const ours = "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
	const older = "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
	tests := []struct {
		name    string
		pod     *v1.Pod
		result  decide.Result
		message string
		differs bool
		cause   bool
	}{
		{"same message", unschedulablePod(ours), decide.Unschedulable, ours, false, false},
		{"scheduled here", unschedulablePod(ours), decide.Scheduled, "", true, false},
		{"older scheduler", unschedulablePod(older), decide.Unschedulable, ours, true, true},
		{"other counts", unschedulablePod("0/2 nodes are available: 1 Insufficient cpu."), decide.Unschedulable, ours, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := recordedVerdict(&decide.Verdict{Pod: tc.pod, Result: tc.result, Message: tc.message})
			if r == nil || r.Reason != "Unschedulable" || r.Time == nil || r.Differs != tc.differs || (r.Cause != "") != tc.cause {
				t.Errorf("got %+v, want differs %v, cause %v", r, tc.differs, tc.cause)
			}
		})
	}
	if r := recordedVerdict(&decide.Verdict{Pod: &v1.Pod{}, Result: decide.Scheduled}); r != nil {
		t.Errorf("a pod without the condition: %+v", r)
	}
	if r := recordedVerdict(&decide.Verdict{Pod: unschedulablePod(ours), Result: decide.Gated, Message: "SchedulingGates: waiting"}); r != nil {
		t.Errorf("a gated pod: %+v", r)
	}
}

// TestFixHint: what each in-tree plugin's near miss suggests.
func TestFixHint(t *testing.T) {
	tests := []struct {
		r    decide.Rejection
		want string
	}{
		{decide.Rejection{Plugin: "NodeUnschedulable", Reasons: []string{"node(s) were unschedulable"}}, "uncordon it"},
		{decide.Rejection{Plugin: "TaintToleration", Taint: "node.kubernetes.io/unschedulable:NoSchedule"}, "uncordon it"},
		{decide.Rejection{Plugin: "TaintToleration", Taint: "dedicated=infra:NoSchedule"}, "a toleration for its taint dedicated=infra:NoSchedule"},
		{decide.Rejection{Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}, ""},
		{decide.Rejection{Plugin: "VolumeZone"}, ""},
	}
	for _, tc := range tests {
		if got := fixHint(tc.r); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.r.Plugin, tc.r.Taint, got, tc.want)
		}
	}
}
