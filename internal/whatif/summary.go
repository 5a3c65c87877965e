package whatif

import (
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// Summary is one line saying what was applied, for the commands' note on
// stderr, e.g. "cordoned worker-1; added 3 nodes like worker-2
// (worker-2-whatif-1..3)". Empty when nothing was.
func (a *Applied) Summary() string {
	w := a
	var parts []string
	if len(w.Cordoned) > 0 {
		parts = append(parts, "cordoned "+strings.Join(w.Cordoned, ", "))
	}
	if len(w.Uncordoned) > 0 {
		parts = append(parts, "uncordoned "+strings.Join(w.Uncordoned, ", "))
	}
	for _, r := range w.RemovedNodes {
		parts = append(parts, "removed node "+r.Node+removedPods(r.Pods))
	}
	for _, n := range w.AddedNodes {
		parts = append(parts, addedPhrase(n))
	}
	if len(w.Evicted) > 0 {
		parts = append(parts, "evicted"+gonePods(w.Evicted))
	}
	return strings.Join(parts, "; ")
}

func addedPhrase(n AddedNodes) string {
	from := n.Template
	if n.File != "" {
		from += " of " + n.File
	}
	if len(n.Names) == 1 {
		return fmt.Sprintf("added 1 node like %s (%s)", from, n.Names[0])
	}
	return fmt.Sprintf("added %d nodes like %s (%s..%d)", len(n.Names), from, n.Names[0], len(n.Names))
}

// removedPods counts what became of a removed node's pods, naming only
// those gone for good (the replacements show in the decisions), e.g. " (7
// pods: 4 recreated pending, 2 DaemonSet pods gone with it, 1 gone for
// good: ci/build-1)"; "" without pods.
func removedPods(pods []GonePod) string {
	if len(pods) == 0 {
		return ""
	}
	var recreated, daemons int
	var gone []string
	for _, p := range pods {
		switch Recreation(p.Recreation) {
		case Recreated:
			recreated++
		case NotMoved:
			daemons++
		default:
			gone = append(gone, p.Pod)
		}
	}
	var each []string
	if recreated > 0 {
		each = append(each, fmt.Sprintf("%d recreated pending", recreated))
	}
	if daemons > 0 {
		each = append(each, termtext.Count(daemons, "DaemonSet pod")+" gone with it")
	}
	if len(gone) > 0 {
		each = append(each, fmt.Sprintf("%d gone for good (no controller): %s", len(gone), strings.Join(gone, ", ")))
	}
	return fmt.Sprintf(" (%s: %s)", termtext.Count(len(pods), "pod"), strings.Join(each, ", "))
}

// gonePods says what became of evicted pods, e.g. " shop/web-1
// recreated pending as shop/web-1-replacement, shop/solo gone (no
// controller recreates it)".
func gonePods(pods []GonePod) string {
	var each []string
	for _, p := range pods {
		switch Recreation(p.Recreation) {
		case Recreated:
			each = append(each, p.Pod+" recreated pending as "+p.Replacement)
		case NotMoved:
			each = append(each, p.Pod+" recreated in place by its DaemonSet")
		default:
			each = append(each, p.Pod+" gone (no controller recreates it)")
		}
	}
	return " " + strings.Join(each, ", ")
}
