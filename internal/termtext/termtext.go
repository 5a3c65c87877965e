// Package termtext holds the one escaping rule for everything the plugin
// prints, on stdout and stderr: names, values, file names and flag values
// come from the input or the user and may hold anything, and nothing of it
// may reach the terminal as a control sequence or forge a line.
package termtext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	cliprinters "k8s.io/cli-runtime/pkg/printers"
)

// Text neutralises escape sequences as kubectl does (cli-runtime's
// EscapeTerminal: ESC becomes "^[", CR "\r"), and writes any other control
// character (C0 but newline and tab, DEL, C1 such as the one-byte CSI
// U+009B) or byte that is not UTF-8 as \xNN. Newlines are kept: it is for
// whole messages, which may have several lines.
func Text(s string) string {
	if !needsEscape(s) {
		return s
	}
	s = cliprinters.EscapeTerminal(s)
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r != '\n' && r != '\t' && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Line is Text on one line: line breaks (CR LF, LF, CR) become spaces
// first. It is for one name or value, and for table cells.
func Line(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = lineBreaks.Replace(s)
	}
	return Text(s)
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// needsEscape reports whether Text changes s.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r != '\n' && r != '\t' && unicode.IsControl(r) {
			return true
		}
		i += size
	}
	return false
}
