package printers

import (
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strings"
)

// sortRows orders the rows by the named column: text A to Z, numeric
// largest first, positions first to last (reverse flips each); ties keep the view's order. An
// empty name with reverse reverses the view's order.
func (t *Table) sortRows(name string, reverse bool) error {
	perm := make([]int, len(t.Rows))
	for i := range perm {
		perm[i] = i
	}
	if name == "" {
		for i, j := 0, len(perm)-1; i < j; i, j = i+1, j-1 {
			perm[i], perm[j] = perm[j], perm[i]
		}
	} else {
		c := t.column(name)
		if c < 0 {
			return fmt.Errorf("unknown column %q in --sort-by: valid columns are %s", name, strings.Join(t.ColumnNames(), ", "))
		}
		less := t.less(c)
		sort.SliceStable(perm, func(a, b int) bool {
			if reverse {
				return less(perm[b], perm[a])
			}
			return less(perm[a], perm[b])
		})
	}
	t.permute(perm)
	return nil
}

// less orders rows i and j by column c.
func (t *Table) less(c int) func(i, j int) bool {
	cell := func(r int) Cell {
		if c < len(t.Rows[r]) {
			return t.Rows[r][c]
		}
		return Cell{}
	}
	switch {
	case t.Columns[c].Numeric && t.Columns[c].Ascending:
		return func(i, j int) bool { return cell(i).Sort < cell(j).Sort }
	case t.Columns[c].Numeric:
		return func(i, j int) bool { return cell(i).Sort > cell(j).Sort }
	}
	return func(i, j int) bool { return plain(cell(i).Text) < plain(cell(j).Text) }
}

// permute puts rows (and items) in the order perm, and tells Reorder.
func (t *Table) permute(perm []int) {
	t.Rows = Permute(t.Rows, perm)
	if len(t.Items) == len(perm) {
		t.Items = Permute(t.Items, perm)
	}
	if len(t.Keys) == len(perm) {
		t.Keys = Permute(t.Keys, perm)
	}
	if len(t.Folds) == len(perm) {
		t.Folds = Permute(t.Folds, perm)
	}
	if t.Reorder != nil {
		t.Reorder(perm)
	}
}

// Permute returns a new slice holding s[perm[0]], s[perm[1]], …; Reorder
// functions use it so that pointers into the old slice stay valid.
func Permute[T any](s []T, perm []int) []T {
	out := make([]T, len(perm))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out
}

// RenderCSV writes the rows as CSV (RFC 4180) with a header line unless
// opts.NoHeaders: no colour, no truncation, no footer or summary lines, and
// each cell's exact CSV fields (integers in base units: millicores, bytes)
// where the table shows rounded quantities.
func (t *Table) RenderCSV(w io.Writer, opts TableOptions) error {
	cw := csv.NewWriter(w)
	if !opts.NoHeaders {
		var header []string
		for _, c := range t.Columns {
			if len(c.CSV) > 0 {
				header = append(header, c.CSV...)
			} else {
				header = append(header, c.Name)
			}
		}
		if err := cw.Write(header); err != nil {
			return err
		}
	}
	for _, row := range t.Rows {
		var rec []string
		for i, c := range t.Columns {
			rec = append(rec, csvFields(c, row, i)...)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvFields(c Column, row []Cell, i int) []string {
	n := max(1, len(c.CSV))
	var cell Cell
	if i < len(row) {
		cell = row[i]
	}
	if len(cell.CSV) == n {
		return cell.CSV
	}
	out := make([]string, n)
	if v := plain(cell.Text); v != none {
		// A table's <none> is an empty field: what is absent is no value.
		out[0] = v
	}
	return out
}

// none is kubectl's table cell for an absent value.
const none = "<none>"
