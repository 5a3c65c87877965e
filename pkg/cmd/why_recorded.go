package cmd

import (
	"fmt"
	"io"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// recordedShown is how many pods whose recorded verdict differs are named
// on stderr; the others are counted.
const recordedShown = 3

// warnRecorded tells on stderr, for the outputs that do not show it, of
// the pods whose own PodScheduled condition holds a verdict of the
// cluster's scheduler that differs from this decision: both, marked, then
// one line of the usual causes.
func warnRecorded(w io.Writer, r *v1alpha1.SchedulingReport) {
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
		fmt.Fprintf(w, "warning: pod %s: %s %s%s\n", oneLine(p.Pod), decided, oneLine(printers.RecordedText(p.ClusterScheduler)), oneLine(cause))
	}
	if n > recordedShown {
		fmt.Fprintf(w, "warning: %d more pods whose recorded verdict differs (clusterScheduler in -o json)\n", n-recordedShown)
		generic = true
	}
	if generic {
		fmt.Fprintf(w, "hint: where a decision differs from the cluster's scheduler's, %s\n", printers.DifferHint)
	}
}
