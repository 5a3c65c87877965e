//go:build benchlive

package benchlive

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/ptytest"
)

// The plugin's progress line (internal/load): "listed 1,500 nodes, 42,000/150,000
// pods", each count with "/total" while the total is known and not reached.
var progressRE = regexp.MustCompile(`listed ([0-9,]+)(?:/[0-9,]+)? nodes, ([0-9,]+)(?:/[0-9,]+)? pods`)

// ttyLine is one line (ended by \r or \n) the plugin wrote to its terminal.
type ttyLine struct {
	at          time.Duration // since the plugin was started
	text        string
	progress    bool
	nodes, pods int // of a progress line
}

// ttyRun is the plugin running as the leader of a new session whose
// controlling terminal is a new pseudo-terminal, with stderr on it (stdout and
// stdin on /dev/null), as in `kubectl schedcache dump -o json >file` typed
// in a terminal. Writing ^C to the terminal interrupts it as a keyboard would:
// the line discipline sends SIGINT to the foreground process group.
type ttyRun struct {
	cmd   *exec.Cmd
	ptm   *os.File // the terminal's master side
	start time.Time
	lines <-chan ttyLine // closed once the plugin has exited
}

func startOnTTY(t *testing.T, name string, args ...string) *ttyRun {
	ptm, pts, err := ptytest.Open()
	if err != nil {
		t.Fatalf("bench-live: pseudo-terminal: %v", err)
	}
	cmd := exec.Command(name, args...)
	cmd.Stderr = pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		ptm.Close()
		pts.Close()
		t.Fatalf("bench-live: %v", err)
	}
	pts.Close() // the plugin holds the only copy: reads on ptm end (EIO) when it exits
	lines := make(chan ttyLine, 4096)
	go func() {
		defer close(lines)
		defer ptm.Close()
		var cur []byte
		buf := make([]byte, 4096)
		emit := func() {
			text := strings.TrimSpace(string(cur))
			cur = cur[:0]
			if text == "" {
				return
			}
			l := ttyLine{at: time.Since(start), text: text}
			if m := progressRE.FindStringSubmatch(text); m != nil {
				l.progress, l.nodes, l.pods = true, atoi(m[1]), atoi(m[2])
			}
			lines <- l
		}
		for {
			n, err := ptm.Read(buf)
			for _, b := range buf[:n] {
				if b == '\r' || b == '\n' {
					emit()
				} else {
					cur = append(cur, b)
				}
			}
			if err != nil {
				emit()
				return
			}
		}
	}()
	return &ttyRun{cmd: cmd, ptm: ptm, start: start, lines: lines}
}

// progressReport describes the progress line of a whole listing on a terminal.
type progressReport struct {
	Updates           int           // progress lines written
	First, Last       time.Duration // when the first and the last appeared
	Exit              time.Duration // when the plugin exited
	MedianGap, MaxGap time.Duration // between consecutive updates
	Monotonic         bool          // no count ever went down
	Complete          bool          // the last line shows every node and pod
	LastLine          string
	ExitCode          int
	Other             []string // anything else the plugin wrote to the terminal
}

// checkProgress lists the whole cluster on a terminal and times the progress
// line's updates.
func checkProgress(t *testing.T, plugin string, args []string, nodes, pods int) *progressReport {
	r := startOnTTY(t, plugin, args...)
	rep := &progressReport{Monotonic: true}
	var times []time.Duration
	lastNodes, lastPods := -1, -1
	for l := range r.lines {
		if !l.progress {
			rep.Other = append(rep.Other, l.text)
			continue
		}
		times = append(times, l.at)
		if l.nodes < lastNodes || l.pods < lastPods {
			rep.Monotonic = false
		}
		lastNodes, lastPods = l.nodes, l.pods
		rep.LastLine = l.text
	}
	err := r.cmd.Wait()
	rep.Exit, rep.ExitCode = time.Since(r.start), exitCode(err)
	rep.Updates = len(times)
	rep.Complete = lastNodes == nodes && lastPods == pods
	if len(times) > 0 {
		rep.First, rep.Last = times[0], times[len(times)-1]
	}
	var gaps []time.Duration
	for i := 1; i < len(times); i++ {
		gaps = append(gaps, times[i]-times[i-1])
	}
	if len(gaps) > 0 {
		slices.Sort(gaps)
		rep.MedianGap, rep.MaxGap = gaps[len(gaps)/2], gaps[len(gaps)-1]
	}
	return rep
}

