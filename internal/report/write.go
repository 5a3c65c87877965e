package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"time"
)

var (
	//go:embed page.html.tmpl
	pageTemplate string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string

	page = template.Must(template.New("report").Parse(pageTemplate))
)

// data is what the template renders.
type data struct {
	Source, Generated, Version, Decisions, Config string
	Counts                                        []count
	Warnings                                      []string
	Resources                                     []resource
	Legend                                        []legendKey
	Big                                           bool
	Zones                                         []zoneGroup
	Pending                                       []pendingRow
	Chart                                         chart
	Order                                         orderPicture
	Table                                         []tableRow
	// ZonesHTML and TableHTML are Zones and Table rendered by the
	// sub-templates "zones" and "table" (Write).
	ZonesHTML, TableHTML template.HTML
	WhatIf               *WhatIf
	ScaleDown            *scaleDownSummary
	// CSS, BucketCSS and JS are the page's own constants and rules built
	// from indices alone: trusted, never input.
	CSS, BucketCSS template.CSS
	JS             template.JS
}

type count struct {
	Value int
	Label string
}

type legendKey struct {
	Bucket int
	Text   string
}

// bucketColours are the grid's colours, light to dark as more of
// allocatable is requested, then overcommitted (purple).
var bucketColours = [...]string{
	"#f7fcf5", "#e5f5e0", "#c7e9c0", "#a1d99b", "#fee391",
	"#fec44f", "#fe9929", "#ec7014", "#cc4c02", "#993404",
	"#662506", // bucketFull
	"#6a1b9a", // bucketOver
}

// Write renders in as one HTML page to w.
func Write(w io.Writer, in *Input) error {
	d := begin(in)
	// The node grid and the requested table (a cell and a row per node)
	// are nearly all of the page's rendering, and depend on the nodes
	// alone: each is rendered on a core of its own while the rest is
	// built, and the page takes them as written (the sub-templates "zones"
	// and "table", escaped in the context where the page places them:
	// element content).
	var zones, table section
	var wg sync.WaitGroup
	wg.Go(func() {
		zones = render("zones", &data{Big: d.Big, Zones: zonesOf(in.Requested, in.Order, factsOf(in.Nodes, in.ScaleDown), d.Resources, d.Big)})
	})
	wg.Go(func() { table = render("table", &data{Table: tableRows(in.Requested, in.Order, d.Resources)}) })
	build(in, d)
	wg.Wait()
	for _, s := range []section{zones, table} {
		if s.err != nil {
			return fmt.Errorf("writing the report: %w", s.err)
		}
	}
	d.ZonesHTML, d.TableHTML = zones.html, table.html
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := page.Execute(bw, d); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return bw.Flush()
}

// begin is the page's data that all its parts read: the sources, the
// resources and whether the grid is big.
func begin(in *Input) *data {
	d := &data{
		Source: in.Source, Generated: in.Generated.UTC().Format(time.RFC3339), Version: in.Version, Decisions: in.Decisions, Config: in.Config,
		Warnings: in.Warnings, WhatIf: in.WhatIf, CSS: template.CSS(pageCSS), JS: template.JS(pageJS),
	}
	for i, name := range in.Requested.Resources {
		d.Resources = append(d.Resources, resource{Index: i, Name: name})
	}
	d.Big = len(in.Requested.Nodes) <= bigGridMax
	return d
}

// section is a part of the page rendered by a sub-template: html/template
// has escaped what it holds.
type section struct {
	html template.HTML
	err  error
}

// render executes the sub-template name on d.
func render(name string, d *data) section {
	var b strings.Builder
	if err := page.ExecuteTemplate(&b, name, d); err != nil {
		return section{err: err}
	}
	return section{html: template.HTML(b.String())}
}

// build fills in the rest of d from in.
func build(in *Input, d *data) {
	s := in.Summary
	d.Counts = []count{counted(s.Nodes-s.Placeholders-s.Ghosts, "node", "nodes"), counted(s.Pods, "pod on nodes", "pods on nodes"),
		counted(s.PendingPods, "pending pod", "pending pods")}
	if s.Placeholders > 0 {
		d.Counts = append(d.Counts, counted(s.Placeholders, "placeholder", "placeholders"))
	}
	if s.Ghosts > 0 {
		d.Counts = append(d.Counts, counted(s.Ghosts, "removed node holding pods", "removed nodes holding pods"))
	}
	if s.AssumedPods > 0 {
		d.Counts = append(d.Counts, counted(s.AssumedPods, "assumed pod", "assumed pods"))
	}
	d.Legend = legend()
	d.BucketCSS = template.CSS(bucketCSS(len(d.Resources)))
	d.ScaleDown = scaleDownSummaryOf(in.ScaleDown)
	d.Pending = pendingRows(in.Pending)
	d.Chart = rejectionChart(in.Pending)
	d.Order = orderPictureOf(in.Order)
}

// counted is n with the noun's singular or plural.
func counted(n int, one, many string) count {
	if n == 1 {
		return count{n, one}
	}
	return count{n, many}
}

func legend() []legendKey {
	out := make([]legendKey, 0, len(bucketColours)+1)
	for b := range 10 {
		text := ""
		if b%2 == 0 {
			text = fmt.Sprintf("%d%%", b*10)
		}
		out = append(out, legendKey{b, text})
	}
	return append(out, legendKey{bucketFull, "100%"}, legendKey{bucketOver, "over"}, legendKey{bucketNone, "none allocatable"})
}

// bucketCSS colours the cells of the checked resource: for resource i,
// "#resI:checked ~ .zones .rIbB" gets bucket B's colour, and a big cell
// shows that resource's percentage.
func bucketCSS(resources int) string {
	var b strings.Builder
	for i, c := range bucketColours {
		fmt.Fprintf(&b, ".legend .b%d{background-color:%s}", i, c)
	}
	for r := range resources {
		for i, c := range bucketColours {
			fmt.Fprintf(&b, "#res%d:checked~.zones .r%db%d{background-color:%s", r, r, i, c)
			if i >= 7 {
				b.WriteString(";color:#fff")
			}
			b.WriteString("}")
		}
		fmt.Fprintf(&b, "#res%d:checked~.zones .r%db%d{background-color:#eee}", r, r, bucketNone)
		fmt.Fprintf(&b, "#res%d:checked~.zones .p%d{display:block}", r, r)
		fmt.Fprintf(&b, "#res%d:checked+label{background:#0969da;color:#fff;border-color:#0969da}", r)
	}
	return b.String()
}
