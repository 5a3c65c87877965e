package pipeline

import (
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

func noteLines(notes []Note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.String()
	}
	return out
}

// TestNeverFitNotes: a workload's replicas one empty copy rejects for the
// same reasons are one line; other reasons get their own, in the order
// first seen. Pending pods (no workload) are named one by one.
func TestNeverFitNotes(t *testing.T) {
	cpu := []string{"Insufficient cpu"}
	u := &v1alpha1.UntilFits{Template: "n1", Workload: "Deployment shop/api", NeverFit: []v1alpha1.NeverFit{
		{Pod: "shop/api-0", Plugin: "NodeResourcesFit", Reasons: cpu},
		{Pod: "ml/train", Plugin: "TaintToleration", Reasons: []string{"node(s) had untolerated taint(s)"}},
		{Pod: "shop/api-1", Plugin: "NodeResourcesFit", Reasons: cpu},
		{Pod: "shop/api-2", Plugin: "NodeResourcesFit", Reasons: cpu},
	}}
	want := []string{
		"note: what-if: shop/api-0 and 2 other pods do not fit a node like n1 even alone: NodeResourcesFit: Insufficient cpu",
		"note: what-if: ml/train does not fit a node like n1 even alone: TaintToleration: node(s) had untolerated taint(s)",
	}
	if got := noteLines(neverFitNotes(u)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("neverFitNotes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	u.Workload = ""
	if got := noteLines(neverFitNotes(u)); len(got) != 4 || got[2] != "note: what-if: shop/api-1 does not fit a node like n1 even alone: NodeResourcesFit: Insufficient cpu" {
		t.Errorf("pending pods: one line each, got\n%s", strings.Join(got, "\n"))
	}
}
