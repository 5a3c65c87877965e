package cache

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
)

// NodeInfo is the scheduler's aggregate view of one node (upstream
// framework.NodeInfo, v1.36). A NodeInfo whose Node() is nil is either a
// placeholder (pods arrived before their node) or a ghost (the node was
// removed while pods remained); both stay out of snapshots.
//
// NodeInfo is NOT thread-safe. Those returned by Dump and held by a Snapshot
// are clones owned by the caller.
type NodeInfo struct {
	node *v1.Node
	// ghost: a node object was removed while pods remained.
	ghost bool

	// Pods on the node, in the order the scheduler holds them.
	Pods []*PodInfo
	// PodsWithAffinity: pods with any pod affinity or anti-affinity.
	PodsWithAffinity []*PodInfo
	// PodsWithRequiredAntiAffinity: pods with a required anti-affinity term.
	PodsWithRequiredAntiAffinity []*PodInfo
	// UsedPorts is the set of host ports in use.
	UsedPorts HostPortInfo
	// Requested is the sum of the pods' requests. AllowedPodNumber stays 0:
	// the pod count is len(Pods).
	Requested *Resource
	// NonZeroRequested is the sum of the pods' cpu and memory requests with
	// 100m / 200Mi substituted for missing container requests; the scheduler
	// scores with it so that request-less pods do not pile up on one node.
	NonZeroRequested *Resource
	// Allocatable is node.status.allocatable; zero for placeholders.
	Allocatable *Resource
	// ImageStates maps every image name the node reports to its summary.
	ImageStates map[string]*ImageStateSummary
	// PVCRefCounts counts pods per "namespace/claim".
	PVCRefCounts map[string]int
	// Generation is bumped by every change so snapshots clone only what changed.
	Generation int64
}

func newNodeInfo(gen *GenerationCounter) *NodeInfo {
	return &NodeInfo{
		UsedPorts:        HostPortInfo{},
		Requested:        &Resource{},
		NonZeroRequested: &Resource{},
		Allocatable:      &Resource{},
		ImageStates:      map[string]*ImageStateSummary{},
		PVCRefCounts:     map[string]int{},
		Generation:       gen.Next(),
	}
}

// Node returns the node object, or nil for a placeholder or ghost.
func (n *NodeInfo) Node() *v1.Node { return n.node }

// IsPlaceholder reports a NodeInfo created for pods whose node object has
// never been seen. Upstream cannot tell it from a ghost; we track it for display.
func (n *NodeInfo) IsPlaceholder() bool { return n.node == nil && !n.ghost }

// IsGhost reports a NodeInfo whose node object was removed while pods remained.
func (n *NodeInfo) IsGhost() bool { return n.ghost }

// addPodInfo accounts pi on the node and bumps the generation.
func (n *NodeInfo) addPodInfo(pi *PodInfo, p *Profile, gen *GenerationCounter) {
	n.Pods = append(n.Pods, pi)
	if hasAffinity(pi.Pod) {
		n.PodsWithAffinity = append(n.PodsWithAffinity, pi)
	}
	if hasRequiredAntiAffinity(pi.Pod) {
		n.PodsWithRequiredAntiAffinity = append(n.PodsWithRequiredAntiAffinity, pi)
	}
	n.update(pi, 1, p, gen)
}

// removePod removes the pod with pod's UID. As upstream, the affinity lists
// are cleaned according to the argument's spec; from v1.33 the subtraction
// (requests, host ports, PVCs) uses the removed PodInfo and the resource it
// cached, before it recomputes everything from the argument, which may
// differ from what was added. nodeName is used in the error because a
// placeholder has no node object.
func (n *NodeInfo) removePod(pod *v1.Pod, nodeName string, p *Profile, gen *GenerationCounter) error {
	key := string(pod.UID)
	if hasAffinity(pod) {
		n.PodsWithAffinity, _ = removePodInfo(n.PodsWithAffinity, key)
	}
	if hasRequiredAntiAffinity(pod) {
		n.PodsWithRequiredAntiAffinity, _ = removePodInfo(n.PodsWithRequiredAntiAffinity, key)
	}
	var removed *PodInfo
	if n.Pods, removed = removePodInfo(n.Pods, key); removed == nil {
		return fmt.Errorf("no corresponding pod %s in pods of node %s", pod.Name, nodeName)
	}
	if !p.CachedPodResource {
		removed = newPodInfo(pod, p)
	}
	n.update(removed, -1, p, gen)
	return nil
}

