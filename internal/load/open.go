package load

// This file opens what ReadFiles and ReadFile read: regular files only (a
// device or a pipe named on the command line would never end), and names
// the bounds they read within (read.Limits).

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// Limits bound what one read may hold (one document, one List item, one
// YAML line); the zero value means the defaults. See read.Limits.
type Limits = read.Limits

// ParseSize parses a size such as "256Mi", "1Gi" or "1048576" (bytes,
// Kubernetes quantity syntax) for the --max-document-size flag. It returns
// an error for malformed, fractional, zero or negative sizes.
func ParseSize(s string) (int64, error) { return read.ParseSize(s) }

// IsTooLarge reports whether err is ReadFile's (or ReadFiles') refusal of
// a document over Limits.MaxDocumentBytes.
func IsTooLarge(err error) bool { return read.IsTooLarge(err) }

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
	data, err := read.Whole(in, limits)
	if err != nil {
		return nil, &Error{Kind: InvalidInput, Msg: clean(fmt.Sprintf("%s: %v", source, err)), Err: err}
	}
	return data, nil
}
