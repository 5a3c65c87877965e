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
	n := 0
	for i := range r.Pods {
		p := &r.Pods[i]
		if p.ClusterScheduler == nil || !p.ClusterScheduler.Differs {
			continue
		}
		if n++; n > recordedShown {
			continue
		}
		decided := p.Result
		if p.Node != "" {
			decided += " on " + p.Node
		} else if p.Message != "" {
			decided += ": " + p.Message
		}
		fmt.Fprintf(w, "warning: pod %s: this tool decides %s; %s\n", oneLine(p.Pod), oneLine(decided), oneLine(printers.RecordedText(p.ClusterScheduler)))
	}
	if n == 0 {
		return
	}
	if n > recordedShown {
		fmt.Fprintf(w, "warning: %d more pods whose recorded verdict differs (clusterScheduler in -o json)\n", n-recordedShown)
	}
	fmt.Fprintf(w, "hint: where a decision differs from the cluster's scheduler's, %s\n", printers.DifferHint)
}
