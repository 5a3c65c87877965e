// Package report renders the cluster views of the other commands (the
// cache dump's counts, the per-node requested resources, the NodeTree's
// zone round-robin order and the scheduling verdicts of the pending pods)
// as one self-contained HTML page: inline CSS, inline SVG and a few lines of
// inline JavaScript (table sorting), nothing fetched when it is opened.
//
// The page is built with html/template, so every name and message taken
// from the input (node, pod, zone, resource and taint names, reasons) is
// escaped for the context it lands in; no input string ever becomes a CSS
// class, an element id or markup. Per-node data is written once per node (a
// grid cell and a table row), so the page grows linearly with the cluster:
// a few hundred bytes per node and per pending pod.
package report
