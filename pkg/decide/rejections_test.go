package decide

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCountRejections: one count per plugin in first-seen order; feasible
// nodes are not counted; a PreFilter node-subset status (no plugin) is
// counted under its reason, as the FailedScheduling message prints it.
func TestCountRejections(t *testing.T) {
	subset := "node(s) didn't satisfy plugin(s) [NodeAffinity]"
	nodes := []NodeResult{
		{Name: "a", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}},
		{Name: "b", Feasible: true},
		{Name: "c", Plugin: "TaintToleration", Reasons: []string{"node(s) had untolerated taint(s)"}},
		{Name: "d", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient memory"}},
		{Name: "e", Reasons: []string{subset}},
	}
	want := []Rejection{{"NodeResourcesFit", 2}, {"TaintToleration", 1}, {subset, 1}}
	if diff := cmp.Diff(want, countRejections(nodes)); diff != "" {
		t.Errorf("countRejections (-want +got):\n%s", diff)
	}
	if got := countRejections(nil); got != nil {
		t.Errorf("countRejections(nil) = %v, want nil", got)
	}
}
