package views

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Dump builds the CacheDump of m: every NodeInfo of the cache's Dump(),
// sorted by name. With only non-empty, just those nodes are listed (the
// summary still counts the whole cache); an unknown name is an error.
func Dump(m *model.Model, only []string) (out *v1alpha1.CacheDump, err error) {
	profile := m.Cache.Profile()
	// The view copies what it prints from the cache's own NodeInfos: a
	// Dump would first copy every NodeInfo only to drop the copies.
	m.Cache.Inspect(func(d *cache.Dump) { out, err = dumpOf(m, d, only, &profile) })
	return out, err
}

// dumpOf is Dump from d, which it reads without retaining any of it.
func dumpOf(m *model.Model, d *cache.Dump, only []string, profile *cache.Profile) (*v1alpha1.CacheDump, error) {
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
	// The overflow checks read every pod's quantities (a visible part of
	// the command at 150,000 pods, docs/PERFORMANCE.md#file-mode): on a
	// core of their own, beside the nodes' dumps, which read
	// the same dump and model without changing them either.
	overflowsCh := make(chan map[string][]string, 1)
	go func() { overflowsCh <- m.OverflowsByNodeIn(d) }()
	out.Nodes = make([]v1alpha1.NodeDump, len(names))
	// Node by node, on every core: the dumps of 5,000 nodes take a second
	// of one core after a live listing, where nothing else is left to do.
	workqueue.ParallelizeUntil(context.Background(), runtime.GOMAXPROCS(0), len(names), func(i int) {
		out.Nodes[i] = nodeDump(names[i], d.Nodes[names[i]], d.AssumedPods, nominated[names[i]], profile)
	})
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
		Requested:                    model.ResourceOf(ni.Requested),
		NonZeroRequested:             model.NonZeroOf(ni.NonZeroRequested),
		Allocatable:                  model.ResourceOf(ni.Allocatable),
		UsedPorts:                    usedPorts(ni.UsedPorts),
		PodsWithAffinity:             podNames(ni.PodsWithAffinity),
		PodsWithRequiredAntiAffinity: podNames(ni.PodsWithRequiredAntiAffinity),
	}
	if len(ni.PVCRefCounts) > 0 {
		nd.PVCRefCounts = maps.Clone(ni.PVCRefCounts)
	}
	// Sized once: a PodDump is 200-odd bytes, and growing the slice pod by
	// pod was half the view's time at 150,000 pods.
	nd.Pods = make([]v1alpha1.PodDump, 0, len(ni.Pods))
	for _, pi := range ni.Pods {
		nd.Pods = append(nd.Pods, podDump(pi, assumed[string(pi.Pod.UID)], profile))
	}
	sortPodDumps(nd.Pods)
	for _, p := range nominated {
		nd.NominatedPods = append(nd.NominatedPods, podName(p))
	}
	if len(ni.ImageStates) > 0 {
		nd.ImageStates = make([]v1alpha1.ImageState, 0, len(ni.ImageStates))
	}
	for img, st := range ni.ImageStates {
		nd.ImageStates = append(nd.ImageStates, v1alpha1.ImageState{Name: img, Size: st.Size, NumNodes: st.NodeCount()})
	}
	sort.Slice(nd.ImageStates, func(i, j int) bool { return nd.ImageStates[i].Name < nd.ImageStates[j].Name })
	return nd
}

// sortPodDumps sorts pods by "namespace/name" (not by namespace, then
// name: "a-b/x" comes before "a/y"), comparing without building the keys.
func sortPodDumps(pods []v1alpha1.PodDump) {
	slices.SortFunc(pods, func(a, b v1alpha1.PodDump) int {
		if c := compareJoined(a.Namespace, a.Name, b.Namespace, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.UID, b.UID) // the same name twice: any fixed order
	})
}

// compareJoined compares a1+"/"+a2 with b1+"/"+b2 as strings.Compare would.
func compareJoined(a1, a2, b1, b2 string) int {
	if a1 == b1 {
		return strings.Compare(a2, b2)
	}
	// The keys differ within the longer first part, or where the shorter
	// one's "/" meets the longer one's next byte.
	n := min(len(a1), len(b1))
	if c := strings.Compare(a1[:n], b1[:n]); c != 0 {
		return c
	}
	x, y := byte('/'), byte('/')
	if len(a1) < len(b1) {
		y = b1[n]
	} else {
		x = a1[n]
	}
	if x == y { // a "/" within the longer part: never in a namespace
		return strings.Compare(a1+"/"+a2, b1+"/"+b2)
	}
	return cmp.Compare(x, y)
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
		Requested:         model.ResourceOf(&pi.Resource.Resource),
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
