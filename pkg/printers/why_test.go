package printers

import (
	"bytes"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// TestPrintNearMisses: one line per node, nodes rejected alike on one
// line, NodeResourcesFit's shortfalls in the resource's units.
func TestPrintNearMisses(t *testing.T) {
	affinity := v1alpha1.Rejection{Plugin: "NodeAffinity", Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}, Fix: "labels matching the pod's node selector or required node affinity"}
	misses := []v1alpha1.NearMiss{
		{Node: "worker-b-2", Rejections: []v1alpha1.Rejection{{Plugin: "NodeUnschedulable", Reasons: []string{"node(s) were unschedulable"}, Fix: "uncordon it"}}},
		{Node: "a", Rejections: []v1alpha1.Rejection{affinity}},
		{Node: "b", Rejections: []v1alpha1.Rejection{affinity}},
		{Node: "c", Rejections: []v1alpha1.Rejection{
			{Plugin: "TaintToleration", Reasons: []string{"node(s) had untolerated taint(s)"}, Fix: "a toleration for its taint k=v:NoSchedule"},
			{Plugin: "NodeResourcesFit", Reasons: []string{"Too many pods", "Insufficient cpu", "Insufficient memory"}, Shortfalls: []v1alpha1.Shortfall{
				{Resource: "pods", Requested: 1, Free: 0}, {Resource: "cpu", Requested: 1500, Free: 700}, {Resource: "memory", Requested: 16 << 30, Free: 3 << 30}}},
		}},
		{Node: "d", Rejections: []v1alpha1.Rejection{{Plugin: "VolumeZone", Reasons: []string{"node(s) had no available volume zone"}}}},
		// Pods that request more than the node's allocatable (bound before
		// a resize, say) leave less than nothing free.
		{Node: "e", Rejections: []v1alpha1.Rejection{{Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}, Shortfalls: []v1alpha1.Shortfall{
			{Resource: "cpu", Requested: 2000, Free: -180}}}}},
	}
	var out bytes.Buffer
	if err := printNearMisses(&out, misses); err != nil {
		t.Fatal(err)
	}
	want := `Near misses (this tool's analysis, not the scheduler's: every Filter plugin that rejects the pod on the nodes nearest to taking it):
  worker-b-2: only NodeUnschedulable — uncordon it
  a, b: only NodeAffinity — labels matching the pod's node selector or required node affinity
  c: TaintToleration — a toleration for its taint k=v:NoSchedule; NodeResourcesFit: Too many pods (needs 1, 0 free), Insufficient cpu (needs 1500m, 700m free), Insufficient memory (needs 16Gi, 3Gi free)
  d: only VolumeZone: node(s) had no available volume zone
  e: only NodeResourcesFit: Insufficient cpu (needs 2, none free, 180m over-committed)
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
