package views

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/whatif"
)

// TestDrainReportLeadsWithBlockers: the report's pods come in the order
// of what makes the drain unsafe (blocked, unschedulable, not recreated),
// then what goes well (scheduled), then what stays (skipped), the pods
// kept only because others block the drain last; within a result, the
// drain's own order. Every pod is kept.
func TestDrainReportLeadsWithBlockers(t *testing.T) {
	pod := func(name string) *v1.Pod { return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: name}} }
	out := &whatif.DrainOutcome{Nodes: []string{"n1", "n2"}, Pods: []whatif.PodOutcome{
		{Pod: pod("placed"), From: "n2", Result: whatif.DrainScheduled, Node: "n3"},
		{Pod: pod("others-1"), From: "n1", Result: whatif.DrainSkipped, Message: whatif.BlockedByOthers("n1")},
		{Pod: pod("ds"), From: "n1", Result: whatif.DrainSkipped, Message: "ignoring DaemonSet-managed Pods"},
		{Pod: pod("others-2"), From: "n1", Result: whatif.DrainSkipped, Message: whatif.BlockedByOthers("n1")},
		{Pod: pod("solo"), From: "n2", Result: whatif.DrainNotRecreated},
		{Pod: pod("stuck"), From: "n2", Result: whatif.DrainUnschedulable},
		{Pod: pod("local"), From: "n1", Result: whatif.DrainBlocked},
	}}
	r := DrainReport("file x", "default", out)
	var got []string
	for _, p := range r.Pods {
		got = append(got, p.Pod)
	}
	want := "a/local a/stuck a/solo a/placed a/ds a/others-1 a/others-2"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	if r.Verdict != "not safe: 1 pod blocked, 1 replacement unschedulable, 1 pod not recreated" {
		t.Errorf("verdict %q", r.Verdict)
	}
}
