package cache

import (
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"
)

// Options configure New.
type Options struct {
	// TTL is the assumed-pod TTL started by FinishBinding. 0 means never
	// expire from v1.25 on, and "expire at the first cleanup after binding
	// finished" before (see Behavior.ZeroTTLNeverExpires). The version's own
	// default is Profile.DefaultTTL.
	TTL time.Duration
	// Clock gives FinishBinding's "now". Default: the real clock.
	Clock clock.PassiveClock
	// Profile is the kube-scheduler version and feature gates modelled.
	// Default: DefaultProfile (v1.36).
	Profile *Profile
	// FeatureGates, if set, replace the profile's gates.
	FeatureGates *FeatureGates
	// Generations hands out NodeInfo generations. Default: the process-wide
	// counter, as upstream; pass a fresh one for reproducible generations.
	Generations *GenerationCounter
	// Observer, if set, receives every pod state change.
	Observer Observer
}

// podState is a cached pod; deadline and bindingFinished drive the
// v1.18–v1.35 expiry.
type podState struct {
	pod             *v1.Pod
	deadline        *time.Time
	bindingFinished bool
}

// nodeInfoListItem links NodeInfos in most-recently-changed order so
// UpdateSnapshot can stop at the first NodeInfo older than the snapshot.
type nodeInfoListItem struct {
	info       *NodeInfo
	next, prev *nodeInfoListItem
}

type cacheImpl struct {
	mu       sync.RWMutex
	ttl      time.Duration
	clock    clock.PassiveClock
	p        Profile
	gen      *GenerationCounter
	observer Observer
	// requests memoizes p.PodResource by the pod's request inputs.
	requests *requestsMemo
	// events collects transitions under the lock; see unlockAndNotify.
	events []Transition

	podStates   map[string]*podState
	assumedPods sets.Set[string]
	nodes       map[string]*nodeInfoListItem
	headNode    *nodeInfoListItem
	nodeTree    *NodeTree
	// treeOrders counts OrderNodeTree calls: a snapshot whose node list
	// was built before the last one rebuilds it.
	treeOrders  int
	imageStates map[string]*ImageStateSummary
	// nodeNumbers numbers every node name seen, for imageStates' sets.
	nodeNumbers map[string]uint32
}

var _ Cache = &cacheImpl{}

// New returns an empty cache configured by opts.
func New(opts Options) Cache {
	c := &cacheImpl{
		ttl:         opts.TTL,
		clock:       opts.Clock,
		gen:         opts.Generations,
		observer:    opts.Observer,
		p:           DefaultProfile(),
		podStates:   map[string]*podState{},
		assumedPods: sets.New[string](),
		nodes:       map[string]*nodeInfoListItem{},
		nodeTree:    NewNodeTree(nil),
		imageStates: map[string]*ImageStateSummary{},
		nodeNumbers: map[string]uint32{},
		requests:    newRequestsMemo(),
	}
	if c.clock == nil {
		c.clock = clock.RealClock{}
	}
	if c.gen == nil {
		c.gen = &processGenerations
	}
	if opts.Profile != nil {
		c.p = *opts.Profile
	}
	if opts.FeatureGates != nil {
		c.p.Gates = opts.FeatureGates.normalized(c.p.Version)
	}
	return c
}

// Profile implements Cache.
func (c *cacheImpl) Profile() Profile { return c.p }

// unlockAndNotify releases the write lock, then hands the transitions
// recorded under it to the observer, so an observer may call back into the
// cache without deadlocking.
func (c *cacheImpl) unlockAndNotify() {
	events := c.events
	c.events = nil
	c.mu.Unlock()
	if c.observer == nil {
		return
	}
	for _, t := range events {
		c.observer(t)
	}
}

// record notes a transition. The caller must hold the write lock.
func (c *cacheImpl) record(pod *v1.Pod, from, to PodState, cause string) {
	if c.observer != nil {
		c.events = append(c.events, Transition{Pod: pod, Node: pod.Spec.NodeName, From: from, To: to, Cause: cause})
	}
}

// moveNodeInfoToHead makes name the most recently changed NodeInfo. The
// caller must hold the write lock.
func (c *cacheImpl) moveNodeInfoToHead(name string) {
	item, ok := c.nodes[name]
	if !ok || item == c.headNode {
		return
	}
	c.unlink(item)
	item.next = c.headNode
	if c.headNode != nil {
		c.headNode.prev = item
	}
	c.headNode = item
}

// unlink detaches item from the recency list. The caller must hold the write lock.
func (c *cacheImpl) unlink(item *nodeInfoListItem) {
	if item.prev != nil {
		item.prev.next = item.next
	}
	if item.next != nil {
		item.next.prev = item.prev
	}
	if c.headNode == item {
		c.headNode = item.next
	}
	item.prev, item.next = nil, nil
}

// removeNodeInfoFromList deletes a NodeInfo entirely. The caller must hold
// the write lock.
func (c *cacheImpl) removeNodeInfoFromList(name string) {
	if item, ok := c.nodes[name]; ok {
		c.unlink(item)
		delete(c.nodes, name)
	}
}

// newItem creates and registers an empty NodeInfo at the list head. The
// caller must hold the write lock.
func (c *cacheImpl) newItem(name string) *nodeInfoListItem {
	item := &nodeInfoListItem{info: newNodeInfo(c.gen)}
	c.nodes[name] = item
	c.moveNodeInfoToHead(name)
	return item
}

// Dump implements Cache.
func (c *cacheImpl) Dump() *Dump {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d := c.newDump()
	for name, item := range c.nodes {
		d.Nodes[name] = item.info.Clone()
	}
	return d
}

// newDump returns a Dump holding a copy of the assumed pod keys and room for
// every NodeInfo. The caller must hold the lock.
func (c *cacheImpl) newDump() *Dump {
	d := &Dump{AssumedPods: make(map[string]bool, len(c.assumedPods)), Nodes: make(map[string]*NodeInfo, len(c.nodes))}
	for k := range c.assumedPods {
		d.AssumedPods[k] = true
	}
	return d
}

// Inspect implements Cache.
func (c *cacheImpl) Inspect(fn func(d *Dump)) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d := c.newDump()
	for name, item := range c.nodes {
		d.Nodes[name] = item.info
	}
	fn(d)
}

// GetNodeInfo implements Cache.
func (c *cacheImpl) GetNodeInfo(name string) (*NodeInfo, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	item, ok := c.nodes[name]
	if !ok {
		return nil, false
	}
	return item.info.Clone(), true
}

// GetNodeSummary implements Cache.
func (c *cacheImpl) GetNodeSummary(name string) (NodeSummary, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	item, ok := c.nodes[name]
	if !ok {
		return NodeSummary{}, false
	}
	ni := item.info
	s := NodeSummary{Requested: *ni.Requested, Allocatable: *ni.Allocatable, Pods: len(ni.Pods), Placeholder: ni.IsPlaceholder(), Ghost: ni.IsGhost()}
	s.Requested.ScalarResources, s.Allocatable.ScalarResources = nil, nil
	return s, true
}

// NodeTreeList implements Cache.
func (c *cacheImpl) NodeTreeList() ([]string, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.nodeTree.List()
}

// NodeCount implements Cache.
func (c *cacheImpl) NodeCount() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.nodes)
}

// PodCount implements Cache. It never fails; the error mirrors upstream's signature.
func (c *cacheImpl) PodCount() (int, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := 0
	for _, item := range c.nodes {
		n += len(item.info.Pods)
	}
	return n, nil
}
