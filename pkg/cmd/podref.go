package cmd

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// findPod looks --pod up among the input's pending pods, then its cached
// pods. NAME alone uses the namespace of -n or the kubeconfig context.
func (o *RequestedOptions) findPod(m *model.Model) (*v1.Pod, error) {
	ns, name, ok := strings.Cut(o.Pod, "/")
	if !ok {
		name, ns = ns, o.Input.PodNamespace()
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
