package load

// This file keeps a live listing from hanging silently on a server that
// accepts the connection and never answers: a response-header timeout on
// every request (unless --request-timeout bounds the requests already), and
// a note on stderr when the server has said nothing for a few seconds.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"k8s.io/client-go/rest"
)

const (
	// DefaultHeaderTimeout bounds the wait for the headers of each answer
	// of the API server (one page of a listing) when --request-timeout is
	// not given: a server that accepts the connection and never answers
	// ends in an error instead of a hang. A server sends a page's headers
	// within a second or so; 15 s leaves room for a slow one and still ends
	// a silent one well within the 20 s any input may take. -f URL uses the
	// same bound.
	DefaultHeaderTimeout = 15 * time.Second
	// WaitingNoteAfter is the silence after which a note says what the
	// plugin is waiting for, once.
	WaitingNoteAfter = 5 * time.Second
)

// HeaderTimeoutError is the error of a request whose answer did not start
// within the response-header timeout.
type HeaderTimeoutError struct {
	After time.Duration
}

func (e *HeaderTimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s", e.After)
}

// Timeout marks the error as a timeout (net.Error).
func (e *HeaderTimeoutError) Timeout() bool { return true }

// Temporary is false: the request is not retried as is (net.Error).
func (e *HeaderTimeoutError) Temporary() bool { return false }

// deadlineWaitingError is the error of a request whose deadline
// (--request-timeout) passed before its answer started: client-go's context
// deadline can end the wait before http.Client's Timeout does, with a bare
// "context deadline exceeded".
type deadlineWaitingError struct{ err error }

func (e *deadlineWaitingError) Error() string { return e.err.Error() + " (awaiting headers)" }

func (e *deadlineWaitingError) Unwrap() error { return e.err }

// silenceGuard is the round tripper ConfigureClient puts in front of
// client-go's: it cancels a request whose answer has not started after
// timeout (0: never), and writes note to notes once, the first time a
// request has waited for noteAfter.
type silenceGuard struct {
	next      http.RoundTripper
	timeout   time.Duration
	noteAfter time.Duration
	notes     io.Writer
	note      string
	noted     *atomic.Bool
}

func (g *silenceGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	var timer, noteTimer *time.Timer
	if g.timeout > 0 {
		timer = time.AfterFunc(g.timeout, func() { cancel(&HeaderTimeoutError{After: g.timeout}) })
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
		if timedOut {
			if cause, ok := context.Cause(ctx).(*HeaderTimeoutError); ok {
				err = fmt.Errorf("%w (%v)", cause, err)
			}
		} else if errors.Is(req.Context().Err(), context.DeadlineExceeded) {
			// --request-timeout (client-go's deadline on the request)
			// ended the wait for the answer's headers.
			err = &deadlineWaitingError{err: err}
		}
		cancel(nil)
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
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

// guardSilence wraps cfg's transport with a silenceGuard: the response-header
// timeout is DefaultHeaderTimeout unless cfg.Timeout (--request-timeout)
// bounds each request already, and the note, when notes is not nil, names
// cfg.Host.
func guardSilence(cfg *rest.Config, notes io.Writer, timeout, noteAfter time.Duration) {
	if cfg.Timeout > 0 {
		timeout = 0 // --request-timeout wins
	}
	note := EscapeLine(fmt.Sprintf("note: waiting for the API server at %s (Ctrl-C to stop)", cfg.Host))
	noted := &atomic.Bool{}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return &silenceGuard{next: rt, timeout: timeout, noteAfter: noteAfter, notes: notes, note: note, noted: noted}
	})
}
