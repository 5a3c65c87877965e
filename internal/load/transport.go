package load

// This file keeps a live command from hanging on a server that does not
// answer: one bound from the first dial to the first byte of the first
// answer, shared by every request made until then (GET /version and the
// listings), never granted twice; after the first answer, a bound on the
// wait for each answer's headers; and a note on stderr when the server has
// said nothing for a few seconds.

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/rest"
)

const (
	// DefaultHeaderTimeout is the bound when --request-timeout is not
	// given: on the time from the first dial to the first byte of the
	// first answer (connection, TLS handshake and the answer's headers,
	// for every request made until then), and after that on the wait for
	// the headers of each answer (one page of a listing). A server sends a
	// page's headers within a second or so; 15 s leaves room for a slow
	// one and still ends a silent one well within the 20 s any input may
	// take. -f URL uses the same bound.
	DefaultHeaderTimeout = 15 * time.Second
	// WaitingNoteAfter is the silence after which a note says what the
	// plugin is waiting for, once.
	WaitingNoteAfter = 5 * time.Second
)

// Stages of a connection, as a timeout names where it stopped.
const (
	stageConnect   = "connect"   // no TCP connection yet
	stageHandshake = "handshake" // connected, TLS handshake not complete
	stageAnswer    = "answer"    // request sent, no answer's headers yet
)

// HeaderTimeoutError is the error of a request whose answer did not start
// within the bound (DefaultHeaderTimeout, or --request-timeout).
type HeaderTimeoutError struct {
	After time.Duration
	// Flag: the bound is --request-timeout.
	Flag bool
	// Stage is where the connection stopped: "connect", "handshake"
	// or "answer" (the default).
	Stage string
}

func (e *HeaderTimeoutError) Error() string {
	switch e.Stage {
	case stageConnect:
		return fmt.Sprintf("no connection within %s", e.After)
	case stageHandshake:
		return fmt.Sprintf("no TLS handshake within %s", e.After)
	}
	return fmt.Sprintf("no answer within %s", e.After)
}

// Timeout is false on purpose: the bound is final, and client-go retries
// a watch request whose error is a net.Error timeout (ten times, a second
// apart), which would be the silent second attempt the bound rules out.
func (e *HeaderTimeoutError) Timeout() bool { return false }

// Temporary is false: the request is not retried as is (net.Error).
func (e *HeaderTimeoutError) Temporary() bool { return false }

// deadlineWaitingError is the error of a request whose deadline
// (--request-timeout) passed before its answer started, after the first
// answer: client-go's context deadline can end the wait before http.Client's
// Timeout does, with a bare "context deadline exceeded".
type deadlineWaitingError struct{ err error }

func (e *deadlineWaitingError) Error() string { return e.err.Error() + " (awaiting headers)" }

func (e *deadlineWaitingError) Unwrap() error { return e.err }

// firstAnswer is the state a client's requests share until the server
// first answers: the one deadline, where the connection got to, and the
// timeout that ended it (every later request fails with it at once, so
// that no request silently tries again).
type firstAnswer struct {
	mu       sync.Mutex
	deadline time.Time // zero until the first request starts
	answered bool
	stage    string
	failed   error
}

// begin returns, for a request starting at now, its deadline and whether
// it falls in the first-answer phase; err is the timeout that ended that
// phase, if it ended so.
func (f *firstAnswer) begin(now time.Time, bound time.Duration) (deadline time.Time, first bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.answered {
		return now.Add(bound), false, nil
	}
	if f.failed != nil {
		return time.Time{}, true, f.failed
	}
	if f.deadline.IsZero() {
		f.deadline = now.Add(bound)
		f.stage = stageConnect
	}
	return f.deadline, true, nil
}

// reached records how far a first-phase request got.
func (f *firstAnswer) reached(stage string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.answered && rank(stage) > rank(f.stage) {
		f.stage = stage
	}
}

func rank(stage string) int {
	switch stage {
	case stageHandshake:
		return 1
	case stageAnswer:
		return 2
	}
	return 0
}

// timedOut ends the first-answer phase with a timeout; it returns the
// error every request of the phase reports.
func (f *firstAnswer) timedOut(bound time.Duration, flag bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed == nil {
		f.failed = &HeaderTimeoutError{After: bound, Flag: flag, Stage: f.stage}
	}
	return f.failed
}

func (f *firstAnswer) answer() {
	f.mu.Lock()
	f.answered = true
	f.mu.Unlock()
}

