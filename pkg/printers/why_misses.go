package printers

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// DifferHint names the usual causes of a decision that differs from the
// one the cluster's scheduler recorded.
const DifferHint = "the input may be partial (a pod holding a port, a claim or resources missing from it) or stale, or the cluster's scheduler runs another version or configuration"

// RecordedText is "cluster's scheduler said (at TIME): MESSAGE".
func RecordedText(r *v1alpha1.RecordedVerdict) string {
	msg := r.Message
	if msg == "" {
		msg = r.Reason
	}
	return "cluster's scheduler said" + recordedAt(r) + ": " + msg
}

// recordedAt is " (at TIME)", or "" when the condition has no time.
func recordedAt(r *v1alpha1.RecordedVerdict) string {
	if r.Time == nil {
		return ""
	}
	return " (at " + r.Time.UTC().Format("2006-01-02T15:04:05Z") + ")"
}

// recordedFields are the detail view's lines for the cluster's own
// verdict: both messages when they differ, else a short line.
func recordedFields(r *v1alpha1.RecordedVerdict) [][2]string {
	if r == nil {
		return nil
	}
	if !r.Differs {
		return [][2]string{{"Cluster:", "cluster's scheduler said the same" + recordedAt(r)}}
	}
	cause := r.Cause
	if cause == "" {
		cause = DifferHint
	}
	return [][2]string{{"Cluster:", RecordedText(r)}, {"", "(differs from the decision above: " + cause + ")"}}
}

// printNearMisses writes an unschedulable pod's near misses, one line per
// node ("worker-b-2: only NodeUnschedulable — uncordon it"), nodes rejected
// alike on one line.
func printNearMisses(w io.Writer, misses []v1alpha1.NearMiss) error {
	if len(misses) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w, "Near misses (this tool's analysis, not the scheduler's: every Filter plugin that rejects the pod on the nodes nearest to taking it):"); err != nil {
		return err
	}
	// Nodes rejected alike share a line, in the order of their first.
	var texts []string
	nodes := map[string][]string{}
	for i := range misses {
		t := rejectionsText(&misses[i])
		if _, ok := nodes[t]; !ok {
			texts = append(texts, t)
		}
		nodes[t] = append(nodes[t], misses[i].Node)
	}
	for _, t := range texts {
		if _, err := fmt.Fprintf(w, "  %s: %s\n", termtext.Text(strings.Join(nodes[t], ", ")), termtext.Text(t)); err != nil {
			return err
		}
	}
	return nil
}

// NearMissText is one node's near miss on one line: "NODE: only PLUGIN —
// FIX", or its rejections joined by "; ", NodeResourcesFit's with its
// shortfalls ("NodeResourcesFit: Insufficient cpu (needs 1500m, 700m free)").
func NearMissText(m *v1alpha1.NearMiss) string {
	return m.Node + ": " + rejectionsText(m)
}

func rejectionsText(m *v1alpha1.NearMiss) string {
	parts := make([]string, 0, len(m.Rejections))
	for i := range m.Rejections {
		parts = append(parts, rejectionText(&m.Rejections[i]))
	}
	only := ""
	if len(parts) == 1 {
		only = "only "
	}
	return only + strings.Join(parts, "; ")
}

func rejectionText(r *v1alpha1.Rejection) string {
	if len(r.Shortfalls) > 0 {
		byReason := map[string]string{}
		for _, s := range r.Shortfalls {
			reason := "Insufficient " + s.Resource
			if s.Resource == "pods" {
				reason = "Too many pods"
			}
			free := Quantity(s.Resource, s.Free) + " free"
			if s.Free < 0 {
				// The node's pods already request more than its allocatable.
				free = "none free, " + Quantity(s.Resource, -s.Free) + " over-committed"
			}
			byReason[reason] = fmt.Sprintf("%s (needs %s, %s)", reason, Quantity(s.Resource, s.Requested), free)
		}
		reasons := make([]string, 0, len(r.Reasons))
		for _, reason := range r.Reasons {
			if t, ok := byReason[reason]; ok {
				reason = t
			}
			reasons = append(reasons, reason)
		}
		return r.Plugin + ": " + strings.Join(reasons, ", ")
	}
	if r.Fix != "" {
		return r.Plugin + " — " + r.Fix
	}
	return r.Plugin + ": " + strings.Join(r.Reasons, ", ")
}
