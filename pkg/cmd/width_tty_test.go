//go:build linux

package cmd

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/ptytest"
)

// runOnTerminal runs the command with stdout on a pseudo-terminal of cols
// columns (colour off) and returns what the terminal showed.
func runOnTerminal(t *testing.T, cols uint16, args ...string) result {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	ptm, pts, err := ptytest.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: cols}); err != nil {
		t.Skipf("cannot size the terminal: %v", err)
	}
	shown := make(chan string)
	go func() {
		b, _ := io.ReadAll(ptm) // EIO once pts is closed
		shown <- string(b)
	}()
	var errOut bytes.Buffer
	root := NewCmdSchedCache(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: pts, ErrOut: &errOut})
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	pts.Close()
	out := strings.ReplaceAll(<-shown, "\r\n", "\n")
	return result{stdout: out, stderr: errOut.String(), code: ExitCode(err)}
}

// detailField is a field line of a detail view ("Allocatable:  cpu …").
var detailField = regexp.MustCompile(`^[A-Z][a-z -]+: `)

// TestTablesFitTheTerminal: on a terminal of 120 and of 80 columns, the
// tables of why -A, simulate --script, drain, dump, dump --node and
// requested fit the width (but tables with nothing to wrap: dump's
// images, simulate's nodes), nothing is cut ("…"), and every name and
// message of the piped output is still there whole: messages and usage
// cells wrap within their column or the rows become blocks. Piped output
// (the goldens) is never fitted.
func TestTablesFitTheTerminal(t *testing.T) {
	noKubeconfig(t)
	for _, args := range [][]string{
		{"why", "-f", example, "-A"},
		{"simulate", "-f", simCluster, "--script", simScript, "--ttl", "30s"},
		{"drain", "-f", fixture("drain"), "n1"},
		{"dump", "-f", example, "--node", "worker-a-1"},
		{"dump", "-f", example},
		{"requested", "-f", example},
	} {
		piped := run(t, "", args...)
		for _, width := range []int{120, 80} {
			r := runOnTerminal(t, uint16(width), args...)
			if r.code != piped.code {
				t.Errorf("%v at %d: exit %d, piped %d", args, width, r.code, piped.code)
			}
			fitted := r.stdout
			if i := strings.Index(fitted, "Images ("); i >= 0 {
				fitted = fitted[:i]
			}
			for _, l := range strings.Split(fitted, "\n") {
				// Prose lines (a detail view's fields, the summary)
				// are no table: the terminal folds them, nothing is lost.
				// simulate's node table has no free text to wrap: its
				// rows stay whole (87 columns).
				if detailField.MatchString(l) || strings.Contains(l, " simulated (") || strings.HasPrefix(l, "NODE   CPU-BEFORE") {
					continue
				}
				if n := len([]rune(l)); n > width {
					t.Errorf("%v at %d: line of %d columns: %q", args, width, n, l)
				}
			}
			if strings.Contains(r.stdout, "…") {
				t.Errorf("%v at %d: something was cut:\n%s", args, width, r.stdout)
			}
			// Every word of the piped output is shown, whole or wrapped.
			shown := strings.Join(strings.Fields(r.stdout), " ")
			for _, w := range strings.Fields(piped.stdout) {
				if !strings.Contains(shown, w) && !strings.Contains(strings.ReplaceAll(shown, " ", ""), w) {
					t.Errorf("%v at %d: %q missing from\n%s", args, width, w, r.stdout)
					break
				}
			}
		}
	}
}

// TestWhyMessageWrapsAt120: why -A on a 120-column terminal keeps the
// table and wraps each FailedScheduling message within MESSAGE, where
// it reads whole; the piped table keeps one row per line.
func TestWhyMessageWrapsAt120(t *testing.T) {
	noKubeconfig(t)
	r := runOnTerminal(t, 120, "why", "-f", example, "-A")
	if !strings.HasPrefix(r.stdout, "POD ") {
		t.Fatalf("not a table:\n%s", r.stdout)
	}
	msg := "0/12 nodes are available: 1 node(s) were unschedulable, 2 node(s) had untolerated taint(s), 9 node(s) didn't match " +
		"Pod's node affinity/selector. no new claims to deallocate, preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling."
	if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), "reports/pdf-renderer-7b6c5d9f8-zm3qp unschedulable <none> "+msg) {
		t.Errorf("the message of reports/pdf-renderer does not read whole:\n%s", r.stdout)
	}
	if piped := run(t, "", "why", "-f", example, "-A"); strings.Count(piped.stdout, "\n") != 5 {
		t.Errorf("piped: want the header and 4 rows, one line each:\n%s", piped.stdout)
	}
}
