package printers

import (
	"fmt"
	"slices"
	"strings"
)

// Resource columns show "requested/allocatable (pct%)" of one resource, as
// kubectl describe node's "Allocated resources" does; their CSV fields are
// the exact requested and allocatable amounts and the percentage.

// csvUnit is the unit a resource's exact CSV amounts are in.
func csvUnit(res string) string {
	switch {
	case res == "cpu":
		return "(millicores)"
	case isByteResource(res):
		return "(bytes)"
	}
	return ""
}

func isByteResource(res string) bool {
	return res == "memory" || res == "ephemeral-storage" || strings.HasPrefix(res, "hugepages-")
}

// usageColumn is resource res's "requested/allocatable (pct%)" column; it
// sorts by the requested amount, and on a narrow terminal breaks before
// the percentage.
func usageColumn(res string) Column {
	up, unit := strings.ToUpper(res), csvUnit(res)
	return Column{Name: up, Numeric: true, Wrap: true, CSV: []string{up + "-REQUESTED" + unit, up + "-ALLOCATABLE" + unit, up + "%"}}
}

// usageCell renders requested of allocatable, coloured by the scheme; "-"
// for a resource the node neither has nor uses (pods always show).
func usageCell(res string, req, alloc int64) Cell { return usageCellIn(res, req, alloc, Quantity) }

// usageCellIn is usageCell with quantities rendered by q (TotalQuantity
// for TOTAL rows).
func usageCellIn(res string, req, alloc int64, q func(string, int64) string) Cell {
	pct := ""
	if alloc > 0 {
		pct = fmt.Sprintf("%d", req*100/alloc)
	}
	c := Cell{Sort: float64(req), CSV: []string{fmt.Sprintf("%d", req), fmt.Sprintf("%d", alloc), pct}}
	if req == 0 && alloc == 0 && res != "pods" {
		c.Text = "-"
		return c
	}
	c.Text = usageColor(fmt.Sprintf("%s/%s (%s)", q(res, req), q(res, alloc), Percent(req, alloc)), req, alloc)
	return c
}

// markOverflow is the one overflow mark of every table: the cell of a
// resource in over (the resources whose numbers kube-scheduler's int64
// arithmetic wraps: model.NodeOverflows, model.PodOverflows) gets a red
// "overflow" after its number, which stays the scheduler's wrapped one.
func markOverflow(c Cell, res string, over []string) Cell {
	if slices.Contains(over, res) {
		c.Text += " " + red("overflow")
	}
	return c
}

// overflowText is markOverflow for tables of plain text cells.
func overflowText(s, res string, over []string) string {
	if slices.Contains(over, res) {
		return s + " overflow"
	}
	return s
}

// percentColumn is res's percentage of allocatable alone ("CPU%"): for
// --sort-by cpu% and --columns, never shown by default.
func percentColumn(res string) Column {
	return Column{Name: strings.ToUpper(res) + "%", Hidden: true, Numeric: true}
}

func percentCell(req, alloc int64) Cell {
	c := Cell{Text: Percent(req, alloc)}
	if alloc > 0 {
		c.Sort = float64(req) / float64(alloc)
		c.CSV = []string{fmt.Sprintf("%d", req*100/alloc)}
	} else {
		c.CSV = []string{""}
	}
	c.Text = usageColor(c.Text, req, alloc)
	return c
}

// quantityColumn is a column of amounts of res (free, non-zero requested).
func quantityColumn(name, res string) Column {
	return Column{Name: name, Numeric: true, CSV: []string{name + csvUnit(res)}}
}

// quantityCell is an amount of res; negative amounts are red.
func quantityCell(res string, v int64) Cell { return quantityCellIn(res, v, Quantity) }

// quantityCellIn is quantityCell with the amount rendered by q.
func quantityCellIn(res string, v int64, q func(string, int64) string) Cell {
	c := Cell{Text: q(res, v), Sort: float64(v), CSV: []string{fmt.Sprintf("%d", v)}}
	if v < 0 {
		c.Text = red(c.Text)
	}
	return c
}

// dash is an empty numeric cell.
func dash() Cell { return Cell{Text: "-", CSV: []string{""}} }

// selectResources returns the resources given columns: wanted (any case,
// in the user's order) or, when wanted is empty, the available ones that
// def accepts. A wanted resource that is not available is an error listing
// the available ones.
// resourceColumns is selectResources for a table: the resources shown, and
// the order of their columns (the user's when given, else the available
// ones, the others hidden or wide).
func resourceColumns(available, wanted []string, def func(string) bool) (shown map[string]bool, order []string, err error) {
	res, err := selectResources(available, wanted, def)
	if err != nil {
		return nil, nil, err
	}
	order = res
	if len(wanted) == 0 {
		order = available
	}
	return setOfStrings(res), order, nil
}

func selectResources(available, wanted []string, def func(string) bool) ([]string, error) {
	if len(wanted) == 0 {
		var out []string
		for _, r := range available {
			if def(r) {
				out = append(out, r)
			}
		}
		return out, nil
	}
	out := make([]string, 0, len(wanted))
	for _, w := range wanted {
		found := ""
		for _, r := range available {
			if strings.EqualFold(r, strings.TrimSpace(w)) {
				found = r
			}
		}
		if found == "" {
			return nil, fmt.Errorf("unknown resource %q in --resources: valid resources are %s", w, strings.Join(available, ", "))
		}
		out = append(out, found)
	}
	return out, nil
}

// isExtended reports an extended resource (a domain-prefixed name such as
// nvidia.com/gpu), shown by default where the node has or uses it.
func isExtended(res string) bool { return strings.Contains(res, "/") }

// resourceVisibility places the columns of a resource: default when shown,
// wide when only -o wide shows it, hidden when --resources leaves it out.
func resourceVisibility(shown map[string]bool, res string, chosen bool) (wide, hidden bool) {
	switch {
	case shown[res]:
		return false, false
	case chosen:
		return false, true
	}
	return true, false
}

func setOfStrings(items []string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, it := range items {
		m[it] = true
	}
	return m
}
