// Package model builds the scheduler-cache model of one cluster: it feeds
// loaded Nodes and Pods into a pkg/cache Cache in the order kube-scheduler's
// informers deliver them at startup, and keeps the unassigned (pending) pods
// that the cache never sees aside.
package model

import (
	"fmt"
	"io"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/load"
)

// Model is a cache built from a cluster, plus what the cache leaves out.
type Model struct {
	// Cache holds every node and every assigned, non-terminal pod as Added.
	Cache cache.Cache
	// Nodes are the node objects in list order (the NodeTree insertion order).
	Nodes []*v1.Node
	// Pods are every pod of the input in list order, assigned or not.
	Pods []*v1.Pod
	// Pending are the unassigned pods, in list order: the scheduler's queue,
	// not its cache, holds them.
	Pending []*v1.Pod
	// Refused are the assigned pods the cache refused to add, in list order,
	// with its error: the scheduler logs such an error and goes on without
	// the pod (e.g. a second pod with the UID of one already added).
	Refused []Refused
	// Source describes where the objects came from.
	Source string
}

// Refused is a pod the cache refused, and the error AddPod returned.
type Refused struct {
	Pod *v1.Pod
	Err error
}

// Build adds cluster's nodes (in list order, so the NodeTree matches a
// freshly started scheduler) and then every pod with spec.nodeName set, of any
// schedulerName and including terminating pods, to a new cache made with
// opts. A fresh generation counter is used unless opts sets one, so the same
// input always gives the same generations.
//
// A pod the cache refuses (AddPod fails, e.g. for a UID already added by
// another pod) is left out and recorded in Model.Refused, as kube-scheduler
// v1.36 logs "Scheduler cache AddPod failed" and goes on
// (pkg/scheduler/eventhandlers.go, addPodToCache): the first pod stays.
// The error is always nil; it is kept for callers that check it.
func Build(cluster *load.Cluster, opts cache.Options) (*Model, error) {
	if opts.Generations == nil {
		opts.Generations = &cache.GenerationCounter{}
	}
	m := &Model{Cache: cache.New(opts), Nodes: cluster.Nodes, Pods: cluster.Pods, Source: cluster.Source}
	for _, n := range cluster.Nodes {
		m.Cache.AddNode(n)
	}
	for _, p := range cluster.Pods {
		if p.Spec.NodeName == "" {
			m.Pending = append(m.Pending, p)
			continue
		}
		if err := m.Cache.AddPod(p); err != nil {
			m.Refused = append(m.Refused, Refused{Pod: p, Err: err})
		}
	}
	return m, nil
}

// WriteWarnings writes one warning line per refused pod, with the cache's
// error as the scheduler logs it, then a count when there were several.
func (m *Model) WriteWarnings(w io.Writer) {
	for _, r := range m.Refused {
		fmt.Fprintln(w, load.EscapeLine(fmt.Sprintf("warning: Scheduler cache AddPod failed for pod %q: %v; the pod is left out, as kube-scheduler does",
			r.Pod.Namespace+"/"+r.Pod.Name, r.Err)))
	}
	if n := len(m.Refused); n > 1 {
		fmt.Fprintf(w, "warning: %d pods refused by the cache\n", n)
	}
}

// NominatedPods maps node name to the pending pods nominated to it
// (status.nominatedNodeName), in list order.
func (m *Model) NominatedPods() map[string][]*v1.Pod {
	out := map[string][]*v1.Pod{}
	for _, p := range m.Pending {
		if n := p.Status.NominatedNodeName; n != "" {
			out[n] = append(out[n], p)
		}
	}
	return out
}
