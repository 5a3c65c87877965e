package printers

import "github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"

// PreemptionText is what the tables say of a preemption: "nominate NODE,
// evict NS/A,NS/B" (then the victims already terminating); "<none>" for
// nil. The report page shows the same text.
func PreemptionText(p *v1alpha1.PreemptionDecision) string { return preemptionCell(p) }
