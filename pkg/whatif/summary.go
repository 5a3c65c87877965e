package whatif

import (
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// Summary is one line saying what was applied, for the commands' note on
// stderr, e.g. "cordoned worker-1; added 3 nodes like worker-2
// (worker-2-whatif-1..3)". Empty when nothing was.
func (a *Applied) Summary() string {
	w := &a.API
	var parts []string
	if len(w.Cordoned) > 0 {
		parts = append(parts, "cordoned "+strings.Join(w.Cordoned, ", "))
	}
	if len(w.Uncordoned) > 0 {
		parts = append(parts, "uncordoned "+strings.Join(w.Uncordoned, ", "))
	}
	for _, r := range w.RemovedNodes {
		parts = append(parts, "removed node "+r.Node+gonePods(r.Pods, "pods"))
	}
	for _, n := range w.AddedNodes {
		parts = append(parts, addedPhrase(n))
	}
	if len(w.Evicted) > 0 {
		parts = append(parts, "evicted"+gonePods(w.Evicted, ""))
	}
	return strings.Join(parts, "; ")
}

func addedPhrase(n v1alpha1.AddedNodes) string {
	from := n.Template
	if n.File != "" {
		from += " of " + n.File
	}
	if len(n.Names) == 1 {
		return fmt.Sprintf("added 1 node like %s (%s)", from, n.Names[0])
	}
	return fmt.Sprintf("added %d nodes like %s (%s..%d)", len(n.Names), from, n.Names[0], len(n.Names))
}

// gonePods says what became of pods taken off their node, e.g. " (2 pods:
// shop/web-1 recreated as shop/web-1-replacement, kube-system/proxy-x gone
// with its node)"; "" without pods.
func gonePods(pods []v1alpha1.GonePod, noun string) string {
	if len(pods) == 0 {
		return ""
	}
	var each []string
	for _, p := range pods {
		switch Recreation(p.Recreation) {
		case Recreated:
			each = append(each, p.Pod+" recreated pending as "+p.Replacement)
		case NotMoved:
			if noun == "" {
				each = append(each, p.Pod+" recreated in place by its DaemonSet")
			} else {
				each = append(each, p.Pod+" gone with its node (DaemonSet)")
			}
		default:
			each = append(each, p.Pod+" gone (no controller recreates it)")
		}
	}
	if noun == "" {
		return " " + strings.Join(each, ", ")
	}
	if len(pods) == 1 {
		noun = strings.TrimSuffix(noun, "s")
	}
	return fmt.Sprintf(" (%d %s: %s)", len(pods), noun, strings.Join(each, ", "))
}
