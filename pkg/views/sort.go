package views

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// ValidateSortKey checks a --sort-by value: "name", a resource name, or a
// resource name followed by "%".
func ValidateSortKey(key string) error {
	if key == "name" || isResourceKey(strings.TrimSuffix(key, "%")) {
		return nil
	}
	return fmt.Errorf("invalid --sort-by %q: use name, a resource (cpu, memory, ephemeral-storage, pods or a scalar resource such as nvidia.com/gpu), or a resource followed by %% (cpu%%)", key)
}

func isResourceKey(k string) bool {
	return k == "cpu" || k == "memory" || k == "ephemeral-storage" || k == "pods" || strings.Contains(k, "/") || strings.HasPrefix(k, "hugepages-")
}

// SortRequested orders the report's rows: by name ascending, or by the
// requested amount (or percentage with a trailing "%") of a resource,
// largest first, ties by name. It fails for a resource no row has.
func SortRequested(r *v1alpha1.RequestedReport, key string) error {
	if key == "" || key == "name" {
		return nil // rows are built in name order
	}
	res, pct := strings.TrimSuffix(key, "%"), strings.HasSuffix(key, "%")
	if !contains(r.Resources, res) {
		return fmt.Errorf("invalid --sort-by %q: no node has resource %q (have %s)", key, res, strings.Join(r.Resources, ", "))
	}
	value := func(n *v1alpha1.NodeRequested) float64 {
		req, alloc := n.Amounts(res)
		if !pct {
			return float64(req)
		}
		if alloc <= 0 {
			return 0
		}
		return float64(req) / float64(alloc)
	}
	sort.SliceStable(r.Nodes, func(i, j int) bool {
		vi, vj := value(&r.Nodes[i]), value(&r.Nodes[j])
		if vi != vj {
			return vi > vj
		}
		return r.Nodes[i].Name < r.Nodes[j].Name
	})
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
