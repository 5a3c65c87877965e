package cmd

import (
	"fmt"
	"io"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	utilversion "k8s.io/apimachinery/pkg/util/version"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// kubeletChoice is what the nodes' status.nodeInfo.kubeletVersion say of
// the version to model for files read without --kube-version.
type kubeletChoice struct {
	// Version is the version to model: the one every node's kubelet runs
	// (its minor), else v1.36.
	Version cache.Version
	// Note is the one line that says which version is modelled and why,
	// and how to choose another: every node's kubelet version, or why not
	// (they differ: the control plane, kube-scheduler with it, is never
	// older than a kubelet; out of range); "" when no node reports a
	// kubelet version (hand-written manifests), which tells nothing.
	Note string
}

// fromKubelets reads the nodes' kubelet versions. A control plane may run
// up to three minors ahead of its kubelets (the version skew policy), so
// only nodes that all agree give a version; nodes that differ say the
// control plane is at least the newest.
func fromKubelets(nodes []*v1.Node) kubeletChoice {
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
	latest := kubeletChoice{Version: cache.Latest}
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
			latest.Note = fmt.Sprintf("note: modelling kube-scheduler %s, the newest of the nodes' kubelets (%s); %s", cache.Latest, kubeletList(count), how)
			return latest
		}
		latest.Note = fmt.Sprintf("note: modelling kube-scheduler %s: the nodes' kubelets differ (%s), so the control plane is v1.%d or newer; %s",
			cache.Latest, kubeletList(count), newest.Minor(), how)
		return latest
	}
	v, err := cache.ParseVersion(fmt.Sprintf("v%d.%d", newest.Major(), newest.Minor()))
	if err != nil {
		latest.Note = fmt.Sprintf("note: modelling kube-scheduler %s: every node's kubelet is %s, outside %s; %s", cache.Latest, kubeletList(count), cache.SupportedRange, how)
		return latest
	}
	if v.Minor == cache.MaxMinor {
		latest.Note = fmt.Sprintf("note: modelling kube-scheduler %s, the version of every node's kubelet (%s); %s", v, kubeletList(count), how)
		return latest
	}
	return kubeletChoice{Version: v, Note: fmt.Sprintf("note: modelling kube-scheduler %s, the version of every node's kubelet (%s); %s", v, kubeletList(count), how)}
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

// kubeletProfile is, for files read without --kube-version, the profile
// of the version the nodes' kubelets give (fromKubelets) when it is not
// modelled, with its note said; ok is false when modelled stays (its note,
// if any, said). With --feature-gates, read against modelled, modelled
// stays and the note says why.
func (f *InputFlags) kubeletProfile(cluster *load.Cluster, modelled cache.Version, notes io.Writer) (cache.Profile, bool) {
	if len(f.Filenames) == 0 || f.Version.version != nil {
		return cache.Profile{}, false
	}
	kc := fromKubelets(cluster.Nodes)
	switch {
	case kc.Version.Minor == modelled.Minor:
		if kc.Note != "" {
			fmt.Fprintln(notes, kc.Note)
		}
		return cache.Profile{}, false
	case f.Version.FeatureGates != "":
		fmt.Fprintf(notes, "note: modelling kube-scheduler %s, which --feature-gates were read against, though every node's kubelet is %s; --kube-version %s models that\n",
			modelled, kc.Version, kc.Version)
		return cache.Profile{}, false
	}
	fmt.Fprintln(notes, kc.Note)
	return cache.NewProfile(kc.Version, nil), true
}

// noteDecisionVersion says once, for the commands that decide, that the
// decisions come from kube-scheduler v1.36's framework whatever version
// the cache models, when that version is older.
func noteDecisionVersion(w io.Writer, modelled cache.Version) {
	if modelled.Minor >= cache.MaxMinor {
		return
	}
	fmt.Fprintf(w, "note: decisions follow kube-scheduler %s's framework and plugins, not %s's (only the cache's accounting is %s's): verdicts and messages may differ from that scheduler's\n",
		cache.Latest, modelled, modelled)
}

// noteVersions is simulate's notes on versions: it chooses its version
// before reading the files (the TTL and the timeline depend on it), so it
// does not follow the nodes' kubelets but says when they run another
// version; and its placements are v1.36's decisions.
func (o *SimulateOptions) noteVersions(m *model.Model, cluster *load.Cluster) {
	modelled := m.Cache.Profile().Version
	if len(o.Input.Filenames) > 0 && o.Input.Version.version == nil {
		if kc := fromKubelets(cluster.Nodes); kc.Version.Minor != modelled.Minor {
			fmt.Fprintf(o.ErrOut, "note: simulating kube-scheduler %s (no --kube-version), though every node's kubelet is %s; --kube-version %s models that\n", modelled, kc.Version, kc.Version)
		} else if kc.Note != "" {
			fmt.Fprintln(o.ErrOut, kc.Note)
		}
	}
	noteDecisionVersion(o.ErrOut, modelled)
}
