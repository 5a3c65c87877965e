// Package printers renders kubectl-schedcache's output kinds as kubectl-style
// tables: upper-case headers, no borders, left-aligned, three-space column
// gaps, every cluster-supplied string escaped for the terminal. tablewriter
// is used only here. JSON, YAML and templates go through cli-runtime's
// printers in pkg/cmd.
//
// Each kind's one-row-per-object view is a Table: its columns (default,
// -o wide, or only on request), its rows, and how to sort them. Arrange
// applies the user's --columns, --sort-by and --reverse; Render prints it as
// a table (fitted to a terminal's width by wrapping, never cut) and
// RenderCSV as CSV.
package printers

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// TableOptions are shared by every table printer.
type TableOptions struct {
	// Wide adds the -o wide columns.
	Wide bool
	// NoHeaders drops the header row, the TOTAL row and summary lines.
	NoHeaders bool
	// Color allows ANSI colour; the caller enables it only on a terminal
	// without NO_COLOR.
	Color bool
	// Columns, when set, are the columns to show, in this order: header
	// names, any case (--columns).
	Columns []string
	// SortBy is the column rows are sorted by (--sort-by); "" keeps the
	// view's own order. Text columns sort A to Z, numeric columns largest
	// first, as kubectl top does; Reverse flips either.
	SortBy  string
	Reverse bool
	// Resources, when set, are the resources given resource columns
	// (--resources), for the kinds that have them (requested, dump).
	Resources []string
	// MaxWidth, when positive, is the terminal's width: tables wider than
	// that wrap their free-text columns or print a block per row (fit.go);
	// nothing is cut. Set only when stdout is a terminal.
	MaxWidth int
	// Table asks for the one-row-per-object table even where the kind
	// prints detail blocks by default (dump --node, why POD).
	Table bool
	// PodNamespace, when set, is the namespace whose pods detail blocks
	// list (-n); totals stay the whole node's.
	PodNamespace string
	// Scalars are scalar resource columns -o wide shows in any case, besides
	// those with a non-zero amount on some node of the view (dump): a
	// watch keeps its columns while it prints a few nodes at a time.
	Scalars []string
}

// Column is one column of a Table.
type Column struct {
	// Name is the header, upper case; --columns and --sort-by name it in any case.
	Name string
	// Wide columns are shown with -o wide; Hidden ones only when --columns names them.
	Wide, Hidden bool
	// Numeric columns sort by Cell.Sort, largest first, or smallest first
	// when Ascending (positions: #, ROUND, TIME).
	Numeric, Ascending bool
	// Text columns (messages, notes, errors, lists) wrap at spaces to fit
	// MaxWidth; other columns (names, quantities) are never broken.
	Text bool
	// Wrap columns (usage cells, "45100m/47810m (94%)") may break at
	// their spaces to fit MaxWidth, never inside a word.
	Wrap bool
	// CSV are the column's CSV header fields (default: Name); a column
	// showing "requested/allocatable (pct)" has three.
	CSV []string
}

// Cell is one table cell.
type Cell struct {
	// Text is what the table shows, escaped for the terminal, possibly
	// wrapped in a colour mark.
	Text string
	// Sort is the value a Numeric column sorts by.
	Sort float64
	// CSV are the cell's CSV fields (default: Text without colour),
	// one per Column.CSV field: exact integers in base units.
	CSV []string
}

// Table is a kind's one-row-per-object view.
type Table struct {
	Columns []Column
	Rows    [][]Cell
	// Footer rows (TOTAL) follow the rows, never sorted; dropped with
	// NoHeaders and in CSV.
	Footer [][]Cell
	// Before and After are lines around the table (generation, summary);
	// dropped with NoHeaders and in CSV.
	Before, After []string
	// Items are the row objects, parallel to Rows, that -o custom-columns
	// evaluates its JSONPath expressions on (pointers to API structs).
	Items []any
	// Keys name the rows, parallel to Rows (node names), for --watch,
	// which prints only the rows of changed nodes.
	Keys []string
	// Reorder, when set, puts the printed object's own list in the order
	// of Arrange's sort: perm[i] is the original index of row i.
	Reorder func(perm []int)
	// Folds, when set, is parallel to Rows: a row with a non-empty
	// Folds[i] only repeats what the other rows say (a drain's "other
	// pods block the drain"). A table printed for reading (Render with
	// headers) leaves those rows out and prints one line per distinct
	// value after the rows, FoldLine(value, n), n the rows it stands for,
	// in the order the values first appear. CSV, custom columns, the
	// structured formats and --no-headers keep every row.
	Folds    []string
	FoldLine func(value string, n int) string
}

