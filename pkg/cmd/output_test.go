//go:build linux

package cmd

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal of the given width and returns its
// terminal side, as stdout would be in an interactive shell.
func openTerminal(t *testing.T, cols uint16) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: cols}); err != nil {
		t.Fatal(err)
	}
	// Drain what the command writes so that it never blocks on a full pty.
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := ptmx.Read(buf); err != nil {
				return
			}
		}
	}()
	return tty
}

// TestTableOptionsTerminal: colour and truncation only on a terminal; the
// terminal's width is the limit; NO_COLOR set and not empty turns colour
// off (an empty NO_COLOR does not, as no-color.org says).
func TestTableOptionsTerminal(t *testing.T) {
	tty := openTerminal(t, 97)
	f := NewOutputFlags()
	for _, tc := range []struct {
		noColor   string
		wantColor bool
	}{{"", true}, {"1", false}} {
		t.Setenv("NO_COLOR", tc.noColor)
		opts := f.TableOptions(tty)
		if opts.Color != tc.wantColor || opts.MaxWidth != 97 {
			t.Errorf("NO_COLOR=%q on a terminal: colour %v width %d, want %v 97", tc.noColor, opts.Color, opts.MaxWidth, tc.wantColor)
		}
	}
	t.Setenv("NO_COLOR", "")
	pipeR, pipeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pipeR.Close()
	defer pipeW.Close()
	if opts := f.TableOptions(pipeW); opts.Color || opts.MaxWidth != 0 {
		t.Errorf("pipe: colour %v width %d, want neither", opts.Color, opts.MaxWidth)
	}
}

// TestQuiet: --quiet silences notes and summaries on stderr, never errors;
// stdout is unchanged.
func TestQuiet(t *testing.T) {
	const edge = "testdata/clusters/edge.yaml"
	loud := run(t, "", "requested", "-f", edge, "--pod", "apps/waiting")
	quiet := run(t, "", "requested", "-f", edge, "--pod", "apps/waiting", "-q")
	if !strings.Contains(loud.stderr, "warning:") || !strings.Contains(loud.stderr, "passes kube-scheduler's filters on 0 of 2 nodes") {
		t.Fatalf("the loud run should warn and summarise:\n%s", loud.stderr)
	}
	// run() adds the error line main would print; this one main leaves out
	// (exitError.silent), so it is all that stays.
	if quiet.stderr != "error: the pod passes kube-scheduler's filters on no node\n" || quiet.stdout != loud.stdout || quiet.code != 1 || loud.code != 1 {
		t.Errorf("quiet: exit %d stderr %q; stdout equal: %v", quiet.code, quiet.stderr, quiet.stdout == loud.stdout)
	}
	bad := run(t, "", "dump", "-f", "testdata/nope.yaml", "--quiet")
	if bad.code != 2 || !strings.Contains(bad.stderr, "error: ") {
		t.Errorf("errors must still be printed: exit %d %q", bad.code, bad.stderr)
	}
}
