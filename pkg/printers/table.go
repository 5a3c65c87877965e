// Package printers renders kubectl-schedcache's output kinds as kubectl-style
// tables: upper-case headers, no borders, left-aligned, three-space column
// gaps, every cluster-supplied string escaped for the terminal. tablewriter
// is used only here. JSON, YAML and templates go through cli-runtime's
// printers in pkg/cmd.
package printers

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	cliprinters "k8s.io/cli-runtime/pkg/printers"
)

// TableOptions are shared by every table printer.
type TableOptions struct {
	// Wide adds the -o wide columns.
	Wide bool
	// NoHeaders drops the header row (and summary lines).
	NoHeaders bool
	// Color allows ANSI colour; the caller enables it only on a terminal
	// without NO_COLOR.
	Color bool
	// Scalars are scalar resource columns -o wide shows in any case, besides
	// those with a non-zero amount on some node of the view (dump): a
	// watch keeps its columns while it prints a few nodes at a time.
	Scalars []string
}

// table accumulates rows and renders them kubectl-style.
type table struct {
	header []string
	rows   [][]string
}

func newTable(header ...string) *table { return &table{header: header} }

// add appends a row; cells are escaped for the terminal.
func (t *table) add(cells ...string) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = ansi.Replace(cliprinters.EscapeTerminal(c))
	}
	t.rows = append(t.rows, row)
}

// render writes the table, without the header row when noHeaders is set.
func (t *table) render(w io.Writer, noHeaders bool) error {
	var buf bytes.Buffer
	cell := tw.CellConfig{
		Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
		Formatting: tw.CellFormatting{AutoFormat: tw.Off, AutoWrap: tw.WrapNone},
		Padding:    tw.CellPadding{Global: tw.Padding{Left: "", Right: "   ", Overwrite: true}},
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
	if noHeaders {
		if len(t.rows) == 0 {
			return nil
		}
	} else {
		tbl.Header(t.header)
	}
	for _, r := range t.rows {
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
