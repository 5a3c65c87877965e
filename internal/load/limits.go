package load

// This file holds the bounds every read of user input respects, whatever
// reads it (ReadFiles, and through ReadFile the simulate command's
// --pod-file and --script), so that hostile or accidental input (a device,
// a pipe without a writer, a multi-gigabyte line, JSON nested millions of
// levels deep) ends in a one-line error with flat memory instead of a hang,
// a crash or gigabytes of memory.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

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

// IsTooLarge reports whether err is ReadFile's (or the reader's) refusal
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

// errNotRegular is wrapped by openFile's error for devices, pipes, sockets.
var errNotRegular = errors.New("not a regular file")

// openFile opens a file named on the command line (or found in a directory)
// for reading: a regular file only, so that reading ends (a device such as
// /dev/zero never does; a pipe without a writer blocks forever). Standard
// input is read with "-" instead. Errors name the file and say what it is.
func openFile(name string) (*os.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, pathError(name, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", name, errNotRegular, fileType(fi.Mode()))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, pathError(name, err)
	}
	return f, nil
}

// pathError words a failure to stat or open name.
func pathError(name string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the path %q does not exist", name)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("the path %q cannot be read: permission denied", name)
	}
	return fmt.Errorf("the path %q cannot be read: %v", name, err)
}

// fileType names what a non-regular file is.
func fileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// ReadFile reads the whole of name, or of stdin for "-", within limits: a
// regular file or standard input only, at most Limits.MaxDocumentBytes. It
// is the reader of single-document inputs such as simulate's --script.
// Errors name the file (stdin as "stdin") and are *Error of Kind
// InvalidInput.
func ReadFile(name string, stdin io.Reader, limits Limits) ([]byte, error) {
	source := name
	var in io.Reader
	if name == "-" {
		if stdin == nil {
			return nil, &Error{Kind: InvalidInput, Msg: `cannot read "-": no standard input`}
		}
		source, in = StdinSource, stdin
	} else {
		f, err := openFile(name)
		if err != nil {
			msg := err.Error()
			if errors.Is(err, errNotRegular) {
				msg += "; use - to read standard input"
			}
			return nil, &Error{Kind: InvalidInput, Msg: clean(msg), Err: err}
		}
		defer f.Close()
		in = f
	}
	limit := limits.maxDocument()
	data, err := io.ReadAll(io.LimitReader(bufio.NewReader(textReader(in)), limit+1))
	if err != nil {
		return nil, &Error{Kind: InvalidInput, Msg: clean(fmt.Sprintf("%s: %v", source, err)), Err: err}
	}
	if int64(len(data)) > limit {
		err := &tooLargeError{limit}
		return nil, &Error{Kind: InvalidInput, Msg: clean(fmt.Sprintf("%s: %v", source, err)), Err: err}
	}
	return data, nil
}
