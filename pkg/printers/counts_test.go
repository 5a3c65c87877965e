package printers

import (
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// TestCountsAgreeAtOne: dump's summary and requested --pod's verdict on a
// cluster of one node and one pod say "1 node", "1 pod".
func TestCountsAgreeAtOne(t *testing.T) {
	if got := DumpSummary(&v1alpha1.DumpSummary{Nodes: 1, Pods: 1}); !strings.HasPrefix(got, "1 node, 1 pod, ") {
		t.Errorf("dump summary: %q", got)
	}
	r := &v1alpha1.RequestedReport{Nodes: []v1alpha1.NodeRequested{{Name: "n1"}}, Pod: &v1alpha1.FitPod{Namespace: "a", Name: "web", FitsNodes: 1}}
	if got := FitSummary(r); !strings.HasSuffix(got, "passes kube-scheduler's filters on 1 of 1 node") {
		t.Errorf("requested --pod: %q", got)
	}
}
