package views

import (
	"math"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Spread is the mean, population standard deviation and maximum of
// values; all zero for none. It is the statistic ConfigComparison reports
// per resource, over the nodes' requested/allocatable ratios.
func Spread(values []float64) (mean, stdDev, maxValue float64) {
	if len(values) == 0 {
		return 0, 0, 0
	}
	maxValue = values[0]
	for _, v := range values {
		mean += v
		maxValue = max(maxValue, v)
	}
	mean /= float64(len(values))
	for _, v := range values {
		stdDev += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(stdDev / float64(len(values))), maxValue
}

// NodeFill is what ConfigOutcome reads of the nodes after placement: the
// schedulable nodes (a node object without spec.unschedulable; cordoned
// nodes, placeholders and ghosts are left out), their utilisation per
// resource, and how many hold a pod no DaemonSet owns.
func NodeFill(nodes []*cache.NodeInfo) (schedulable, used int, util []v1alpha1.ResourceUtilisation) {
	var cpu, mem, pods []float64
	for _, n := range nodes {
		if n.Node() == nil || n.Node().Spec.Unschedulable {
			continue
		}
		schedulable++
		if holdsWorkload(n) {
			used++
		}
		a := n.Allocatable
		if a.MilliCPU > 0 {
			cpu = append(cpu, float64(n.Requested.MilliCPU)/float64(a.MilliCPU))
		}
		if a.Memory > 0 {
			mem = append(mem, float64(n.Requested.Memory)/float64(a.Memory))
		}
		if a.AllowedPodNumber > 0 {
			pods = append(pods, float64(len(n.Pods))/float64(a.AllowedPodNumber))
		}
	}
	for _, r := range []struct {
		name   string
		ratios []float64
	}{{"cpu", cpu}, {"memory", mem}, {"pods", pods}} {
		mean, sd, mx := Spread(r.ratios)
		util = append(util, v1alpha1.ResourceUtilisation{Resource: r.name, Nodes: len(r.ratios), Mean: mean, StdDev: sd, Max: mx})
	}
	return schedulable, used, util
}

// holdsWorkload: some pod on n is not owned by a DaemonSet (DaemonSet pods
// run on every node whatever the configuration, so they do not make a
// node "used").
func holdsWorkload(n *cache.NodeInfo) bool {
	for _, pi := range n.Pods {
		if c := metav1.GetControllerOf(pi.Pod); c == nil || c.Kind != "DaemonSet" {
			return true
		}
	}
	return false
}
