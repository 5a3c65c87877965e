package load

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// sniffBytes is how much of an input sniff looks at.
const sniffBytes = 4096

// Inputs people give -f by mistake, recognised by their first bytes.
var (
	// A kubectl get table: a first line of two or more UPPERCASE headers,
	// NAME or NAMESPACE first, separated by runs of spaces (kubectl's
	// printers pad columns with at least three).
	tableHeader = regexp.MustCompile(`^(NAME|NAMESPACE)( {2,}[A-Z][A-Z0-9%()./-]*(?: [A-Z][A-Z0-9%()./-]*)*)+ *$`)
	// This tool's own -o json|yaml: its API group's apiVersion and a kind,
	// in either order, near the top (the kind at the top level: indented by
	// at most 4 spaces, as -o json indents it, or first in compact JSON).
	ownAPIVersion = regexp.MustCompile(`(?m)(?:^|[{,\s])"?apiVersion"?\s*:\s*"?` + regexp.QuoteMeta(v1alpha1.SchemeGroupVersion.String()) + `"?`)
	ownKind       = regexp.MustCompile(`(?m)(?:^ {0,4}|[{,]\s*)"?kind"?\s*:\s*"?([A-Za-z]+)"?`)
)

// sniff says what an input that holds no Kubernetes objects looks like,
// from its first bytes (head; only the first sniffBytes are read), when it
// is something a user may give -f by mistake: a table printed by kubectl
// get, an HTML page (a web page saved or fetched instead of the raw file),
// or this tool's own -o json|yaml output (whose kinds, of API group
// schedcache.kubectl.io, hold no objects to model). The text says what to
// do instead; "" when head is none of these.
func sniff(head []byte) string {
	head = head[:min(len(head), sniffBytes)]
	text := strings.TrimLeft(string(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))), " \t\r\n")
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimRight(first, "\r")
	lower := strings.ToLower(first)
	switch {
	case strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html") || strings.HasPrefix(lower, "<head"):
		return "an HTML page, not YAML or JSON: save the raw file, or the output of kubectl get -o yaml"
	case tableHeader.MatchString(first):
		return "looks like a table printed by kubectl get, not YAML or JSON: use kubectl get -o yaml (or -o json)"
	case ownAPIVersion.MatchString(text):
		kind := "output"
		if m := ownKind.FindStringSubmatch(text); m != nil {
			kind = m[1]
		}
		return fmt.Sprintf("this tool's own %s output (%s), not cluster objects: compare saved dumps or snapshots with 'kubectl schedcache diff', and give -f the kubectl get -o yaml output instead", kind, v1alpha1.SchemeGroupVersion)
	}
	return ""
}

// notObjects refuses a source that sniff recognised: an error naming it,
// or, for a file found in a directory or by a glob, a warning that it is
// skipped.
func (c *collector) notObjects(src *source, what string) error {
	if !src.expanded {
		return inputError(src.name+": "+what, nil)
	}
	c.warnings = append(c.warnings, fmt.Sprintf("skipped %s: %s", src.name, what))
	c.skippedSrcs++
	src.skipped = true
	return nil
}
