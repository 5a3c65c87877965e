package read

// This file holds the bounds every read of user input respects, whatever
// reads it (Cut, and through Whole the simulate command's --pod-file and
// --script), so that hostile or accidental input (a multi-gigabyte line,
// JSON nested millions of levels deep) ends in a one-line error with flat
// memory instead of a hang, a crash or gigabytes of memory. (Devices and
// pipes named on the command line are refused where files are opened, in
// package load.)

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"
)

const (
	// DefaultMaxDocumentBytes caps one YAML or JSON document, and one line:
	// 256 MiB. A List counts item by item (each item, and the List's other
	// fields, must fit), so a `kubectl get -o json` export of any size is
	// read; objects are far smaller (etcd stores at most 1.5 MiB by
	// default), and what is held for one document stays a fraction of a
	// laptop's memory.
	DefaultMaxDocumentBytes = 256 << 20
	// MaxDepth is the deepest nesting of arrays and objects accepted, as in
	// encoding/json and go-yaml (both 10,000). It is checked while the bytes
	// are read, without recursion.
	MaxDepth = 10000
)

// Limits bound what one read may hold. The zero value means the defaults.
type Limits struct {
	// MaxDocumentBytes caps one document (or one List item, or one YAML
	// line), in bytes. Zero or less: DefaultMaxDocumentBytes.
	MaxDocumentBytes int64
}

// maxDocument returns the effective document cap in bytes.
func (l Limits) maxDocument() int64 {
	if l.MaxDocumentBytes <= 0 {
		return DefaultMaxDocumentBytes
	}
	return l.MaxDocumentBytes
}

// ParseSize parses a size such as "256Mi", "1Gi" or "1048576" (bytes,
// Kubernetes quantity syntax) for the --max-document-size flag. It returns an
// error for malformed, fractional, zero or negative sizes.
func ParseSize(s string) (int64, error) {
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size (e.g. 256Mi, 1Gi): %v", s, err)
	}
	n, ok := q.AsInt64()
	if !ok || n <= 0 || q.Cmp(*resource.NewQuantity(n, resource.BinarySI)) != 0 {
		return 0, fmt.Errorf("%q is not a positive whole number of bytes", s)
	}
	return n, nil
}

// formatSize writes n bytes the way ParseSize reads them back: "256Mi".
func formatSize(n int64) string {
	return resource.NewQuantity(n, resource.BinarySI).String()
}

// tooLargeError is returned when a document exceeds Limits.MaxDocumentBytes.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("larger than %s (raise the limit with --max-document-size)", formatSize(e.limit))
}

// IsTooLarge reports whether err is Whole's (or Cut's) refusal
// of a document over Limits.MaxDocumentBytes.
func IsTooLarge(err error) bool {
	var e *tooLargeError
	return errors.As(err, &e)
}

// tooDeepError is returned for nesting deeper than MaxDepth.
type tooDeepError struct{}

func (tooDeepError) Error() string {
	return fmt.Sprintf("nested deeper than %d levels", MaxDepth)
}
