package views

import (
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Snapshot takes a fresh Snapshot of m's cache, as a newly started scheduler
// would at its first cycle, and renders it. It fails with the cache's
// consistency error if the snapshot and the NodeTree disagree.
func Snapshot(m *model.Model) (*v1alpha1.Snapshot, error) {
	s := cache.NewEmptySnapshot()
	if err := m.Cache.UpdateSnapshot(s); err != nil {
		return nil, err
	}
	return SnapshotOf(s, m.Source), nil
}

// SnapshotOf renders a snapshot kept up to date by the caller (with
// Cache.UpdateSnapshot), as a running scheduler keeps its own.
func SnapshotOf(s *cache.Snapshot, source string) *v1alpha1.Snapshot {
	out := &v1alpha1.Snapshot{
		Source:                           source,
		Generation:                       s.Generation(),
		Nodes:                            []v1alpha1.SnapshotNode{},
		HavePodsWithAffinity:             nodeNames(s.HavePodsWithAffinityList()),
		HavePodsWithRequiredAntiAffinity: nodeNames(s.HavePodsWithRequiredAntiAffinityList()),
	}
	// kube-scheduler before v1.25 has no used-PVC set: null, not [].
	if s.UsedPVCSet() != nil {
		out.UsedPVCSet = sets.List(s.UsedPVCSet())
	}
	v1alpha1.SetKind(out, "Snapshot")
	for _, ni := range s.List() {
		out.Nodes = append(out.Nodes, v1alpha1.SnapshotNode{Name: ni.Node().Name, Zone: zoneOf(ni.Node()), Generation: ni.Generation, Pods: len(ni.Pods)})
	}
	return out
}

func nodeNames(nis []*cache.NodeInfo) []string {
	out := []string{}
	for _, ni := range nis {
		out = append(out, ni.Node().Name)
	}
	return out
}
