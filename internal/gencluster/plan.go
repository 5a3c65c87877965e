package gencluster

import (
	"fmt"
	"sort"
)

// kind is the controller that owns a workload's pods.
type kind int

const (
	kindDeployment kind = iota
	kindStatefulSet
	kindJob
	kindBare // pods created directly (CI runners, debugging), no owner
	kindDaemonSet
)

// unit is a group of pods emitted together: a workload or a DaemonSet. Its
// name is chosen so that emitting units in name order, and each unit's pods
// in name order, lists pods sorted by name, as the API server does.
type unit struct {
	name     string
	kind     kind
	replicas int
	ds       dsKind // for kindDaemonSet
	system   bool   // kube-system add-on (coredns)
}

type namespacePlan struct {
	name  string
	units []unit
}

// Words for namespace and workload names. None is a prefix of another
// followed by "-<digit>", so name order of workloads equals name order of
// their pods (pod names are "<workload>-<suffix>").
var teamWords = []string{"ads", "billing", "catalog", "checkout", "data", "identity", "logistics", "media", "ml", "payments", "platform", "search", "shop", "support"}
var svcWords = []string{"api", "web", "worker", "gateway", "cache", "indexer", "scheduler", "consumer", "producer", "frontend", "backend", "sync", "exporter", "renderer", "notifier", "auth", "ledger", "feed", "router", "reporter"}

// dsPerNode decides how many DaemonSet pods (kube-proxy, CNI) every node
// gets: both when the pod budget allows, fewer for tiny budgets.
func dsPerNode(cfg Config) int {
	switch {
	case cfg.Nodes == 0:
		return 0
	case cfg.Pods >= 4*cfg.Nodes:
		return 2
	case cfg.Pods >= 2*cfg.Nodes:
		return 1
	}
	return 0
}

// plan splits the pod budget into DaemonSets and workloads, and the workloads
// into namespaces; everything comes back sorted by name.
func plan(g *rng, cfg Config) []namespacePlan {
	ds := dsPerNode(cfg)
	budget := cfg.Pods - ds*cfg.Nodes
	system := namespacePlan{name: "kube-system"}
	for k := 0; k < ds; k++ {
		system.units = append(system.units, unit{name: dsKinds[k].name, kind: kindDaemonSet, replicas: cfg.Nodes, ds: dsKinds[k]})
	}
	if dns := min(max(2, cfg.Nodes/50), 20, budget); dns > 0 && cfg.Nodes > 0 {
		system.units = append(system.units, unit{name: "coredns", kind: kindDeployment, replicas: dns, system: true})
		budget -= dns
	}

	nsCount := max(1, (budget+399)/400)
	namespaces := make([]namespacePlan, nsCount)
	for i := range namespaces {
		namespaces[i].name = fmt.Sprintf("%s-%02d", teamWords[i%len(teamWords)], i/len(teamWords))
	}
	for i := 0; budget > 0; i++ {
		u := randomUnit(g, i)
		if cfg.Shape == ShapeTemplates && u.kind != kindBare {
			u.replicas = templateReplicas(g)
		}
		u.replicas = min(u.replicas, budget)
		budget -= u.replicas
		ns := &namespaces[g.intN(nsCount)]
		ns.units = append(ns.units, u)
	}
	out := make([]namespacePlan, 0, len(namespaces)+1)
	out = append(out, namespaces...)
	out = append(out, system)
	for i := range out {
		sort.Slice(out[i].units, func(a, b int) bool { return out[i].units[a].name < out[i].units[b].name })
	}
	sort.Slice(out, func(a, b int) bool { return out[a].name < out[b].name })
	return out
}

// randomUnit draws a workload shape. The index makes the name unique.
func randomUnit(g *rng, i int) unit {
	name := fmt.Sprintf("%s-%05d", svcWords[g.intN(len(svcWords))], i)
	switch g.weighted([]int{72, 12, 12, 4}) {
	case 0:
		sizes := []int{1, 2, 3, 3, 5, 8, 10, 20, 50}
		return unit{name: name, kind: kindDeployment, replicas: sizes[g.weighted([]int{18, 25, 25, 0, 12, 6, 8, 4, 2})]}
	case 1:
		return unit{name: name, kind: kindStatefulSet, replicas: []int{1, 3, 5}[g.intN(3)]}
	case 2:
		return unit{name: name, kind: kindJob, replicas: g.between(1, 3)}
	}
	return unit{name: name, kind: kindBare, replicas: 1}
}