func (p *progressReport) String() string {
	if p.Updates == 0 {
		return fmt.Sprintf("NOT EXERCISED: no progress line (it appears after 1s; the plugin exited after %v with code %d); try a larger cluster or -tty-chunk-size",
			p.Exit.Round(time.Millisecond), p.ExitCode)
	}
	return fmt.Sprintf("%d updates from %v to %v, median gap %v, max gap %v, monotonic %v, complete %v; exit %d at %v; last %q",
		p.Updates, p.First.Round(time.Millisecond), p.Last.Round(time.Millisecond), p.MedianGap.Round(time.Millisecond),
		p.MaxGap.Round(time.Millisecond), p.Monotonic, p.Complete, p.ExitCode, p.Exit.Round(time.Millisecond), p.LastLine)
}

// interruptReport describes Ctrl-C in the middle of a listing.
type interruptReport struct {
	FirstPods  int // pods on the first progress line, -1 if none showed
	Sent       bool
	SentAt     time.Duration // since the plugin was started
	PodsListed int           // as the progress line showed then
	ExitAfter  time.Duration // from ^C to the plugin's exit
	Exit       time.Duration // since the plugin was started
	ExitCode   int
	Other      []string // what the plugin wrote besides progress
}

// interruptKillAfter bounds how long checkInterrupt waits for the plugin to
// exit after ^C before it kills it (and reports the wait).
const interruptKillAfter = 30 * time.Second

// checkInterrupt types ^C on the plugin's terminal once its progress line
// shows between a quarter and three quarters of the pods listed, and times
// its exit. (The line lags the listing by up to 100ms, and pages arrive ahead
// of it: later, the listing may be over before ^C arrives.)
func checkInterrupt(t *testing.T, plugin string, args []string, pods int) *interruptReport {
	r := startOnTTY(t, plugin, args...)
	rep := &interruptReport{FirstPods: -1}
	var sent time.Time
	var kill *time.Timer
	for l := range r.lines {
		if !l.progress {
			rep.Other = append(rep.Other, l.text)
			continue
		}
		if rep.FirstPods < 0 {
			rep.FirstPods = l.pods
		}
		if !rep.Sent && l.pods >= pods/4 && l.pods <= pods*3/4 {
			if _, err := r.ptm.Write([]byte{0x03}); err != nil { // VINTR, ^C
				t.Errorf("bench-live: typing ^C: %v", err)
				continue
			}
			sent = time.Now()
			rep.Sent, rep.SentAt, rep.PodsListed = true, sent.Sub(r.start), l.pods
			kill = time.AfterFunc(interruptKillAfter, func() { _ = r.cmd.Process.Kill() })
		}
	}
	err := r.cmd.Wait()
	if kill != nil {
		kill.Stop()
	}
	rep.Exit, rep.ExitCode = time.Since(r.start), exitCode(err)
	if rep.Sent {
		rep.ExitAfter = time.Since(sent)
	}
	return rep
}

func (i *interruptReport) String() string {
	if !i.Sent {
		first := "no progress line"
		if i.FirstPods >= 0 {
			first = fmt.Sprintf("the first progress line showed %d pods", i.FirstPods)
		}
		return fmt.Sprintf("NOT EXERCISED: the progress line never showed 1/4 to 3/4 of the pods (%s; exit %d after %v); try a larger cluster or -tty-chunk-size",
			first, i.ExitCode, i.Exit.Round(time.Millisecond))
	}
	return fmt.Sprintf("^C at %v with %d pods listed; exited %v later with code %d; wrote %q",
		i.SentAt.Round(time.Millisecond), i.PodsListed, i.ExitAfter.Round(time.Millisecond), i.ExitCode, strings.Join(i.Other, " | "))
}

func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode() // -1 when killed by a signal
	default:
		return -2
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}
