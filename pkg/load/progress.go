package load

import (
	"fmt"
	"io"
	"strconv"
	"strings"
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

// progress writes a single, updating "listed N nodes, M pods" line.
type progress struct {
	out                  io.Writer
	clock                clock.WithTicker
	nodes, pods, objects *counter // objects: nil when none are listed
	stop, done           chan struct{}
}

// startProgress starts writing progress to out for a listing that starts now;
// objects, when not nil, counts the objects of other kinds.
// Nothing is written during the first progressDelay; after that the line is
// rewritten (carriage return) at most every progressInterval, and Stop ends
// it with a newline. The ticker is created before startProgress returns, so a
// fake clock in tests sees it.
func startProgress(out io.Writer, clk clock.WithTicker, nodes, pods, objects *counter) *progress {
	p := &progress{out: out, clock: clk, nodes: nodes, pods: pods, objects: objects, stop: make(chan struct{}), done: make(chan struct{})}
	start := clk.Now()
	ticker := clk.NewTicker(progressInterval)
	go p.run(start, ticker)
	return p
}

func (p *progress) run(start time.Time, ticker clock.Ticker) {
	defer close(p.done)
	defer ticker.Stop()
	var shown string
	for {
		select {
		case <-p.stop:
			if shown != "" {
				p.show(p.line(), shown)
				fmt.Fprintln(p.out)
			}
			return
		case <-ticker.C():
			if p.clock.Since(start) < progressDelay {
				continue
			}
			if line := p.line(); line != shown {
				p.show(line, shown)
				shown = line
			}
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

func (p *progress) line() string {
	if p.objects != nil {
		return fmt.Sprintf("listed %s nodes, %s pods, %s other objects", p.nodes, p.pods, p.objects)
	}
	return fmt.Sprintf("listed %s nodes, %s pods", p.nodes, p.pods)
}

// show overwrites the previous line, padding with spaces when it was longer.
func (p *progress) show(line, previous string) {
	pad := ""
	if n := len(previous) - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(p.out, "\r%s%s", line, pad)
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