// silenceGuard is the round tripper ConfigureClient puts in front of
// client-go's transport: it bounds the first-answer phase (first) and,
// after it, the wait for each answer's headers (timeout; 0: never, when
// --request-timeout bounds each request already), and writes note to
// notes once, the first time a request has waited for noteAfter.
type silenceGuard struct {
	next      http.RoundTripper
	bound     time.Duration // the first-answer bound
	flag      bool          // bound is --request-timeout
	timeout   time.Duration // each later request's header timeout
	first     *firstAnswer
	noteAfter time.Duration
	notes     io.Writer
	note      string
	noted     *atomic.Bool
}

func (g *silenceGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	deadline, first, failed := g.first.begin(time.Now(), g.bound)
	if failed != nil {
		return nil, failed
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	var timer, noteTimer *time.Timer
	if wait := g.timeout; first || wait > 0 {
		if first {
			wait = time.Until(deadline)
			ctx = httptrace.WithClientTrace(ctx, g.trace())
		}
		timer = time.AfterFunc(wait, func() { cancel(errBound) })
	}
	if g.notes != nil && g.noteAfter > 0 && !g.noted.Load() {
		noteTimer = time.AfterFunc(g.noteAfter, func() {
			if g.noted.CompareAndSwap(false, true) {
				fmt.Fprintln(g.notes, g.note)
			}
		})
	}
	resp, err := g.next.RoundTrip(req.WithContext(ctx))
	if noteTimer != nil {
		noteTimer.Stop()
	}
	timedOut := timer != nil && !timer.Stop()
	if err != nil {
		defer cancel(nil)
		if req.Context().Err() != nil && !errors.Is(req.Context().Err(), context.DeadlineExceeded) {
			return nil, err // Ctrl-C
		}
		switch {
		case first && (timedOut || isTimeout(err) || errors.Is(err, context.DeadlineExceeded) || isNetTimeout(err)):
			// The bound, --request-timeout or a TLS handshake timeout
			// ended the first-answer phase: one error for all of it.
			return nil, fmt.Errorf("%w (%v)", g.first.timedOut(g.bound, g.flag), err)
		case timedOut:
			return nil, fmt.Errorf("%w (%v)", &HeaderTimeoutError{After: g.timeout}, err)
		case errors.Is(req.Context().Err(), context.DeadlineExceeded):
			// --request-timeout (client-go's deadline on the request)
			// ended the wait for the answer's headers.
			return nil, &deadlineWaitingError{err: err}
		}
		return nil, err
	}
	g.first.answer()
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// errBound is the cause of a request the guard's timer canceled.
var errBound = errors.New("bound reached")

// trace records, for the first-answer phase, how far the connection got.
func (g *silenceGuard) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				g.first.reached(stageHandshake)
			}
		},
		TLSHandshakeDone: func(_ tls.ConnectionState, err error) {
			if err == nil {
				g.first.reached(stageAnswer)
			}
		},
		GotConn: func(info httptrace.GotConnInfo) {
			if info.Reused {
				g.first.reached(stageAnswer)
			}
		},
		WroteRequest: func(httptrace.WroteRequestInfo) { g.first.reached(stageAnswer) },
	}
}

// isNetTimeout reports whether err is a timeout of the transport (a TLS
// handshake timeout, a dial timeout).
func isNetTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// WrappedRoundTripper lets client-go reach the transport underneath
// (k8s.io/apimachinery's net.RoundTripperWrapper), e.g. to cancel.
func (g *silenceGuard) WrappedRoundTripper() http.RoundTripper { return g.next }

// cancelOnClose releases the request's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// guardSilence wraps cfg's transport with a silenceGuard. The bound is
// cfg.Timeout (--request-timeout) when set, else timeout: on the first-answer
// phase, and, without --request-timeout (which bounds each request already),
// on the wait for each later answer's headers. The note, when notes is not
// nil, names cfg.Host. The TLS handshake timeout of client-go's transport
// (10 s) becomes the bound, so that the bound alone ends a handshake that
// never completes.
func guardSilence(cfg *rest.Config, notes io.Writer, timeout, noteAfter time.Duration) {
	bound, flag, each := timeout, false, timeout
	if cfg.Timeout > 0 {
		bound, flag, each = cfg.Timeout, true, 0 // --request-timeout wins
	}
	note := EscapeLine(fmt.Sprintf("note: waiting for the API server at %s (Ctrl-C to stop)", cfg.Host))
	noted := &atomic.Bool{}
	first := &firstAnswer{answered: bound <= 0} // no bound: no first-answer phase
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		if t, ok := rt.(*http.Transport); ok && bound > 0 {
			// A copy: client-go shares its transports between clients.
			t = t.Clone()
			t.TLSHandshakeTimeout = bound
			rt = t
		}
		return &silenceGuard{next: rt, bound: bound, flag: flag, timeout: each, first: first,
			noteAfter: noteAfter, notes: notes, note: note, noted: noted}
	})
}