// newTable returns a Table of plain text columns.
func newTable(header ...string) *Table {
	t := &Table{}
	for _, h := range header {
		t.Columns = append(t.Columns, Column{Name: h})
	}
	return t
}

// add appends a row of text cells; cells are escaped for the terminal.
func (t *Table) add(cells ...string) {
	row := make([]Cell, len(cells))
	for i, c := range cells {
		row[i] = text(c)
	}
	t.Rows = append(t.Rows, row)
}

// text is a text cell, escaped for the terminal.
func text(s string) Cell { return Cell{Text: termtext.Line(s)} }

// count is a numeric cell for an integer.
func count(n int64) Cell { return Cell{Text: fmt.Sprintf("%d", n), Sort: float64(n)} }

// ColumnNames lists the names --columns and --sort-by accept, in table order.
func (t *Table) ColumnNames() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

func (t *Table) column(name string) int {
	for i, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// Arrange sorts the rows by opts.SortBy (calling Reorder with the order)
// and keeps the columns of opts.Columns, or the default (or wide) set. An
// unknown column is an error listing the valid ones.
func (t *Table) Arrange(opts TableOptions) error {
	if opts.SortBy != "" || opts.Reverse {
		if err := t.sortRows(opts.SortBy, opts.Reverse); err != nil {
			return err
		}
	}
	keep, err := t.selected(opts)
	if err != nil {
		return err
	}
	t.keepColumns(keep)
	return nil
}

// selected returns the indexes of the columns to show.
func (t *Table) selected(opts TableOptions) ([]int, error) {
	var keep []int
	if len(opts.Columns) == 0 {
		for i, c := range t.Columns {
			if !c.Hidden && (!c.Wide || opts.Wide) {
				keep = append(keep, i)
			}
		}
		return keep, nil
	}
	for _, name := range opts.Columns {
		i := t.column(strings.TrimSpace(name))
		if i < 0 {
			return nil, fmt.Errorf("unknown column %q in --columns: valid columns are %s", name, strings.Join(t.ColumnNames(), ", "))
		}
		keep = append(keep, i)
	}
	return keep, nil
}

func (t *Table) keepColumns(keep []int) {
	pick := func(row []Cell) []Cell {
		out := make([]Cell, len(keep))
		for j, i := range keep {
			if i < len(row) {
				out[j] = row[i]
			}
		}
		return out
	}
	cols := make([]Column, len(keep))
	for j, i := range keep {
		cols[j] = t.Columns[i]
	}
	t.Columns = cols
	for r := range t.Rows {
		t.Rows[r] = pick(t.Rows[r])
	}
	for r := range t.Footer {
		t.Footer[r] = pick(t.Footer[r])
	}
}

// header returns the header row.
func (t *Table) header() []string {
	h := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		h[i] = c.Name
	}
	return h
}

// Render writes the table: Before lines, header, rows, footer rows, After
// lines; only the rows with NoHeaders. Colour marks become ANSI colour
// with opts.Color and are dropped otherwise. With opts.MaxWidth (a
// terminal), a table wider than that is fitted by the width rule (fit.go):
// free-text columns wrap, or else each row becomes a block; nothing is cut.
func (t *Table) Render(w io.Writer, opts TableOptions) error {
	rows, after := t.Rows, t.After
	if !opts.NoHeaders {
		var folded []string
		rows, folded = t.fold()
		rows = append(rows, t.Footer...)
		after = append(append([]string(nil), folded...), t.After...)
	}
	lines := make([][]string, len(rows))
	for r, row := range rows {
		lines[r] = make([]string, len(t.Columns))
		for i := range t.Columns {
			if i < len(row) {
				lines[r][i] = row[i].Text
			}
		}
	}
	if !opts.NoHeaders {
		if err := writeLines(w, t.Before); err != nil {
			return err
		}
	}
	if opts.MaxWidth > 0 && !opts.Wide && !opts.NoHeaders && len(t.Columns) > 0 {
		f := t.fit(lines, opts.MaxWidth)
		if f.blocks {
			if err := t.renderBlocks(w, lines, opts.MaxWidth, opts.Color); err != nil {
				return err
			}
			if len(after) > 0 && after[0] != "" {
				// The summary apart from the last block.
				after = append([]string{""}, after...)
			}
			return writeLines(w, after)
		}
		lines = f.cells
	}
	for _, l := range lines {
		for i := range l {
			l[i] = paint(l[i], opts.Color)
		}
	}
	if err := renderGrid(w, t.header(), lines, opts.NoHeaders); err != nil {
		return err
	}
	if opts.NoHeaders {
		return nil
	}
	return writeLines(w, after)
}

