package gencluster

// placer assigns pods to nodes, keeping per-node free resources so that
// nodes stay within their allocatable (and always within their pod limit).
type placer struct {
	nodes   []*nodeState
	byClass map[nodeClass][]int // schedulable nodes of each class
}

func newPlacer(nodes []*nodeState) *placer {
	p := &placer{nodes: nodes, byClass: map[nodeClass][]int{}}
	for i, n := range nodes {
		if !n.cordoned {
			p.byClass[n.class] = append(p.byClass[n.class], i)
		}
	}
	return p
}

// tries is how many random nodes are probed before relaxing cpu and memory.
// Random probing keeps placement O(1) per pod and spreads pods evenly.
const tries = 12

// place picks a node for a pod with the given needs, or returns -1 when no
// node has a free pod slot (and GPU/hugepages/port room). used holds the
// nodes already taken by the workload when it has required anti-affinity.
func (p *placer) place(g *rng, r request, class nodeClass, ports []int32, used map[int]bool) int {
	cands := p.byClass[class]
	if len(cands) == 0 {
		return -1
	}
	hard := func(i int) bool { return p.hardFit(i, r, ports, used) }
	for k := 0; k < tries; k++ {
		i := cands[g.intN(len(cands))]
		if hard(i) && p.nodes[i].freeCPU >= r.cpu && p.nodes[i].freeMem >= r.mem {
			return p.commit(i, r, ports)
		}
	}
	// Most pods fit above. For the rest, accept a node that is full on cpu
	// or memory: real clusters are sometimes over-committed too.
	for k := 0; k < tries; k++ {
		if i := cands[g.intN(len(cands))]; hard(i) {
			return p.commit(i, r, ports)
		}
	}
	start := g.intN(len(cands))
	for k := range cands {
		if i := cands[(start+k)%len(cands)]; hard(i) {
			return p.commit(i, r, ports)
		}
	}
	return -1
}

// hardFit checks what must never be violated: the pod count, extended
// resources, host ports and required anti-affinity.
func (p *placer) hardFit(i int, r request, ports []int32, used map[int]bool) bool {
	n := p.nodes[i]
	if n.freePods < 1 || n.freeGPU < r.gpu || n.freeHugepages < r.hp || used[i] {
		return false
	}
	for _, port := range ports {
		if n.hostPorts[port] {
			return false
		}
	}
	return true
}

func (p *placer) commit(i int, r request, ports []int32) int {
	n := p.nodes[i]
	n.freePods--
	n.freeCPU -= r.cpu
	n.freeMem -= r.mem
	n.freeGPU -= r.gpu
	n.freeHugepages -= r.hp
	if len(ports) > 0 {
		if n.hostPorts == nil {
			n.hostPorts = map[int32]bool{}
		}
		for _, port := range ports {
			n.hostPorts[port] = true
		}
	}
	return i
}

// anyNode returns a random node index, for pods that do not consume node
// resources any more (Succeeded and Failed pods).
func (p *placer) anyNode(g *rng) int {
	if len(p.nodes) == 0 {
		return -1
	}
	return g.intN(len(p.nodes))
}
