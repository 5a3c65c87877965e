package views

import (
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/model"
)

// Dump builds the CacheDump of m: every NodeInfo of the cache's Dump(),
// sorted by name. With only non-empty, just those nodes are listed (the
// summary still counts the whole cache); an unknown name is an error.
func Dump(m *model.Model, only []string) (*v1alpha1.CacheDump, error) {
	d := m.Cache.Dump()
	nominated := m.NominatedPods()
	out := &v1alpha1.CacheDump{Source: m.Source, Nodes: []v1alpha1.NodeDump{}}
	v1alpha1.SetKind(out, "CacheDump")
	out.Summary = summarize(d, len(m.Pending))
	names := sortedNodeNames(d.Nodes)
	if len(only) > 0 {
		if missing := missingNames(d.Nodes, only); len(missing) > 0 {
			return nil, fmt.Errorf("node %s not found in the cache", strings.Join(missing, ", "))
		}
		names = only
	}
	profile := m.Cache.Profile()
	// The overflow checks read every pod's quantities (0.4 s at 150,000
	// pods): on a core of their own, beside the nodes' dumps, which read
	// the same dump and model without changing them either.
	overflowsCh := make(chan map[string][]string, 1)
	go func() { overflowsCh <- m.OverflowsByNodeIn(d) }()
	for _, name := range names {
		out.Nodes = append(out.Nodes, nodeDump(name, d.Nodes[name], d.AssumedPods, nominated[name], &profile))
	}
	overflows := <-overflowsCh
	for i := range out.Nodes {
		out.Nodes[i].Overflow = overflows[out.Nodes[i].Name]
	}
	return out, nil
}

func missingNames(nodes map[string]*cache.NodeInfo, names []string) []string {
	var missing []string
	for _, n := range names {
		if _, ok := nodes[n]; !ok {
			missing = append(missing, fmt.Sprintf("%q", n))
		}
	}
	return missing
}

func summarize(d *cache.Dump, pending int) v1alpha1.DumpSummary {
	s := v1alpha1.DumpSummary{Nodes: len(d.Nodes), AssumedPods: len(d.AssumedPods), PendingPods: pending}
	for _, ni := range d.Nodes {
		s.Pods += len(ni.Pods)
		if ni.IsPlaceholder() {
			s.Placeholders++
		}
		if ni.IsGhost() {
			s.Ghosts++
		}
	}
	return s
}

func nodeDump(name string, ni *cache.NodeInfo, assumed map[string]bool, nominated []*v1.Pod, profile *cache.Profile) v1alpha1.NodeDump {
	nd := v1alpha1.NodeDump{
		Name:                         name,
		Zone:                         zoneOf(ni.Node()),
		Placeholder:                  ni.IsPlaceholder(),
		Ghost:                        ni.IsGhost(),
		Generation:                   ni.Generation,
		Requested:                    resourceOf(ni.Requested),
		NonZeroRequested:             nonZeroOf(ni.NonZeroRequested),
		Allocatable:                  resourceOf(ni.Allocatable),
		Pods:                         []v1alpha1.PodDump{},
		UsedPorts:                    usedPorts(ni.UsedPorts),
		PodsWithAffinity:             podNames(ni.PodsWithAffinity),
		PodsWithRequiredAntiAffinity: podNames(ni.PodsWithRequiredAntiAffinity),
	}
	if len(ni.PVCRefCounts) > 0 {
		nd.PVCRefCounts = ni.PVCRefCounts
	}
	for _, pi := range ni.Pods {
		nd.Pods = append(nd.Pods, podDump(pi, assumed[string(pi.Pod.UID)], profile))
	}
	sort.Slice(nd.Pods, func(i, j int) bool {
		return nd.Pods[i].Namespace+"/"+nd.Pods[i].Name < nd.Pods[j].Namespace+"/"+nd.Pods[j].Name
	})
	for _, p := range nominated {
		nd.NominatedPods = append(nd.NominatedPods, podName(p))
	}
	for img, st := range ni.ImageStates {
		nd.ImageStates = append(nd.ImageStates, v1alpha1.ImageState{Name: img, Size: st.Size, NumNodes: st.NumNodes})
	}
	sort.Slice(nd.ImageStates, func(i, j int) bool { return nd.ImageStates[i].Name < nd.ImageStates[j].Name })
	return nd
}

// podDump lists the host ports the kube-scheduler version modelled uses
// for the pod (sidecars' too from v1.33).
func podDump(pi *cache.PodInfo, assumed bool, profile *cache.Profile) v1alpha1.PodDump {
	p := pi.Pod
	pd := v1alpha1.PodDump{
		Namespace:         p.Namespace,
		Name:              p.Name,
		UID:               string(p.UID),
		State:             string(cache.StateAdded),
		Phase:             string(p.Status.Phase),
		Terminating:       p.DeletionTimestamp != nil,
		NominatedNodeName: p.Status.NominatedNodeName,
		Requested:         resourceOf(&pi.Resource.Resource),
		NonZeroRequested:  v1alpha1.NonZeroResource{MilliCPU: pi.Resource.NonZeroMilliCPU, Memory: pi.Resource.NonZeroMemory},
	}
	if assumed {
		pd.State = string(cache.StateAssumed)
	}
	for _, hp := range profile.HostPorts(p) {
		pd.HostPorts = append(pd.HostPorts, portString(hp.HostIP, string(hp.Protocol), hp.HostPort))
	}
	pd.PVCs = cache.PVCKeys(p)
	return pd
}