// update adds (sign 1) or subtracts (sign -1) a pod's resource, host ports
// and PVC references.
func (n *NodeInfo) update(pi *PodInfo, sign int64, p *Profile, gen *GenerationCounter) {
	r := &pi.Resource.Resource
	n.Requested.MilliCPU += sign * r.MilliCPU
	n.Requested.Memory += sign * r.Memory
	n.Requested.EphemeralStorage += sign * r.EphemeralStorage
	for name, v := range r.ScalarResources {
		n.Requested.addScalar(name, sign*v)
	}
	n.NonZeroRequested.MilliCPU += sign * pi.Resource.NonZeroMilliCPU
	n.NonZeroRequested.Memory += sign * pi.Resource.NonZeroMemory
	for _, port := range p.HostPorts(pi.Pod) {
		if sign > 0 {
			n.UsedPorts.Add(port.HostIP, string(port.Protocol), port.HostPort)
		} else {
			n.UsedPorts.Remove(port.HostIP, string(port.Protocol), port.HostPort)
		}
	}
	for _, k := range p.pvcKeys(pi.Pod) {
		n.PVCRefCounts[k] += int(sign)
		if n.PVCRefCounts[k] <= 0 {
			delete(n.PVCRefCounts, k)
		}
	}
	n.Generation = gen.Next()
}

// setNode sets the node object and Allocatable, and bumps the generation.
func (n *NodeInfo) setNode(node *v1.Node, p *Profile, gen *GenerationCounter) {
	n.node = node
	n.ghost = false
	n.Allocatable = p.NewResource(node.Status.Allocatable)
	n.Generation = gen.Next()
}

// clearNode turns the NodeInfo into a ghost and bumps the generation.
func (n *NodeInfo) clearNode(gen *GenerationCounter) {
	n.node = nil
	n.ghost = true
	n.Generation = gen.Next()
}

// Clone returns the copy the scheduler hands to snapshots and dumps
// (SnapshotConcrete in v1.34+): resources, ports and PVC counts are copied;
// pod slices are new but share PodInfos; the node object is shared; image
// summaries are private copies with NumNodes counted now.
func (n *NodeInfo) Clone() *NodeInfo {
	c := &NodeInfo{
		node:             n.node,
		ghost:            n.ghost,
		UsedPorts:        n.UsedPorts.clone(),
		Requested:        n.Requested.Clone(),
		NonZeroRequested: n.NonZeroRequested.Clone(),
		Allocatable:      n.Allocatable.Clone(),
		ImageStates:      make(map[string]*ImageStateSummary, len(n.ImageStates)),
		PVCRefCounts:     make(map[string]int, len(n.PVCRefCounts)),
		Generation:       n.Generation,
	}
	if len(n.Pods) > 0 {
		c.Pods = append([]*PodInfo(nil), n.Pods...)
	}
	if len(n.PodsWithAffinity) > 0 {
		c.PodsWithAffinity = append([]*PodInfo(nil), n.PodsWithAffinity...)
	}
	if len(n.PodsWithRequiredAntiAffinity) > 0 {
		c.PodsWithRequiredAntiAffinity = append([]*PodInfo(nil), n.PodsWithRequiredAntiAffinity...)
	}
	for name, st := range n.ImageStates {
		c.ImageStates[name] = st.snapshotOrCopy()
	}
	for k, v := range n.PVCRefCounts {
		c.PVCRefCounts[k] = v
	}
	return c
}

// snapshotOrCopy counts nodes for a shared summary; a summary that is
// already a clone (no node set) is copied as is.
func (s *ImageStateSummary) snapshotOrCopy() *ImageStateSummary {
	if s.nodes == nil {
		return &ImageStateSummary{Size: s.Size, NumNodes: s.NumNodes}
	}
	return s.snapshot()
}
