package cmd

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// podTypes are the names kubectl takes for the pod resource in TYPE/NAME
// (kubectl get pod/x, pods/x, po/x).
var podTypes = sets.New("pod", "pods", "po")

// otherTypes are kubectl's names of the resources whose pods one may mean
// by TYPE/NAME: this tool names pods only (its TYPE/NAME is NAMESPACE/NAME).
var otherTypes = sets.New(
	"deployment", "deployments", "deploy", "replicaset", "replicasets", "rs",
	"statefulset", "statefulsets", "sts", "daemonset", "daemonsets", "ds",
	"job", "jobs", "cronjob", "cronjobs", "cj", "replicationcontroller", "replicationcontrollers", "rc",
	"node", "nodes", "no", "service", "services", "svc",
)

// parsePodRef reads a pod named on the command line: NAME (in namespace ns,
// -n's or the context's), NAMESPACE/NAME, or kubectl's TYPE/NAME for a pod
// (pod/NAME, pods/NAME, po/NAME, also with a group suffix: pods.v1/…). A
// TYPE/NAME of another kind (deployment/web) is an error saying how to
// name its pods. A namespace may be named like a type: "pod/x" is read as
// kubectl reads it, TYPE/NAME.
func parsePodRef(ref, ns string) (namespace, name string, err error) {
	first, rest, ok := strings.Cut(ref, "/")
	if !ok {
		return ns, ref, nil
	}
	typ, _, _ := strings.Cut(strings.ToLower(first), ".")
	switch {
	case podTypes.Has(typ):
		if strings.Contains(rest, "/") || rest == "" {
			return "", "", fmt.Errorf("%s: want pod/NAME", oneLine(ref))
		}
		return ns, rest, nil
	case otherTypes.Has(typ):
		return "", "", fmt.Errorf("%s is not a pod (NAME, NAMESPACE/NAME or pod/NAME): name its pods, or give its manifest with --pod-file (kubectl get %s -o yaml > %s.yaml) to place replicas like them", oneLine(ref), oneLine(ref), oneLine(rest))
	}
	return first, rest, nil
}

// findPod looks --pod up among the input's pending pods, then its cached
// pods. NAME alone uses the namespace of -n or the kubeconfig context.
func (o *RequestedOptions) findPod(m *model.Model) (*v1.Pod, error) {
	ns, name, err := parsePodRef(o.Pod, o.Input.PodNamespace())
	if err != nil {
		return nil, fmt.Errorf("--pod %w", err)
	}
	for _, p := range m.Pending {
		if p.Namespace == ns && p.Name == name {
			return p, nil
		}
	}
	// An assigned pod is already counted on its node; checking it answers
	// "would a copy of it fit".
	if p := cachedPod(m, func(p *v1.Pod) bool { return p.Namespace == ns && p.Name == name }); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("pod %s not found in the input (pending or bound, non-terminal pods only)", oneLine(ns+"/"+name))
}

// cachedPod returns a pod of m's cache for which match is true, nil if
// none; it reads the cache's own NodeInfos (Inspect), copying none.
func cachedPod(m *model.Model, match func(*v1.Pod) bool) (found *v1.Pod) {
	m.Cache.Inspect(func(d *cache.Dump) {
		for _, ni := range d.Nodes {
			for _, pi := range ni.Pods {
				if match(pi.Pod) {
					found = pi.Pod
					return
				}
			}
		}
	})
	return found
}
