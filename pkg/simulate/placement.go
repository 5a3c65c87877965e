package simulate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// place picks a node the way the v1.18 scheduler walked its NodeTree: up to
// NumNodes calls of the stateful Next(), taking the first node on which the
// pod fits by resources (NodeResourcesFit's checks only: no taints,
// selectors or affinity) against the cache as it is now, assumed pods
// included. It returns "" when no node fits, and the reasons of every node
// it skipped.
func (s *Simulator) place(req *cache.Resource) (string, []NodeReasons) {
	// One Dump per placement: the cache does not change while we look.
	dump := s.model.Cache.Dump()
	var skipped []NodeReasons
	for i, n := 0, s.tree.NumNodes(); i < n; i++ {
		name := s.tree.Next()
		reasons := []string{"node not in the cache"}
		if ni := dump.Nodes[name]; ni != nil && ni.Node() != nil {
			reasons = cache.InsufficientResources(req, ni)
		}
		if len(reasons) == 0 {
			return name, skipped
		}
		skipped = append(skipped, NodeReasons{Node: name, Reasons: reasons})
	}
	return "", skipped
}

// fitReasons is why a pod does not fit node by resources now; nil when
// it fits or the node has no node object (the cache would create a
// placeholder, which has nothing allocatable and is not checked).
func (s *Simulator) fitReasons(req *cache.Resource, node string) []string {
	ni := s.model.Cache.Dump().Nodes[node]
	if ni == nil || ni.Node() == nil {
		return nil
	}
	return cache.InsufficientResources(req, ni)
}

// unschedulableNote summarises why no node fits, in the scheduler's
// "0/N nodes are available" shape: each reason with the number of nodes
// it applies to, in reason order.
func unschedulableNote(skipped []NodeReasons, numNodes int) string {
	if numNodes == 0 {
		return "0/0 nodes are available: no nodes"
	}
	counts := map[string]int{}
	for _, s := range skipped {
		for _, r := range s.Reasons {
			counts[r]++
		}
	}
	reasons := make([]string, 0, len(counts))
	for r := range counts {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d %s", counts[r], r)
	}
	return fmt.Sprintf("0/%d nodes are available: %s", numNodes, strings.Join(parts, ", "))
}

// maxSkippedInNote bounds how many skipped nodes an assume note names.
const maxSkippedInNote = 3

// skippedNote names the nodes Next() offered before the chosen one, with
// why each did not fit; "" when the first node fit.
func skippedNote(skipped []NodeReasons) string {
	if len(skipped) == 0 {
		return ""
	}
	var parts []string
	for i, s := range skipped {
		if i == maxSkippedInNote {
			parts = append(parts, fmt.Sprintf("+%d more", len(skipped)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", s.Node, strings.Join(s.Reasons, ", ")))
	}
	return "skipped " + strings.Join(parts, ", ")
}
