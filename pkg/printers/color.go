package printers

import "strings"

// Colour is requested with private-use marker runes that survive
// EscapeTerminal (which would neutralise real ANSI escapes) and are turned
// into ANSI sequences after escaping. Kubernetes names, label values and
// quantities cannot contain these runes.
const (
	markRed   = "\uE000"
	markGreen = "\uE001"
	markEnd   = "\uE00F"
)

// red marks s to be shown in red when colour is allowed.
func red(s string) string { return markRed + s + markEnd }

// green marks s to be shown in green when colour is allowed.
func green(s string) string { return markGreen + s + markEnd }

var ansi = strings.NewReplacer(markRed, "\x1b[31m", markGreen, "\x1b[32m", markEnd, "\x1b[0m")
