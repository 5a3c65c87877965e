//go:build linux

package cmd

import (
	"bytes"
	"strings"
	"testing"

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
