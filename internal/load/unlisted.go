package load

import (
	"fmt"
	"io"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// unlistedKind is a kind List could not list, and why.
type unlistedKind struct {
	kind SchedulingKind
	err  error
}

// draGroup is the API group of Dynamic Resource Allocation, which servers
// before Kubernetes v1.34 do not serve as v1.
const draGroup = "resource.k8s.io"

// warnUnlisted writes a warning per kind the user may not list (403), and
// one line per API group version the server does not serve (404), its
// kinds folded (termtext.Fold). A group version not served whose kinds
// only DynamicResources reads (resource.k8s.io) is said only when a pod
// listed has spec.resourceClaims: without claims the plugin skips every
// pod (PreFilter returns Skip), so the missing kinds change no verdict,
// and clusters older than v1.34 would otherwise get three lines on every
// decision.
func warnUnlisted(w io.Writer, failed []unlistedKind, pods []*corev1.Pod) {
	var groups []string
	notServed := map[string][]SchedulingKind{}
	for _, u := range failed {
		if !apierrors.IsNotFound(u.err) {
			fmt.Fprintln(w, "warning: "+unlistedWarning(u.kind, u.err))
			continue
		}
		gv := u.kind.GVR.GroupVersion().String()
		if _, ok := notServed[gv]; !ok {
			groups = append(groups, gv)
		}
		notServed[gv] = append(notServed[gv], u.kind)
	}
	claims := anyResourceClaims(pods)
	for _, gv := range groups {
		kinds := notServed[gv]
		if kinds[0].GVR.Group == draGroup && !claims {
			continue
		}
		names := make([]string, len(kinds))
		plugins := sets.New[string]()
		var order []string
		for i, k := range kinds {
			names[i] = k.GVR.GroupResource().String()
			for _, p := range k.Plugins {
				if !plugins.Has(p) {
					plugins.Insert(p)
					order = append(order, p)
				}
			}
		}
		fmt.Fprintln(w, clean(termtext.Fold("warning: cannot list "+names[0], names)+
			fmt.Sprintf(" (the server does not serve %s): the verdicts of %s may be approximate", gv, strings.Join(order, ", "))))
	}
}

// anyResourceClaims reports whether a pod refers to a ResourceClaim.
func anyResourceClaims(pods []*corev1.Pod) bool {
	for _, p := range pods {
		if len(p.Spec.ResourceClaims) > 0 {
			return true
		}
	}
	return false
}
