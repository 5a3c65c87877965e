package printers

import (
	"fmt"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// The per-pod (requested --pods) and per-namespace (requested --by
// namespace) tables: one quantity column per resource (pods excepted), a
// RES-LIMITS column after it with --limits, NON-ZERO-CPU and
// NON-ZERO-MEMORY with -o wide, and a TOTAL footer summing the rows.

// amount is r's amount of one resource column (pods: allowed pod number).
func amount(r *v1alpha1.Resource, res string) int64 {
	switch res {
	case "cpu":
		return r.MilliCPU
	case "memory":
		return r.Memory
	case "ephemeral-storage":
		return r.EphemeralStorage
	case "pods":
		return r.AllowedPodNumber
	}
	return r.ScalarResources[res]
}

func nodesHaveLimits(r *v1alpha1.RequestedReport) bool {
	return len(r.Nodes) > 0 && r.Nodes[0].Limits != nil
}

// limitsUsageColumn is res's "limits/allocatable (pct%)" column of a node;
// its CSV fields are the limits and the percentage (the allocatable is the
// requested column's).
func limitsUsageColumn(res string) Column {
	up, unit := strings.ToUpper(res)+"-LIMITS", csvUnit(res)
	return Column{Name: up, Numeric: true, Wrap: true, CSV: []string{up + unit, up + "%"}}
}

// limitsUsageCell is a node's limits of res against allocatable.
func limitsUsageCell(res string, limits, alloc int64, q func(string, int64) string) Cell {
	c := usageCellIn(res, limits, alloc, q)
	c.CSV = []string{c.CSV[0], c.CSV[2]}
	return c
}

// podResources are the resources the pod and namespace tables give
// columns: those of the report but pods.
func podResources(r *v1alpha1.RequestedReport) []string {
	var out []string
	for _, res := range r.Resources {
		if res != "pods" {
			out = append(out, res)
		}
	}
	return out
}

// amountsRow is one row's requests, non-zero requests and limits (nil
// without --limits).
type amountsRow struct {
	requested v1alpha1.Resource
	nonZero   v1alpha1.NonZeroResource
	limits    *v1alpha1.Resource
}

func (a *amountsRow) add(b *amountsRow) {
	a.requested.Add(&b.requested)
	a.nonZero.Add(&b.nonZero)
	if b.limits != nil {
		if a.limits == nil {
			a.limits = &v1alpha1.Resource{}
		}
		a.limits.Add(b.limits)
	}
}

// amountColumns appends the resource columns of the pod and namespace
// tables to t.
func amountColumns(t *Table, r *v1alpha1.RequestedReport, opts TableOptions, limits bool) ([]string, error) {
	available := podResources(r)
	shown, order, err := resourceColumns(available, opts.Resources, defaultRequested)
	if err != nil {
		return nil, err
	}
	for _, name := range order {
		wide, hidden := resourceVisibility(shown, name, len(opts.Resources) > 0)
		c := quantityColumn(strings.ToUpper(name), name)
		c.Wide, c.Hidden = wide, hidden
		t.Columns = append(t.Columns, c)
		if limits {
			l := quantityColumn(strings.ToUpper(name)+"-LIMITS", name)
			l.Wide, l.Hidden = wide, hidden
			t.Columns = append(t.Columns, l)
		}
	}
	t.Columns = append(t.Columns, Column{Name: "NON-ZERO-CPU", Wide: true, Numeric: true, CSV: []string{"NON-ZERO-CPU" + csvUnit("cpu")}},
		Column{Name: "NON-ZERO-MEMORY", Wide: true, Numeric: true, CSV: []string{"NON-ZERO-MEMORY" + csvUnit("memory")}})
	return order, nil
}

// amountCells are a row's cells of the columns amountColumns added: "-"
// for a resource other than cpu and memory the row does not request, and
// for a limit no pod of the row sets. q renders the amounts (TotalQuantity
// for sums: TOTAL rows, namespaces).
func amountCells(a *amountsRow, resources []string, limits bool, q func(string, int64) string) []Cell {
	var row []Cell
	cell := func(res string, v int64) Cell {
		if v == 0 && res != "cpu" && res != "memory" {
			return dash()
		}
		return quantityCellIn(res, v, q)
	}
	for _, res := range resources {
		row = append(row, cell(res, amount(&a.requested, res)))
		if limits {
			// "-": no pod of the row sets a limit on res.
			lim := dash()
			if a.limits != nil && amount(a.limits, res) != 0 {
				lim = quantityCellIn(res, amount(a.limits, res), q)
			}
			row = append(row, lim)
		}
	}
	return append(row, quantityCellIn("cpu", a.nonZero.MilliCPU, q), quantityCellIn("memory", a.nonZero.Memory, q))
}

// RequestedPodsTable is the table of requested --pods: NAMESPACE, NAME,
// NODE and the pod's requests as the scheduler counts them on its node.
func RequestedPodsTable(r *v1alpha1.RequestedReport, opts TableOptions) (*Table, error) {
	limits := len(r.Pods) > 0 && r.Pods[0].Limits != nil
	t := &Table{Columns: []Column{{Name: "NAMESPACE"}, {Name: "NAME"}, {Name: "NODE"}}}
	order, err := amountColumns(t, r, opts, limits)
	if err != nil {
		return nil, err
	}
	var total amountsRow
	for i := range r.Pods {
		p := &r.Pods[i]
		a := amountsRow{requested: p.Requested, nonZero: p.NonZeroRequested, limits: p.Limits}
		total.add(&a)
		t.Rows = append(t.Rows, append([]Cell{text(p.Namespace), text(p.Name), text(p.Node)}, amountCells(&a, order, limits, Quantity)...))
		t.Items = append(t.Items, p)
		t.Keys = append(t.Keys, p.Namespace+"/"+p.Name)
	}
	t.Footer = [][]Cell{append([]Cell{text("TOTAL"), text(""), text("")}, amountCells(&total, order, limits, TotalQuantity)...)}
	t.Reorder = func(perm []int) { r.Pods = Permute(r.Pods, perm) }
	return t, nil
}

// RequestedNamespacesTable is the table of requested --by namespace:
// NAMESPACE, its PODS and the NODES they are on, and the sum of the pods'
// requests (sums over nodes: cpu in cores, as TOTAL rows).
func RequestedNamespacesTable(r *v1alpha1.RequestedReport, opts TableOptions) (*Table, error) {
	limits := len(r.Namespaces) > 0 && r.Namespaces[0].Limits != nil
	t := &Table{Columns: []Column{{Name: "NAMESPACE"}, {Name: "PODS", Numeric: true}, {Name: "NODES", Numeric: true}}}
	order, err := amountColumns(t, r, opts, limits)
	if err != nil {
		return nil, err
	}
	var total amountsRow
	pods := 0
	for i := range r.Namespaces {
		ns := &r.Namespaces[i]
		a := amountsRow{requested: ns.Requested, nonZero: ns.NonZeroRequested, limits: ns.Limits}
		total.add(&a)
		pods += ns.Pods
		t.Rows = append(t.Rows, append([]Cell{text(ns.Namespace), count(int64(ns.Pods)), count(int64(ns.Nodes))}, amountCells(&a, order, limits, TotalQuantity)...))
		t.Items = append(t.Items, ns)
		t.Keys = append(t.Keys, ns.Namespace)
	}
	t.Footer = [][]Cell{append([]Cell{text("TOTAL"), text(fmt.Sprintf("%d", pods)), text("")}, amountCells(&total, order, limits, TotalQuantity)...)}
	t.Reorder = func(perm []int) { r.Namespaces = Permute(r.Namespaces, perm) }
	return t, nil
}
