package scaleup

import (
	"sort"

	v1 "k8s.io/api/core/v1"
)

// Waste is cluster-autoscaler's least-waste measure of growing a group
// by Nodes nodes for Pods (expander/waste): the share of the new nodes'
// cpu and memory capacity the pods leave unrequested.
type Waste struct {
	CPU, Memory float64
}

// Score is what least-waste minimises: the two shares added (0 to 2).
func (w Waste) Score() float64 { return w.CPU + w.Memory }

// WasteOf is the waste of count new nodes like node for pods, as
// cluster-autoscaler's least-waste expander computes it: the pods' cpu and
// memory requests, summed over their regular containers only (no init
// containers, sidecars or overhead), against count times the node's
// capacity (its status.capacity; allocatable when a hand-written node has
// no capacity). ok is false when count is not positive or the node has
// no cpu or memory.
func WasteOf(node *v1.Node, count int, pods []*v1.Pod) (w Waste, ok bool) {
	if count < 1 {
		return w, false
	}
	capacity := node.Status.Capacity
	if _, has := capacity[v1.ResourceCPU]; !has {
		capacity = node.Status.Allocatable
	}
	cpu, mem := capacity[v1.ResourceCPU], capacity[v1.ResourceMemory]
	availCPU, availMem := cpu.MilliValue()*int64(count), mem.Value()*int64(count)
	if availCPU <= 0 || availMem <= 0 {
		return w, false
	}
	var reqCPU, reqMem int64
	for _, p := range pods {
		for _, c := range p.Spec.Containers {
			if q, has := c.Resources.Requests[v1.ResourceCPU]; has {
				reqCPU += q.MilliValue()
			}
			if q, has := c.Resources.Requests[v1.ResourceMemory]; has {
				reqMem += q.Value()
			}
		}
	}
	return Waste{CPU: float64(availCPU-reqCPU) / float64(availCPU), Memory: float64(availMem-reqMem) / float64(availMem)}, true
}

// Option is one group that can take the pods, as the expander sees it.
type Option struct {
	Group string
	Waste Waste
}

// LeastWaste returns the options least-waste keeps: those of the lowest
// score, compared exactly as cluster-autoscaler compares them (float
// equality), sorted by group name. Several mean a tie, which
// cluster-autoscaler breaks at random. Empty when options is.
func LeastWaste(options []Option) []string {
	var best []string
	var bestScore float64
	for _, o := range options {
		s := o.Waste.Score()
		switch {
		case best == nil || s < bestScore:
			best, bestScore = []string{o.Group}, s
		case s == bestScore:
			best = append(best, o.Group)
		}
	}
	sort.Strings(best)
	return best
}
