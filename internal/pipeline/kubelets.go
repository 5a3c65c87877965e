package pipeline

import (
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	utilversion "k8s.io/apimachinery/pkg/util/version"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// KubeletChoice is what the nodes' status.nodeInfo.kubeletVersion say of
// the version to model for files read without --kube-version.
type KubeletChoice struct {
	// Version is the version to model: the one every node's kubelet runs
	// (its minor), else v1.36.
	Version cache.Version
	// Note is the one line (without "note: ") that says which version is modelled and why,
	// and how to choose another: every node's kubelet version, or why not
	// (they differ: the control plane, kube-scheduler with it, is never
	// older than a kubelet; out of range); "" when no node reports a
	// kubelet version (hand-written manifests), which tells nothing.
	Note string
}

// FromKubelets reads the nodes' kubelet versions. A control plane may run
// up to three minors ahead of its kubelets (the version skew policy), so
// only nodes that all agree give a version; nodes that differ say the
// control plane is at least the newest.
func FromKubelets(nodes []*v1.Node) KubeletChoice {
	count := map[string]int{}
	var newest *utilversion.Version
	for _, n := range nodes {
		s := n.Status.NodeInfo.KubeletVersion
		v, err := utilversion.ParseGeneric(s)
		if err != nil {
			continue
		}
		count[s]++
		if newest == nil || v.GreaterThan(newest) {
			newest = v
		}
	}
	how := "--kube-version chooses another"
	latest := KubeletChoice{Version: cache.Latest}
	if newest == nil {
		// Hand-written manifests: nothing tells what the cluster runs.
		return latest
	}
	minors := map[uint]bool{}
	for s := range count {
		minors[utilversion.MustParseGeneric(s).Minor()] = true
	}
	if len(minors) > 1 {
		if newest.Major() == 1 && newest.Minor() >= cache.MaxMinor {
			// The control plane is never older than a kubelet.
			latest.Note = fmt.Sprintf("modelling kube-scheduler %s, the newest of the nodes' kubelets (%s); %s", cache.Latest, kubeletList(count), how)
			return latest
		}
		latest.Note = fmt.Sprintf("modelling kube-scheduler %s: the nodes' kubelets differ (%s), so the control plane is v1.%d or newer; %s",
			cache.Latest, kubeletList(count), newest.Minor(), how)
		return latest
	}
	v, err := cache.ParseVersion(fmt.Sprintf("v%d.%d", newest.Major(), newest.Minor()))
	if err != nil {
		latest.Note = fmt.Sprintf("modelling kube-scheduler %s: every node's kubelet is %s, outside %s; %s", cache.Latest, kubeletList(count), cache.SupportedRange, how)
		return latest
	}
	if v.Minor == cache.MaxMinor {
		latest.Note = fmt.Sprintf("modelling kube-scheduler %s, the version of every node's kubelet (%s); %s", v, kubeletList(count), how)
		return latest
	}
	return KubeletChoice{Version: v, Note: fmt.Sprintf("modelling kube-scheduler %s, the version of every node's kubelet (%s); %s", v, kubeletList(count), how)}
}

// kubeletList is "v1.33.7 on 1 node, v1.36.3 on 11", oldest first.
func kubeletList(count map[string]int) string {
	vs := make([]string, 0, len(count))
	for s := range count {
		vs = append(vs, s)
	}
	sort.Slice(vs, func(i, j int) bool {
		return utilversion.MustParseGeneric(vs[i]).LessThan(utilversion.MustParseGeneric(vs[j]))
	})
	parts := make([]string, len(vs))
	for i, s := range vs {
		noun := ""
		if i == 0 {
			noun = " nodes"
			if count[s] == 1 {
				noun = " node"
			}
		}
		parts[i] = fmt.Sprintf("%s on %d%s", s, count[s], noun)
	}
	if len(parts) == 1 {
		return vs[0]
	}
	return strings.Join(parts, ", ")
}
