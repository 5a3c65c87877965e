package watch

import (
	"fmt"
	"sync"
	"time"
)

// outage follows the connection to the API server after the initial state:
// one note when requests start failing (the first cause and the time),
// nothing while they keep failing (client-go's reflectors retry with
// exponential backoff, capped at 30 s, each retry's URL differing by a
// random timeout= parameter, so repeats are recognised by this state and
// not by their text), and one note once every failing resource is watched
// again, with the outage's length and the changes the first batch after
// reconnecting carried.
type outage struct {
	mu      sync.Mutex
	notes   *noteWriter
	now     func() time.Time
	failing map[string]bool // resources whose last request failed
	since   time.Time       // start of the outage; zero when connected
	// back: reconnected, the note waits for the next batch; its length.
	back    bool
	away    time.Duration
	backAt  time.Time
	changes int64 // the change count when the watch ran again
}

func newOutage(notes *noteWriter, now func() time.Time) *outage {
	return &outage{notes: notes, now: now, failing: map[string]bool{}}
}

// failed records a failed request of resource; the first of an outage
// writes the note.
func (o *outage) failed(resource, cause string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failing[resource] = true
	if !o.since.IsZero() {
		return
	}
	o.since, o.back = o.now(), false
	o.notes.always(fmt.Sprintf("%s: %s; retrying with backoff (Ctrl-C to stop)", clockTime(o.since), cause))
}

// down reports whether an outage is under way.
func (o *outage) down() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.since.IsZero()
}

// watching records that a watch of resource runs again; once none fails,
// the outage is over. changes is the change count at that time. It
// reports whether the outage just ended.
func (o *outage) watching(resource string, changes int64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.failing, resource)
	if o.since.IsZero() || len(o.failing) > 0 {
		return false
	}
	o.backAt = o.now()
	o.away, o.back, o.changes = o.backAt.Sub(o.since), true, changes
	o.since = time.Time{}
	return true
}

// report writes the reconnection note, once, with the changes counted
// since the watch ran again (changes is the count now).
func (o *outage) report(changes int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.back {
		return
	}
	o.back = false
	n := changes - o.changes
	what := fmt.Sprintf("%d changes", n)
	if n == 1 {
		what = "1 change"
	}
	away := o.away.Round(time.Second)
	if o.away < time.Second {
		away = o.away.Round(10 * time.Millisecond)
	}
	o.notes.always(fmt.Sprintf("%s: reconnected after %s; %s while away", clockTime(o.backAt), away, what))
}

// clockTime is the wall-clock time of a note: "14:02:03".
func clockTime(t time.Time) string { return t.Format("15:04:05") }
