package cmd

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/model"
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
	for _, ni := range m.Cache.Dump().Nodes {
		for _, pi := range ni.Pods {
			if pi.Pod.Namespace == ns && pi.Pod.Name == name {
				// An assigned pod is already counted on its node; checking it
				// answers "would a copy of it fit".
				return pi.Pod, nil
			}
		}
	}
	return nil, fmt.Errorf("pod %s/%s not found in the input (pending or bound, non-terminal pods only)", ns, name)
}
