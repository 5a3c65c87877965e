package load

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/utils/clock"
)

const (
	// progressDelay is how long a listing runs before the progress line
	// appears: quick listings print nothing.
	progressDelay = time.Second
	// progressInterval throttles the progress line to 10 updates per second.
	progressInterval = 100 * time.Millisecond
)

// counter follows the listing of one resource for the progress line. It is
// safe for concurrent use: pages are recorded by the pager's goroutine and
// items by the listing goroutine, while the progress goroutine reads.
type counter struct {
	listed  atomic.Int64 // items handed over so far
	fetched atomic.Int64 // items received in pages so far (ahead of listed by the pager's buffer)
	total   atomic.Int64 // fetched plus the server's remainingItemCount; -1 while unknown
}

func newCounter() *counter {
	c := &counter{}
	c.total.Store(-1)
	return c
}

// page records a page of n items. remaining is the page's remainingItemCount
// (nil when the server does not report it, e.g. for lists with a field
// selector) and last is true for the final page.
func (c *counter) page(n int, remaining *int64, last bool) {
	fetched := c.fetched.Add(int64(n))
	switch {
	case last:
		c.total.Store(fetched)
	case remaining != nil:
		c.total.Store(fetched + *remaining)
	}
}

// String returns "42,000/150,000" while the total is known and not reached,
// else "42,000".
func (c *counter) String() string {
	listed, total := c.listed.Load(), c.total.Load()
	if total > listed {
		return thousands(listed) + "/" + thousands(total)
	}
	return thousands(listed)
}

// StatusLine is a terminal whose last line a progress line may hold: the
// one mechanism by which everything else written there (notes, warnings,
// the transport's "waiting" note) clears that line first, so that nothing
// lands on it; the progress redraws it on its next update. Give the same
// StatusLine as ListOptions.Progress / FileOptions.Progress and as the
// writer of every other stderr output. Safe for concurrent use.
type StatusLine struct {
	mu    sync.Mutex
	out   io.Writer
	shown string // the progress line on the terminal now; "" for none
}

// NewStatusLine returns a StatusLine writing to out (the terminal).
func NewStatusLine(out io.Writer) *StatusLine { return &StatusLine{out: out} }

// Terminal is the writer beneath, for terminal checks.
func (s *StatusLine) Terminal() io.Writer { return s.out }

// Write clears the progress line, if one is shown, and writes p.
func (s *StatusLine) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shown != "" {
		if _, err := fmt.Fprintf(s.out, "\r%s\r", strings.Repeat(" ", len(s.shown))); err != nil {
			return 0, err
		}
		s.shown = ""
	}
	return s.out.Write(p)
}

// Show puts line on the terminal as the progress line (see show), for a
// progress other than the load's (scale-down's candidates); Clear takes it
// away. Both are safe for concurrent use with Write.
func (s *StatusLine) Show(line string) { s.show(line) }

// Clear removes the progress line shown, if any.
func (s *StatusLine) Clear() { _, _ = s.Write(nil) }

// show puts line in place of the line shown (carriage return, padded with
// spaces over a longer one); unchanged, it writes nothing.
func (s *StatusLine) show(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if line == s.shown {
		return
	}
	pad := ""
	if n := len(s.shown) - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(s.out, "\r%s%s", line, pad)
	s.shown = line
}

// end leaves line on the terminal, ended with a newline.
func (s *StatusLine) end(line string) {
	s.show(line)
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintln(s.out)
	s.shown = ""
}

// progress writes a single, updating "listed N nodes, M pods" line.
type progress struct {
	out                  *StatusLine
	clock                clock.WithTicker
	nodes, pods, objects *counter   // objects: nil when none are listed
	feed                 *sinkFeed  // nil or without a sink: nothing modelled while listing
	read                 *readCount // when reading files (nodes, pods and objects are nil)
	stop, done           chan struct{}
}

// startProgress starts writing progress to out for a listing that starts now;
// objects, when not nil, counts the objects of other kinds.
// Nothing is written during the first progressDelay; after that the line is
// rewritten (carriage return) at most every progressInterval, and Stop ends
// it with a newline. The ticker is created before startProgress returns, so a
// fake clock in tests sees it.
func startProgress(out io.Writer, clk clock.WithTicker, nodes, pods, objects *counter) *progress {
	return start(&progress{out: statusLine(out), clock: clk, nodes: nodes, pods: pods, objects: objects})
}

// startReadProgress is startProgress for reading files: "read 312 of 742
// MB, 5,000 nodes, 41,000 pods".
func startReadProgress(out io.Writer, clk clock.WithTicker, read *readCount, feed *sinkFeed) *progress {
	return start(&progress{out: statusLine(out), clock: clk, read: read, feed: feed})
}

// statusLine is out as a StatusLine: itself, or one of its own.
func statusLine(out io.Writer) *StatusLine {
	if s, ok := out.(*StatusLine); ok {
		return s
	}
	return NewStatusLine(out)
}

func start(p *progress) *progress {
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	clk := p.clock
	start := clk.Now()
	ticker := clk.NewTicker(progressInterval)
	go p.run(start, ticker)
	return p
}

func (p *progress) run(start time.Time, ticker clock.Ticker) {
	defer close(p.done)
	defer ticker.Stop()
	shown := false // the line was shown at least once
	for {
		select {
		case <-p.stop:
			if shown {
				p.out.end(p.line())
			}
			return
		case <-ticker.C():
			if p.clock.Since(start) < progressDelay {
				continue
			}
			// Redrawn when it changed, or when other output cleared it.
			p.out.show(p.line())
			shown = true
		}
	}
}

// Stop writes the final counts and a newline if the line was ever shown, and
// returns once the progress goroutine has exited: nothing is written to out
// after Stop returns.
func (p *progress) Stop() {
	close(p.stop)
	<-p.done
}

// readCount follows the reading of files for the progress line; safe for
// concurrent use.
type readCount struct {
	bytes atomic.Int64 // read so far
	total int64        // bytes to read; 0 when unknown
	nodes atomic.Int64 // kept so far
	pods  atomic.Int64 // kept so far
}

// countingReader counts what is read through it.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}

// megabytes formats n bytes in whole (decimal) megabytes: "742".
func megabytes(n int64) string { return thousands((n + 500_000) / 1_000_000) }

func (p *progress) line() string {
	if r := p.read; r != nil {
		size := megabytes(r.bytes.Load())
		if r.total > 0 && r.bytes.Load() < r.total {
			size += " of " + megabytes(r.total)
		}
		return fmt.Sprintf("read %s MB, %s, %s", size, plural(int(r.nodes.Load()), "node"), plural(int(r.pods.Load()), "pod")) + p.feed.modelled()
	}
	line := fmt.Sprintf("listed %s nodes, %s pods", p.nodes, p.pods)
	if p.objects != nil {
		line += fmt.Sprintf(", %s other objects", p.objects)
	}
	return line + p.feed.modelled()
}

// modelled is the progress line's part saying what the sink was given:
// "; modelled 5,000 nodes, 41,000 pods", or "" without a sink.
func (f *sinkFeed) modelled() string {
	if f == nil || f.sink == nil {
		return ""
	}
	return fmt.Sprintf("; modelled %s, %s", plural(int(f.nodes.Load()), "node"), plural(int(f.pods.Load()), "pod"))
}

// thousands formats n with comma separators: 150000 -> "150,000".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
