package views

import (
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// namespacesNamed is how many namespaces PendingElsewhereHint names before
// it only counts them.
const namespacesNamed = 3

// PendingElsewhereHint is the hint said after "No resources found in NS
// namespace." when no pending pod of namespace ns matches sel (nil: every
// pod) but some in other namespaces do: how many, in which namespaces (the
// first three by name, then a count), and that -A shows them, e.g. "3 pods
// are Pending in namespace apps: -n apps or -A shows them". It is "" when
// no other namespace holds a matching pending pod. pending is the model's
// pending pods (model.Model.Pending).
func PendingElsewhereHint(pending []*v1.Pod, ns string, sel labels.Selector) string {
	perNS := map[string]int{}
	pods := 0
	for _, p := range pending {
		if p.Namespace == ns || (sel != nil && !sel.Matches(labels.Set(p.Labels))) {
			continue
		}
		perNS[p.Namespace]++
		pods++
	}
	if pods == 0 {
		return ""
	}
	names := make([]string, 0, len(perNS))
	for n := range perNS {
		names = append(names, n)
	}
	sort.Strings(names)
	verb, them := "pods are", "them"
	if pods == 1 {
		verb, them = "pod is", "it"
	}
	if len(names) == 1 {
		return fmt.Sprintf("%d %s Pending in namespace %s: -n %s or -A shows %s", pods, verb, names[0], names[0], them)
	}
	shown := names
	if len(shown) > namespacesNamed {
		shown = append(shown[:namespacesNamed:namespacesNamed], fmt.Sprintf("%d more", len(names)-namespacesNamed))
	}
	return fmt.Sprintf("%d %s Pending in %d other namespaces (%s): -A shows %s", pods, verb, len(names), strings.Join(shown, ", "), them)
}
