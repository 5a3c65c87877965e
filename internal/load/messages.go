package load

// This file holds ReadFiles' summary warnings and notes, and the rule that
// keeps every message the loader writes to one line without control
// characters, whatever the input holds (names, kinds, file names).

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// EscapeLine makes s safe to print on a terminal, on one line: surrounding
// space trimmed, then termtext.Line (line breaks become spaces, control
// characters escaped). Every message of the loader goes through it,
// whatever the input holds.
func EscapeLine(s string) string {
	return termtext.Line(strings.TrimSpace(s))
}

func clean(s string) string { return EscapeLine(s) }

// cleanCause keeps one line and drops the document dump that some decoder
// messages end with ("Object 'Kind' is missing in '{...}'").
func cleanCause(cause string) string {
	if i := strings.Index(cause, " in '{"); i >= 0 {
		cause = cause[:i]
	}
	return oneLine(cause)
}

// warn writes the summary warnings and notes, one line each.
func (c *collector) warn(w io.Writer, notes []string) {
	for _, line := range c.warnings {
		fmt.Fprintln(w, "warning: "+clean(line))
	}
	if len(c.internalNames) > 0 {
		fmt.Fprintf(w, "warning: skipped %s in the same internal form: %s\n",
			plural(len(c.internalNames), "more file"), clean(firstNames(c.internalNames, 3)))
	}
	for _, line := range c.replaced {
		fmt.Fprintln(w, "warning: "+clean(line))
	}
	if more := c.nReplaced - len(c.replaced); more > 0 {
		fmt.Fprintf(w, "warning: %s replaced by a later object with the same name\n", plural(more, "more object"))
	}
	for _, line := range notes {
		fmt.Fprintln(w, "note: "+clean(line))
	}
	for _, line := range c.manifestNotes() {
		fmt.Fprintln(w, "note: "+clean(line))
	}
	if c.terminal > 0 {
		fmt.Fprintf(w, "note: skipped %s (Succeeded/Failed), as the scheduler does\n", plural(c.terminal, "terminal pod"))
	}
	if c.derived > 0 {
		fmt.Fprintf(w, "warning: %s without metadata.uid got a UID derived from namespace/name (e.g. %s: %s)\n",
			plural(c.derived, "pod"), clean(c.derivedEg), c.derivedUID)
	}
}

// plural returns "1 pod" or "3 pods".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return thousands(int64(n)) + " " + termtext.Noun(n, noun)
}

// describeInputs names the inputs for Cluster.Source and messages:
// "file a.yaml", "directory manifests", "stdin", "files a.yaml, stdin".
func describeInputs(names []string) string {
	if len(names) == 1 {
		switch name := names[0]; {
		case name == "-":
			return StdinSource
		case isDir(name):
			return "directory " + name
		default:
			return "file " + name
		}
	}
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = name
		if name == "-" {
			parts[i] = StdinSource
		}
	}
	return "files " + strings.Join(parts, ", ")
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// firstNames lists up to n names, then how many more.
func firstNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}
