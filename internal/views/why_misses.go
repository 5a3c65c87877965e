package views

import (
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

func nearMiss(m decide.NearMiss) v1alpha1.NearMiss {
	out := v1alpha1.NearMiss{Node: m.Node, Rejections: make([]v1alpha1.Rejection, 0, len(m.Rejections))}
	for _, r := range m.Rejections {
		rj := v1alpha1.Rejection{Plugin: r.Plugin, Code: r.Code, Reasons: r.Reasons, Taint: r.Taint, Fix: fixHint(r)}
		for _, s := range r.Shortfalls {
			rj.Shortfalls = append(rj.Shortfalls, v1alpha1.Shortfall{Resource: s.Resource, Requested: s.Requested, Free: s.Free})
		}
		out.Rejections = append(out.Rejections, rj)
	}
	return out
}

// fixHint says what would lift a rejection, for the in-tree Filter plugins
// whose reasons do not say it already; "" otherwise (NodeResourcesFit's
// fix is its shortfalls).
func fixHint(r decide.Rejection) string {
	switch r.Plugin {
	case "NodeUnschedulable":
		if hasReason(r.Reasons, "node(s) were unschedulable") {
			return "uncordon it"
		}
	case "TaintToleration":
		// kubectl cordon's taint goes with the cordon.
		if strings.HasPrefix(r.Taint, v1.TaintNodeUnschedulable+":") {
			return "uncordon it"
		}
		if r.Taint != "" {
			return "a toleration for its taint " + r.Taint
		}
		return "a toleration for its taints"
	case "NodeAffinity":
		return "labels matching the pod's node selector or required node affinity"
	case "NodePorts":
		return "the pod's host ports free on it"
	case "NodeName":
		return "the pod names another node in spec.nodeName"
	case "InterPodAffinity":
		return "the pods its (anti-)affinity terms require (or forbid) in the node's topology domain"
	case "PodTopologySpread":
		return "a topology domain where placing it keeps the skew within maxSkew"
	}
	return ""
}

func hasReason(reasons []string, want string) bool {
	for _, r := range reasons {
		if r == want {
			return true
		}
	}
	return false
}

// recordedVerdict is the pod's PodScheduled condition when the cluster's
// scheduler recorded it as Unschedulable, compared with this decision
// (scheduled or unschedulable: a gated or skipped pod has no cycle to
// compare).
func recordedVerdict(v *decide.Verdict) *v1alpha1.RecordedVerdict {
	if v.Result != decide.Scheduled && v.Result != decide.Unschedulable {
		return nil
	}
	for i := range v.Pod.Status.Conditions {
		c := &v.Pod.Status.Conditions[i]
		if c.Type != v1.PodScheduled || c.Status != v1.ConditionFalse || c.Reason != v1.PodReasonUnschedulable {
			continue
		}
		out := &v1alpha1.RecordedVerdict{Reason: c.Reason, Message: c.Message}
		if !c.LastTransitionTime.IsZero() {
			t := c.LastTransitionTime
			out.Time = &t
		}
		switch v.Result {
		case decide.Scheduled:
			out.Differs = true
		case decide.Unschedulable:
			out.Differs = strings.TrimSpace(c.Message) != strings.TrimSpace(v.Message)
			if out.Differs && strings.Replace(v.Message, draPhrase, "", 1) == strings.TrimSpace(c.Message) {
				out.Cause = draCause
			}
		}
		return out
	}
	return nil
}

// draPhrase is DynamicResources' PostFilter message for a pod without
// claims, which kube-scheduler writes from v1.34 (the plugin on by default;
// v1.33 and older write nothing for such a pod): checked in
// k8s.io/kubernetes v1.33.7, v1.34.3 and v1.36.3,
// pkg/scheduler/framework/plugins/dynamicresources.
const (
	draPhrase = "no new claims to deallocate, "
	draCause  = "the messages differ only by \"no new claims to deallocate\", which kube-scheduler writes from v1.34 on: the cluster's scheduler is older"
)
