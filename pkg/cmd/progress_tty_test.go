//go:build linux

package cmd

import (
	"bytes"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/ptytest"
)

// TestProgressLineReachesTheTerminalUnescaped: the progress line goes to
// the terminal behind the commands' stderr, whose quietWriter escapes
// control characters; through it, each "\r" that rewrites the line arrived
// as the two characters `\r`, and the terminal showed every update one after
// the other on a growing line.
func TestProgressLineReachesTheTerminalUnescaped(t *testing.T) {
	ptm, pts, err := ptytest.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()

	stderr := &quietWriter{w: pts}
	out := progressOut(stderr)
	if out != pts {
		t.Fatalf("progressOut(stderr on a terminal) = %T %v, want the terminal itself", out, out)
	}
	if _, err := out.Write([]byte("\rlisted 1 nodes, 2 pods\r")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	n, err := ptm.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(buf[:n]); !strings.HasPrefix(got, "\rlisted 1 nodes, 2 pods") {
		t.Errorf("the terminal read %q, want the line with its carriage return", got)
	}

	for name, w := range map[string]*quietWriter{
		"--quiet":        {w: pts, on: true},
		"not a terminal": {w: &bytes.Buffer{}},
	} {
		if out := progressOut(w); out != nil {
			t.Errorf("%s: progressOut = %T, want none", name, out)
		}
	}
}

// TestProgressAndNotesShareOneLine: the commands' stderr and the progress
// line go through the same load.StatusLine, so that a note clears the
// progress line before it is written.
func TestProgressAndNotesShareOneLine(t *testing.T) {
	ptm, pts, err := ptytest.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()
	root := NewCmdSchedCache(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: pts})
	stderr := root.ErrOrStderr()
	line, ok := progressOut(stderr).(*load.StatusLine)
	if !ok || !isTerminal(stderr) {
		t.Fatalf("progressOut(stderr) = %T, terminal %v; want the *load.StatusLine every stderr write goes through, on the terminal", progressOut(stderr), isTerminal(stderr))
	}
	if q, ok := stderr.(*quietWriter); !ok || q.w != line {
		t.Errorf("stderr %T does not write through the progress line's StatusLine", stderr)
	}
}
