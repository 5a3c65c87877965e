package load

// This file holds ReadFiles' messages: builder errors made precise, and the
// summary warnings.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// inputError turns an error from the builder into an *Error. The builder
// names the source but not the document ("error parsing <source>: <cause>",
// `unable to decode "<source>": <cause>`); the failing document is the one
// after the last document visited from that source.
func (r *fileReader) inputError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	msg := err.Error()
	if source, cause, ok := r.splitSource(msg); ok {
		return &Error{Kind: InvalidInput, Msg: fmt.Sprintf("%s: document %d: %s", source, r.docs[source]+1, cleanCause(cause)), Err: err}
	}
	return &Error{Kind: InvalidInput, Msg: oneLine(msg), Err: err}
}

// splitSource splits a builder message into its source and cause.
func (r *fileReader) splitSource(msg string) (source, cause string, ok bool) {
	if rest, found := strings.CutPrefix(msg, "unable to decode "); found {
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return "", "", false
		}
		source, err = strconv.Unquote(quoted)
		cause, found = strings.CutPrefix(rest[len(quoted):], ": ")
		return source, cause, err == nil && found
	}
	rest, found := strings.CutPrefix(msg, "error parsing ")
	if !found {
		return "", "", false
	}
	// The source is not quoted: prefer a source already visited (the longest
	// match), then stdin, then the first prefix naming a file.
	for s := range r.docs {
		if strings.HasPrefix(rest, s+": ") && len(s) > len(source) {
			source = s
		}
	}
	if source == "" && strings.HasPrefix(rest, StdinSource+": ") {
		source = StdinSource
	}
	if source == "" {
		source = filePrefix(rest)
	}
	if source == "" {
		return "", "", false
	}
	return source, rest[len(source)+len(": "):], true
}

// filePrefix returns the shortest prefix of s that ends before a ": " and
// names an existing file, or "".
func filePrefix(s string) string {
	for i := 0; ; i += len(": ") {
		j := strings.Index(s[i:], ": ")
		if j < 0 {
			return ""
		}
		i += j
		if fi, err := os.Stat(s[:i]); err == nil && !fi.IsDir() {
			return s[:i]
		}
	}
}

// cleanCause keeps one line and drops the document dump that some decoder
// messages end with ("Object 'Kind' is missing in '{...}'").
func cleanCause(cause string) string {
	if i := strings.Index(cause, " in '{"); i >= 0 {
		cause = cause[:i]
	}
	if cause == "Object 'Kind' is missing" {
		cause = `the object has no "kind"`
	}
	return oneLine(cause)
}

// kindLabel names a skipped object's kind in the summary warning.
func kindLabel(gvk schema.GroupVersionKind) string {
	if gvk.Kind == nodeGVK.Kind || gvk.Kind == podGVK.Kind {
		return fmt.Sprintf("%s (apiVersion %q)", gvk.Kind, gvk.GroupVersion().String())
	}
	return gvk.Kind
}

// warn writes the summary warnings and notes, one line each.
func (r *fileReader) warn(w io.Writer) {
	switch n := sum(r.skipped); {
	case n == 1:
		fmt.Fprintf(w, "warning: skipped 1 object of another kind (%s)\n", countsByKind(r.skipped))
	case n > 1:
		fmt.Fprintf(w, "warning: skipped %d objects of other kinds (%s)\n", n, countsByKind(r.skipped))
	}
	if r.terminal > 0 {
		fmt.Fprintf(w, "note: skipped %s (Succeeded/Failed), as the scheduler does\n", plural(r.terminal, "terminal pod"))
	}
	if r.derived > 0 {
		fmt.Fprintf(w, "warning: %s without metadata.uid got a UID derived from namespace/name (e.g. %s: %s)\n",
			plural(r.derived, "pod"), r.derivedEg, r.derivedUID)
	}
}

// countsByKind lists counts, largest first: "2 Service, 1 Deployment".
func countsByKind(counts map[string]int) string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if counts[kinds[i]] != counts[kinds[j]] {
			return counts[kinds[i]] > counts[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return strings.Join(parts, ", ")
}

func sum(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// plural returns "1 pod" or "3 pods".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
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
