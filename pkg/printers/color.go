package printers

import "strings"

// The colour scheme, the same for every command (docs/output.md, "Colours"):
//
//	red     something stops a pod: a resource at 90% of allocatable or more
//	        (or requested where nothing is allocatable), negative free, a
//	        node that does not fit, an unschedulable or gated pod, a Filter
//	        rejection, a cache error;
//	yellow  worth a look: a resource at 75% or more, NodeInfos without a
//	        node object (placeholder, ghost), a pod preemption would place;
//	green   fits or scheduled.
//
// Builders always mark cells; Render turns the marks into ANSI colour when
// colour is allowed (a terminal, NO_COLOR unset or empty) and drops them
// otherwise. The marks are private-use runes, which survive EscapeTerminal
// (that would neutralise real ANSI escapes) and which Kubernetes names,
// label values and quantities cannot contain.
const (
	markRed    = "\uE000"
	markGreen  = "\uE001"
	markYellow = "\uE002"
	markEnd    = "\uE00F"
)

// Usage thresholds of the scheme, in percent of allocatable.
const (
	redPercent    = 90
	yellowPercent = 75
)

// red marks s as bad.
func red(s string) string { return markRed + s + markEnd }

// green marks s as good.
func green(s string) string { return markGreen + s + markEnd }

// yellow marks s as worth a look.
func yellow(s string) string { return markYellow + s + markEnd }

var (
	ansi   = strings.NewReplacer(markRed, "\x1b[31m", markGreen, "\x1b[32m", markYellow, "\x1b[33m", markEnd, "\x1b[0m")
	noMark = strings.NewReplacer(markRed, "", markGreen, "", markYellow, "", markEnd, "")
)

// paint turns colour marks into ANSI sequences, or drops them.
func paint(s string, color bool) string {
	if color {
		return ansi.Replace(s)
	}
	return noMark.Replace(s)
}

// plain is s without colour marks.
func plain(s string) string { return noMark.Replace(s) }

// usageColor marks a "requested of allocatable" cell by how full it is.
func usageColor(s string, req, alloc int64) string {
	switch {
	case alloc <= 0 && req > 0, alloc > 0 && req*100 >= redPercent*alloc:
		return red(s)
	case alloc > 0 && req*100 >= yellowPercent*alloc:
		return yellow(s)
	}
	return s
}
