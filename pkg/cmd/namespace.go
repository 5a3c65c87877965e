package cmd

import (
	"fmt"
	"io"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// noResourcesFound says on w what kubectl says when a namespace or a
// selector matches nothing: "No resources found in NS namespace." (ns
// given) or "No resources found".
func noResourcesFound(w io.Writer, ns string) {
	if ns != "" {
		fmt.Fprintf(w, "No resources found in %s namespace.\n", ns)
		return
	}
	fmt.Fprintln(w, "No resources found")
}

// noPendingPods says that no pending pod of namespace ns ("": every
// namespace) matches sel, as kubectl get does, then, for one namespace, how
// many pending pods of other namespaces match and that -A shows them.
func noPendingPods(w io.Writer, pending []*v1.Pod, ns string, sel labels.Selector) {
	noResourcesFound(w, ns)
	if ns == "" {
		return
	}
	if hint := views.PendingElsewhereHint(pending, ns, sel); hint != "" {
		fmt.Fprintln(w, "hint: "+hint)
	}
}

// warnEmptyNamespace says "No resources found in NS namespace." when -n
// names a namespace holding no pod of the input (bound or pending): the
// view still shows the nodes, whose totals never depend on -n.
func warnEmptyNamespace(w io.Writer, m *model.Model, ns string) {
	if ns != "" && !namespaceHasPods(m, ns) {
		noResourcesFound(w, ns)
	}
}

// namespaceHasPods reports whether the input holds a pod of ns, bound or
// pending.
func namespaceHasPods(m *model.Model, ns string) bool {
	for _, p := range m.Pending {
		if p.Namespace == ns {
			return true
		}
	}
	return cachedPod(m, func(p *v1.Pod) bool { return p.Namespace == ns }) != nil
}

// dumpInNamespace returns a copy of d whose nodes list only the pods (and
// nominated pods) of namespace ns; every total stays the whole node's.
func dumpInNamespace(d *v1alpha1.CacheDump, ns string) *v1alpha1.CacheDump {
	if ns == "" {
		return d
	}
	out := *d
	out.Nodes = make([]v1alpha1.NodeDump, len(d.Nodes))
	for i, n := range d.Nodes {
		n.Pods = []v1alpha1.PodDump{}
		for _, p := range d.Nodes[i].Pods {
			if p.Namespace == ns {
				n.Pods = append(n.Pods, p)
			}
		}
		n.NominatedPods = nil
		for _, p := range d.Nodes[i].NominatedPods {
			if pns, _, ok := strings.Cut(p, "/"); ok && pns == ns {
				n.NominatedPods = append(n.NominatedPods, p)
			}
		}
		out.Nodes[i] = n
	}
	return &out
}
