package scaledown

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/whatif"
)

// Annotations cluster-autoscaler reads on pods and nodes.
const (
	// SafeToEvictAnnotation "true" lets a pod go despite local storage, no
	// controller or kube-system; "false" makes it block its node.
	SafeToEvictAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict"
	// SafeToEvictLocalVolumesAnnotation lists the pod's local volumes
	// (comma-separated names) that do not block its node.
	SafeToEvictLocalVolumesAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"
	// ScaleDownDisabledAnnotation "true" keeps a node out of scale-down.
	ScaleDownDisabledAnnotation = "cluster-autoscaler.kubernetes.io/scale-down-disabled"
)

// Rule names a reason a pod blocks its node, as cluster-autoscaler's
// BlockingReason names it (utils/drain, shown in its status and events).
type Rule string

// The blocking rules, in the order they are checked.
const (
	NotReplicated            Rule = "NotReplicated"
	UnmovableKubeSystemPod   Rule = "UnmovableKubeSystemPod"
	NotSafeToEvictAnnotation Rule = "NotSafeToEvictAnnotation"
	LocalStorageRequested    Rule = "LocalStorageRequested"
	NotEnoughPdb             Rule = "NotEnoughPdb"
)

// podFate is what the drainability rules make of one pod of a node.
type podFate int

const (
	// stays: goes away with its node, nothing to move (DaemonSet, mirror,
	// terminating pods).
	stays podFate = iota
	// moves: must find a place on another node.
	moves
	// blocks: the node cannot go.
	blocks
)

// verdictOf applies cluster-autoscaler's drainability rules
// (simulator/drainability/rules) to one pod, in their order: mirror and
// terminating pods stay; DaemonSet pods stay; safe-to-evict "true" moves;
// then the blocking rules: no controller (or, with
// SkipNodesWithCustomControllerPods, one of a kind it does not know),
// kube-system without a PodDisruptionBudget, safe-to-evict "false", local
// storage. The budget rule (NotEnoughPdb) is the caller's: allowances are
// consumed across the nodes removed. hasPDB says whether a budget selects
// the pod. The message says in words why the pod blocks.
func verdictOf(p *v1.Pod, hasPDB bool, opts *Options) (podFate, Rule, string) {
	switch {
	case isMirrorPod(p):
		return stays, "", ""
	case p.DeletionTimestamp != nil:
		return stays, "", ""
	case isDaemonSetPod(p):
		return stays, "", ""
	case p.Annotations[SafeToEvictAnnotation] == "true":
		return moves, "", ""
	}
	ref := metav1.GetControllerOfNoCopy(p)
	if ref == nil {
		return blocks, NotReplicated, "no controller recreates it"
	}
	if opts.SkipNodesWithCustomControllerPods && whatif.RecreationOf(p) != whatif.Recreated {
		return blocks, NotReplicated, fmt.Sprintf("its controller %s %s is not one cluster-autoscaler knows to recreate it", ref.Kind, ref.Name)
	}
	if opts.SkipNodesWithSystemPods && p.Namespace == metav1.NamespaceSystem && !hasPDB {
		return blocks, UnmovableKubeSystemPod, "a kube-system pod without a PodDisruptionBudget"
	}
	if p.Annotations[SafeToEvictAnnotation] == "false" {
		return blocks, NotSafeToEvictAnnotation, "annotated " + SafeToEvictAnnotation + `: "false"`
	}
	if opts.SkipNodesWithLocalStorage {
		if vol := localVolume(p); vol != "" {
			return blocks, LocalStorageRequested, fmt.Sprintf("local storage in volume %q (emptyDir or hostPath)", vol)
		}
	}
	return moves, "", ""
}

// localVolume is the first emptyDir or hostPath volume of p not listed in
// its safe-to-evict-local-volumes annotation, or "".
func localVolume(p *v1.Pod) string {
	safe := map[string]bool{}
	for _, name := range strings.Split(p.Annotations[SafeToEvictLocalVolumesAnnotation], ",") {
		safe[strings.TrimSpace(name)] = true
	}
	for _, v := range p.Spec.Volumes {
		if (v.EmptyDir != nil || v.HostPath != nil) && !safe[v.Name] {
			return v.Name
		}
	}
	return ""
}
