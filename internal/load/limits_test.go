package load

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// TestLimits checks the size and depth bounds on every shape: documents,
// List items and lines larger than the limit, and nesting deeper than
// read.MaxDepth, are errors naming the document and item.
func TestLimits(t *testing.T) {
	const limit = 1 << 10
	big := strings.Repeat("x", 2*limit)
	deep := func(open, close string, n int) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	tests := []struct {
		name, input, wantErr string
	}{
		{"JSON document", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "` + big + `"}}`,
			`stdin: document 1: larger than 1Ki (raise the limit with --max-document-size)`},
		{"JSON List item", `{"kind": "List", "items": [` + testPod + `, {"metadata": {"name": "` + big + `"}}]}`,
			`stdin: document 1: item 2: larger than 1Ki (raise the limit with --max-document-size)`},
		{"JSON whitespace", " \n" + strings.Repeat(" ", 2*limit) + "{" + strings.Repeat(" ", 2*limit),
			`stdin: document 1: larger than 1Ki (raise the limit with --max-document-size)`},
		{"YAML line", "kind: Pod\nmetadata: {name: " + big + "}\n",
			`stdin: document 1: line 2: larger than 1Ki (raise the limit with --max-document-size)`},
		{"YAML document", "kind: Pod\n" + strings.Repeat("a: b\n", limit),
			`stdin: document 1: larger than 1Ki (raise the limit with --max-document-size)`},
		{"YAML List item", "kind: List\nitems:\n- kind: Pod\n" + strings.Repeat("  a: b\n", limit),
			`stdin: document 1: item 1: larger than 1Ki (raise the limit with --max-document-size)`},
		{"JSON nesting", deep("[", "]", read.MaxDepth+1), `stdin: document 1: item 1: nested deeper than 10000 levels`},
		{"JSON nesting in an object", `{"a":` + deep(`{"a":`, "}", read.MaxDepth) + "}", `stdin: document 1: nested deeper than 10000 levels`},
		{"YAML flow nesting", "a: " + deep("[", "]", read.MaxDepth+1), `stdin: document 1: exceeded max depth of 10000`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			limits := Limits{MaxDocumentBytes: limit}
			if strings.Contains(tc.name, "nesting") {
				limits = Limits{} // the depth comes first
			}
			_, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(tc.input), Limits: limits}, nil)
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("error:\n got %v\nwant %s", err, tc.wantErr)
			}
			if KindOf(err) != InvalidInput {
				t.Errorf("KindOf = %v", KindOf(err))
			}
		})
	}
	t.Run("just under the limit", func(t *testing.T) {
		pod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}`
		pod = pod[:len(pod)-2] + strings.Repeat(" ", limit-len(pod)) + "}}"
		if _, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(pod), Limits: Limits{MaxDocumentBytes: limit}}, nil); err != nil {
			t.Errorf("a %d-byte document: %v", len(pod), err)
		}
	})
}

// TestNonRegularFiles: a named device or pipe is refused (reading it would
// never end), one in a directory is skipped with a warning, and "-" reads
// standard input whatever it is.
func TestNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	writeFile(t, dir, "pod.yaml", []byte(stdinPod))

	_, err := ReadFiles(FileOptions{Filenames: []string{fifo}}, nil)
	if want := fifo + ": not a regular file (a named pipe); use - to read standard input"; err == nil || err.Error() != want {
		t.Errorf("named pipe: %v, want %s", err, want)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := ReadFiles(FileOptions{Filenames: []string{"/dev/zero"}}, nil)
		if want := "/dev/zero: not a regular file (a character device); use - to read standard input"; err == nil || err.Error() != want {
			t.Errorf("/dev/zero: %v, want %s", err, want)
		}
	}
	var w bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{dir}}, &w)
	if err != nil || len(c.Pods) != 1 {
		t.Fatalf("directory with a pipe: %v", err)
	}
	if want := "warning: skipped " + fifo + ": not a regular file (a named pipe)\n"; w.String() != want {
		t.Errorf("warnings %q, want %q", w.String(), want)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "script.yaml", []byte("- op: cleanup\n"))
	if data, err := ReadFile(path, nil, Limits{}); err != nil || string(data) != "- op: cleanup\n" {
		t.Errorf("file: %q, %v", data, err)
	}
	if data, err := ReadFile("-", strings.NewReader("x"), Limits{}); err != nil || string(data) != "x" {
		t.Errorf("stdin: %q, %v", data, err)
	}
	// A UTF-16 file with its byte-order mark reads as UTF-8, as kubectl reads it.
	utf16 := writeFile(t, dir, "utf16.yaml", []byte{0xff, 0xfe, 'a', 0, ':', 0, ' ', 0, 'b', 0})
	if data, err := ReadFile(utf16, nil, Limits{}); err != nil || string(data) != "a: b" {
		t.Errorf("UTF-16: %q, %v", data, err)
	}
	for _, tc := range []struct {
		name    string
		file    string
		stdin   io.Reader
		limits  Limits
		wantErr string
	}{
		{"too large", path, nil, Limits{MaxDocumentBytes: 4}, path + ": larger than 4 (raise the limit with --max-document-size)"},
		{"too large on stdin", "-", strings.NewReader("12345"), Limits{MaxDocumentBytes: 4}, "stdin: larger than 4 (raise the limit with --max-document-size)"},
		{"device", "/dev/zero", nil, Limits{}, "/dev/zero: not a regular file (a character device); use - to read standard input"},
		{"directory", dir, nil, Limits{}, dir + ": not a regular file (a directory); use - to read standard input"},
		{"missing", filepath.Join(dir, "nope"), nil, Limits{}, `the path "` + filepath.Join(dir, "nope") + `" does not exist`},
		{"no stdin", "-", nil, Limits{}, `cannot read "-": no standard input`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFile(tc.file, tc.stdin, tc.limits)
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("error %v, want %s", err, tc.wantErr)
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != InvalidInput {
				t.Errorf("error %#v, want an *Error of kind InvalidInput", err)
			}
		})
	}
}