// fold returns the rows a table for reading prints and the lines that
// stand for the folded ones (Folds).
func (t *Table) fold() ([][]Cell, []string) {
	if len(t.Folds) != len(t.Rows) || t.FoldLine == nil {
		return append([][]Cell(nil), t.Rows...), nil
	}
	var rows [][]Cell
	var values []string
	n := map[string]int{}
	for i, row := range t.Rows {
		v := t.Folds[i]
		if v == "" {
			rows = append(rows, row)
			continue
		}
		if n[v] == 0 {
			values = append(values, v)
		}
		n[v]++
	}
	lines := make([]string, len(values))
	for i, v := range values {
		lines[i] = t.FoldLine(v, n[v])
	}
	return rows, lines
}

func writeLines(w io.Writer, lines []string) error {
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// gap is the space between columns, as kubectl's tabwriter leaves.
const gap = 3

// renderGrid lays out header and rows kubectl-style with tablewriter.
func renderGrid(w io.Writer, header []string, rows [][]string, noHeaders bool) error {
	if len(header) == 0 || noHeaders && len(rows) == 0 {
		return nil
	}
	var buf bytes.Buffer
	cell := tw.CellConfig{
		Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
		Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
		Padding:    tw.CellPadding{Global: tw.Padding{Left: "", Right: strings.Repeat(" ", gap), Overwrite: true}},
	}
	tbl := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenRows: tw.Off, BetweenColumns: tw.Off, ShowHeader: tw.Off, ShowFooter: tw.Off},
				Lines:      tw.Lines{ShowTop: tw.Off, ShowBottom: tw.Off, ShowHeaderLine: tw.Off, ShowFooterLine: tw.Off},
			},
		})),
		tablewriter.WithConfig(tablewriter.Config{Header: cell, Row: cell}),
	)
	if !noHeaders {
		tbl.Header(header)
	}
	for _, r := range rows {
		if err := tbl.Append(r); err != nil {
			return err
		}
	}
	if err := tbl.Render(); err != nil {
		return err
	}
	return writeTrimmed(w, buf.String())
}

// trailing matches the padding tablewriter leaves after the last column,
// including the colour reset it repeats after that padding.
var trailing = regexp.MustCompile(`(?: |\x1b\[0m)+$`)

// writeTrimmed drops trailing padding of each line, as kubectl's tabwriter
// does not pad the last column, keeping a colour reset when the line has colour.
func writeTrimmed(w io.Writer, s string) error {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, line := range lines {
		trimmed := trailing.ReplaceAllString(line, "")
		if strings.Contains(trimmed, "\x1b[") && !strings.HasSuffix(trimmed, "\x1b[0m") {
			trimmed += "\x1b[0m"
		}
		lines[i] = trimmed
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// escape neutralises terminal control sequences in cluster-supplied text.
func escape(s string) string { return termtext.Line(s) }

// Lines returns an arranged table as text cells, for printers that lay out
// rows themselves (StreamTable): the header, each row's key ("" for footer
// rows, which come last unless NoHeaders) and the cells, colour marks kept
// with opts.Color and dropped without.
func (t *Table) Lines(opts TableOptions) (header, keys []string, rows [][]string) {
	cell := func(c Cell) string {
		if opts.Color {
			return c.Text
		}
		return plain(c.Text)
	}
	add := func(key string, row []Cell) {
		line := make([]string, len(t.Columns))
		for i := range t.Columns {
			if i < len(row) {
				line[i] = cell(row[i])
			}
		}
		keys = append(keys, key)
		rows = append(rows, line)
	}
	for i, row := range t.Rows {
		key := ""
		if i < len(t.Keys) {
			key = t.Keys[i]
		}
		add(key, row)
	}
	if !opts.NoHeaders {
		for _, row := range t.Footer {
			add("", row)
		}
	}
	return t.header(), keys, rows
}
