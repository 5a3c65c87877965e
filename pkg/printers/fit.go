package printers

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// The width rule of every table on a terminal (TableOptions.MaxWidth):
//
//   - nothing is ever cut: names, namespaces and node names are what a
//     reader copies into the next command, and a message is the answer;
//   - a table wider than the terminal wraps its free-text columns
//     (Column.Text: messages, notes, errors, lists) at spaces and after
//     the commas of lists, each within its column, widest first and down
//     to minWrapWidth (a word wider than that, such as a UID in an error,
//     continues on the next line);
//   - a usage cell "requested/allocatable (pct)" (Column.Wrap: dump's and
//     requested's resource columns) may break before its percentage,
//     never inside a word;
//   - when that is not enough, each row becomes a block of "HEADER: value"
//     lines, as the detail views print one object (why POD); a table
//     with nothing to wrap (simulate's node table, images) keeps its
//     rows on one line each, which blocks would only lengthen;
//   - -o wide, --no-headers and output to a pipe or file are never fitted:
//     one row per line, as long as it takes.

// minWrapWidth is the narrowest a wrapped column gets.
const minWrapWidth = 20

// fitted is a table laid out for a width: its cells, each possibly
// holding several lines, or blocks when the columns cannot fit.
type fitted struct {
	cells  [][]string
	blocks bool
}

// fit lays out cells (colour marks kept) for maxWidth.
func (t *Table) fit(cells [][]string, maxWidth int) fitted {
	widths := make([]int, len(t.Columns))
	floors := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		widths[i] = twwidth.Width(c.Name)
		floors[i] = max(minWrapWidth, widths[i])
		if c.Wrap {
			floors[i] = widths[i]
		}
		for _, row := range cells {
			widths[i] = max(widths[i], twwidth.Width(plain(row[i])))
			if c.Wrap {
				floors[i] = max(floors[i], widestWord(plain(row[i])))
			}
		}
	}
	total := gap * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	if total <= maxWidth {
		return fitted{cells: cells}
	}
	limits := append([]int(nil), widths...)
	for total > maxWidth {
		widest := -1
		for i, c := range t.Columns {
			if c.Text && limits[i] > floors[i] && (widest < 0 || limits[i] > limits[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		limits[widest]--
		total--
	}
	// Then usage columns, each broken whole (every cell before its
	// percentage, not a ragged few), the one that saves most first.
	for total > maxWidth {
		most := -1
		for i, c := range t.Columns {
			if c.Wrap && limits[i] > floors[i] && (most < 0 || limits[i]-floors[i] > limits[most]-floors[most]) {
				most = i
			}
		}
		if most < 0 {
			return fitted{cells: cells, blocks: t.hasText()}
		}
		total -= limits[most] - floors[most]
		limits[most] = floors[most]
	}
	out := make([][]string, len(cells))
	for r, row := range cells {
		out[r] = append([]string(nil), row...)
		for i := range row {
			if limits[i] < widths[i] {
				out[r][i] = wrapMarked(row[i], limits[i])
			}
		}
	}
	return fitted{cells: out}
}

// hasText reports whether the table shows a column that wraps: free text
// or usage cells.
func (t *Table) hasText() bool {
	for _, c := range t.Columns {
		if c.Text || c.Wrap {
			return true
		}
	}
	return false
}

// widestWord is the width of s's widest piece (pieces).
func widestWord(s string) int {
	w := 0
	for _, p := range pieces(s) {
		w = max(w, twwidth.Width(p.text))
	}
	return w
}

// piece is a part of a text a line may break after: a word, or an item
// of a comma-separated list ("a,b" breaks after "a,"). space says a space
// comes before it.
type piece struct {
	text  string
	space bool
}

func pieces(s string) []piece {
	var out []piece
	for _, w := range strings.Fields(s) {
		for i, item := range strings.SplitAfter(w, ",") {
			if item != "" {
				out = append(out, piece{item, i == 0})
			}
		}
	}
	return out
}

// wrapMarked wraps s to width at spaces, one line per "\n"; a cell
// coloured as a whole keeps its colour on every line, any other mark is
// dropped (colour never spans lines of a table).
func wrapMarked(s string, width int) string {
	for _, mark := range []string{markRed, markGreen, markYellow} {
		inner, ok := strings.CutPrefix(s, mark)
		if ok && strings.HasSuffix(inner, markEnd) && !strings.ContainsAny(strings.TrimSuffix(inner, markEnd), markRed+markGreen+markYellow+markEnd) {
			lines := wrapWords(strings.TrimSuffix(inner, markEnd), width)
			for i, l := range lines {
				lines[i] = mark + l + markEnd
			}
			return strings.Join(lines, "\n")
		}
	}
	return strings.Join(wrapWords(plain(s), width), "\n")
}

// wrapWords breaks s at spaces, and after the commas of lists, into lines
// of at most width columns; a piece wider than width is broken into
// width-wide chunks.
func wrapWords(s string, width int) []string {
	var lines []string
	line, lineWidth := "", 0
	for _, p := range pieces(s) {
		sep := ""
		if p.space {
			sep = " "
		}
		pw := twwidth.Width(p.text)
		if pw > width {
			// A piece wider than the column (a UID in an error) is
			// broken across lines: the text wraps, nothing is dropped.
			if line != "" {
				lines = append(lines, line)
			}
			chunks := breakPiece(p.text, width)
			lines = append(lines, chunks[:len(chunks)-1]...)
			line = chunks[len(chunks)-1]
			lineWidth = twwidth.Width(line)
			continue
		}
		switch {
		case line == "":
			line, lineWidth = p.text, pw
		case lineWidth+len(sep)+pw <= width:
			line, lineWidth = line+sep+p.text, lineWidth+len(sep)+pw
		default:
			lines = append(lines, line)
			line, lineWidth = p.text, pw
		}
	}
	return append(lines, line)
}

// breakPiece splits s into chunks of at most width columns.
func breakPiece(s string, width int) []string {
	var chunks []string
	var cur strings.Builder
	w := 0
	for _, r := range s {
		rw := twwidth.Width(string(r))
		if w+rw > width && w > 0 {
			chunks = append(chunks, cur.String())
			cur.Reset()
			w = 0
		}
		cur.WriteRune(r)
		w += rw
	}
	return append(chunks, cur.String())
}

// renderBlocks prints each row as a block of "HEADER:  value" lines (none
// for an empty cell), a blank line between blocks; values wrap at spaces to the width left
// after the labels, continuation lines indented under the value.
func (t *Table) renderBlocks(w io.Writer, rows [][]string, maxWidth int, color bool) error {
	label := 0
	for _, c := range t.Columns {
		label = max(label, twwidth.Width(c.Name)+1)
	}
	label += 2
	valueWidth := max(minWrapWidth, maxWidth-label)
	for r, row := range rows {
		if r > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		for i, c := range t.Columns {
			if plain(row[i]) == "" {
				continue // an empty cell (no error, no note) says nothing
			}
			lines := strings.Split(wrapMarked(row[i], valueWidth), "\n")
			for j, l := range lines {
				head := ""
				if j == 0 {
					head = c.Name + ":"
				}
				line := strings.TrimRight(fmt.Sprintf("%-*s%s", label, head, paint(l, color)), " ")
				if _, err := fmt.Fprintln(w, line); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
