package pipeline

import (
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// recordedShown is how many pods whose recorded verdict differs are named
// on stderr; the others are counted.
const recordedShown = 3

// WarnRecorded adds, for the outputs that do not show it (the table
// without details, the report page), a warning for each of
// the pods whose own PodScheduled condition holds a verdict of the
// cluster's scheduler that differs from this decision: both, marked, then
// one line of the usual causes.
func WarnRecorded(notes *Notes, r *v1alpha1.SchedulingReport) {
	n, generic := 0, false
	for i := range r.Pods {
		p := &r.Pods[i]
		if p.ClusterScheduler == nil || !p.ClusterScheduler.Differs {
			continue
		}
		if n++; n > recordedShown {
			continue
		}
		decided := "decided " + p.Result + " with another message; the"
		if p.Node != "" {
			decided = "decided scheduled on " + p.Node + ", but the"
		}
		cause := ""
		if p.ClusterScheduler.Cause != "" {
			cause = " (" + p.ClusterScheduler.Cause + ")"
		} else {
			generic = true
		}
		notes.Add(SeverityWarning, "pod %s: %s %s%s", termtext.Line(p.Pod), decided, termtext.Line(printers.RecordedText(p.ClusterScheduler)), termtext.Line(cause))
	}
	if n > recordedShown {
		notes.Add(SeverityWarning, "%s whose recorded verdict differs (clusterScheduler in -o json)", termtext.Count(n-recordedShown, "more pod"))
		generic = true
	}
	if generic {
		notes.Add(SeverityHint, "where a decision differs from the cluster's scheduler's, %s", printers.DifferHint)
	}
}
