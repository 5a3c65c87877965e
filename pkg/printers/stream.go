package printers

import (
	"strings"
	"unicode/utf8"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// StreamTable prints a table in parts, as "kubectl get --watch" does: the
// header and first rows, then more rows later, all in the same columns. A
// column grows when a later cell is wider; earlier lines are not redrawn.
// Cells are escaped for the terminal and coloured like the other tables.
type StreamTable struct {
	header []string
	widths []int
}

// NewStreamTable returns a StreamTable with these column headers.
func NewStreamTable(header ...string) *StreamTable {
	t := &StreamTable{header: header, widths: make([]int, len(header))}
	t.fit(header)
	return t
}

// Columns returns the column headers.
func (t *StreamTable) Columns() []string { return t.header }

// Header renders the header line.
func (t *StreamTable) Header() string { return t.line(t.header) }

// Fit widens the columns to hold rows; call it before Header to print a
// whole table aligned.
func (t *StreamTable) Fit(rows [][]string) {
	for _, r := range escapeRows(rows) {
		t.fit(r)
	}
}

func escapeRows(rows [][]string) [][]string {
	escaped := make([][]string, len(rows))
	for i, r := range rows {
		escaped[i] = make([]string, len(r))
		for j, c := range r {
			escaped[i][j] = termtext.Line(c)
		}
	}
	return escaped
}

// Rows renders rows, one line each, widening columns to fit them first
// (a later row wider than the header shifts its own line only).
func (t *StreamTable) Rows(rows [][]string) string {
	escaped := escapeRows(rows)
	for _, r := range escaped {
		t.fit(r)
	}
	var b strings.Builder
	for _, r := range escaped {
		b.WriteString(t.line(r))
	}
	return b.String()
}

func (t *StreamTable) fit(cells []string) {
	for i, c := range cells {
		if i < len(t.widths) {
			t.widths[i] = max(t.widths[i], visibleWidth(c))
		}
	}
}

// line pads every cell but the last to its column, three blanks apart,
// and turns colour marks into ANSI sequences.
func (t *StreamTable) line(cells []string) string {
	var b strings.Builder
	for i, c := range cells {
		b.WriteString(c)
		if i < len(cells)-1 {
			b.WriteString(strings.Repeat(" ", t.widths[i]-visibleWidth(c)+3))
		}
	}
	b.WriteByte('\n')
	return ansi.Replace(b.String())
}

// visibleWidth counts runes, colour marks excluded.
func visibleWidth(s string) int {
	return utf8.RuneCountInString(s) - 2*strings.Count(s, markEnd)
}
