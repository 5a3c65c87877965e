// Package model builds the scheduler-cache model of one cluster: it feeds
// loaded Nodes and Pods into a pkg/cache Cache in the order kube-scheduler's
// informers deliver them at startup, and keeps the unassigned (pending) pods
// that the cache never sees aside.
package model

import (
	"fmt"

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
	// Pending are the unassigned pods, in list order: the scheduler's queue,
	// not its cache, holds them.
	Pending []*v1.Pod
	// Source describes where the objects came from.
	Source string
}

// Build adds cluster's nodes (in list order, so the NodeTree matches a
// freshly started scheduler) and then every pod with spec.nodeName set, of any
// schedulerName and including terminating pods, to a new cache made with
// opts. A fresh generation counter is used unless opts sets one, so the same
// input always gives the same generations.
//
// It returns an error naming the pod if the cache refuses one (duplicate UID).
func Build(cluster *load.Cluster, opts cache.Options) (*Model, error) {
	if opts.Generations == nil {
		opts.Generations = &cache.GenerationCounter{}
	}
	m := &Model{Cache: cache.New(opts), Nodes: cluster.Nodes, Source: cluster.Source}
	for _, n := range cluster.Nodes {
		m.Cache.AddNode(n)
	}
	for _, p := range cluster.Pods {
		if p.Spec.NodeName == "" {
			m.Pending = append(m.Pending, p)
			continue
		}
		if err := m.Cache.AddPod(p); err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
	}
	return m, nil
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
