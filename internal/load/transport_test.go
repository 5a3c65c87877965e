package load

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/schedcache/kubectl-schedcache/internal/fakeapi"
)

// lockedBuffer is written by the note's timer goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func listWith(t *testing.T, cfg *rest.Config) error {
	t.Helper()
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = List(context.Background(), client, ListOptions{Host: cfg.Host})
	return err
}

// TestSilentServer: a server that accepts the connection and never
// answers ends the listing with the response-header timeout, after a note
// naming the server; --request-timeout (cfg.Timeout) replaces the default
// timeout and is named in the error.
func TestSilentServer(t *testing.T) {
	host := fakeapi.NewSilent(t).URL

	cfg := &rest.Config{Host: host}
	notes := &lockedBuffer{}
	guardSilence(cfg, notes, 500*time.Millisecond, 50*time.Millisecond)
	err := listWith(t, cfg)
	want := "cannot reach the API server at " + host + " in time: it accepted the connection, then sent no answer within 500ms (raise it with --request-timeout)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Kind != Unreachable {
		t.Errorf("error %#v, want an *Error of kind Unreachable", err)
	}
	if got, want := notes.String(), "note: waiting for the API server at "+host+" (Ctrl-C to stop)\n"; got != want {
		t.Errorf("notes %q, want %q", got, want)
	}

	cfg = &rest.Config{Host: host, Timeout: 300 * time.Millisecond}
	guardSilence(cfg, nil, time.Hour, time.Hour)
	err = listWith(t, cfg)
	if want := "in time: it accepted the connection, then sent no answer within --request-timeout"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("with --request-timeout: error %v, want one containing %q", err, want)
	}
}

// TestQuickServerNoNote: an answer before the note's delay writes no note,
// and the guard lets the body be read after the headers.
func TestQuickServerNoNote(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		kind := "NodeList"
		if strings.Contains(r.URL.Path, "pods") {
			kind = "PodList"
		}
		_, _ = w.Write([]byte(`{"kind": "` + kind + `", "apiVersion": "v1", "metadata": {}, "items": []}`))
	}))
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL}
	notes := &lockedBuffer{}
	guardSilence(cfg, notes, time.Hour, time.Hour)
	if err := listWith(t, cfg); err != nil {
		t.Fatal(err)
	}
	if got := notes.String(); got != "" {
		t.Errorf("notes %q, want none", got)
	}
}

// TestUnauthorizedOverHTTP: a 401 from a plain-http server says that no
// credentials are sent there (kubeconfig credentials are used over TLS
// only, by client-go's clientcmd as by kubectl), not that they were
// rejected.
func TestUnauthorizedOverHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": "Unauthorized", "reason": "Unauthorized", "code": 401}`))
	}))
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL}
	ConfigureClient(cfg, nil)
	err := listWith(t, cfg)
	want := "the API server at " + srv.URL + " asks for credentials (Unauthorized), and none are sent over plain http: use its https:// address"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestSilentURL: -f URL on a server that accepts the connection and never
// answers fails after one response-header timeout, without the retries
// that server errors get, and says what happened.
func TestSilentURL(t *testing.T) {
	srv := fakeapi.NewSilent(t)
	url := srv.URL + "/cluster.yaml"
	_, err := fetchWithin(context.Background(), url, 200*time.Millisecond)
	want := `unable to read URL "` + url + `": the server accepted the connection but sent no answer within 200ms`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if n := srv.Connections(); n != 1 {
		t.Errorf("%d connections, want 1 (a timeout is not retried)", n)
	}
}

// firstAnswerCase runs GET /version then the listing, as every live
// command does, against a server that never answers; it returns the
// time both took and the listing's error.
func firstAnswerCase(t *testing.T, cfg *rest.Config, ctx context.Context) (time.Duration, error) {
	t.Helper()
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, verr := client.Discovery().RESTClient().Get().AbsPath("/version").Do(ctx).Raw()
	if verr == nil {
		t.Fatal("GET /version succeeded on a silent server")
	}
	_, err = List(ctx, client, ListOptions{Host: cfg.Host})
	return time.Since(start), err
}

// TestOneBoundUntilFirstAnswer: GET /version and the listing after it
// share one bound from the first dial to the first answer: a silent server
// ends both within the bound (not once each), the listing makes no second
// connection, and its error says where the connection stopped and which
// bound ended it: the default (raise it with --request-timeout) or
// --request-timeout, which replaces it.
func TestOneBoundUntilFirstAnswer(t *testing.T) {
	const bound = 400 * time.Millisecond
	const slack = 300 * time.Millisecond
	for _, tc := range []struct {
		name  string
		tls   bool
		flag  bool
		cause string
	}{
		{name: "silent", cause: "it accepted the connection, then sent no answer within 400ms (raise it with --request-timeout)"},
		{name: "silent, --request-timeout", flag: true, cause: "it accepted the connection, then sent no answer within --request-timeout (400ms)"},
		{name: "frozen TLS handshake", tls: true, cause: "it accepted the connection, then did not complete the TLS handshake within 400ms (raise it with --request-timeout)"},
		{name: "frozen TLS handshake, --request-timeout", tls: true, flag: true, cause: "it accepted the connection, then did not complete the TLS handshake within --request-timeout (400ms)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeapi.NewSilent(t)
			host := srv.URL
			if tc.tls {
				host = srv.TLSURL
			}
			cfg := &rest.Config{Host: host}
			timeout := bound
			if tc.flag {
				cfg.Timeout, timeout = bound, time.Hour
			}
			guardSilence(cfg, nil, timeout, time.Hour)
			took, err := firstAnswerCase(t, cfg, context.Background())
			want := "cannot reach the API server at " + host + " in time: " + tc.cause
			if err == nil || err.Error() != want {
				t.Errorf("error %v, want %q", err, want)
			}
			if took > bound+slack {
				t.Errorf("took %s, want within the bound %s (+%s)", took, bound, slack)
			}
			if n := srv.Connections(); n != 1 {
				t.Errorf("%d connections, want 1 (no second attempt after the bound)", n)
			}
		})
	}
}

// TestTLSHandshakeTimeoutIsTheBound: client-go's transport gives up a TLS
// handshake after 10 s; behind the guard that timeout is the bound, so
// that the bound alone ends a frozen handshake.
func TestTLSHandshakeTimeoutIsTheBound(t *testing.T) {
	cfg := &rest.Config{Host: "https://127.0.0.1:1"}
	guardSilence(cfg, nil, 20*time.Second, time.Hour)
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var guard *silenceGuard
	for rt != nil && guard == nil {
		if g, ok := rt.(*silenceGuard); ok {
			guard = g
			break
		}
		w, ok := rt.(interface{ WrappedRoundTripper() http.RoundTripper })
		if !ok {
			break
		}
		rt = w.WrappedRoundTripper()
	}
	if guard == nil {
		t.Fatal("no silenceGuard in the transport")
	}
	tr, ok := guard.next.(*http.Transport)
	if !ok || tr.TLSHandshakeTimeout != 20*time.Second {
		t.Errorf("transport %T behind the guard, want an *http.Transport with TLSHandshakeTimeout 20s", guard.next)
	}
}

// TestCancelDuringHandshake: Ctrl-C (ctx canceled) while a server holds
// the TLS handshake ends the listing at once, as a cancellation.
func TestCancelDuringHandshake(t *testing.T) {
	srv := fakeapi.NewSilent(t)
	cfg := &rest.Config{Host: srv.TLSURL}
	guardSilence(cfg, nil, time.Hour, time.Hour)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once the server holds a connection: the handshake is under way.
	go func() {
		<-srv.Accepted()
		cancel()
	}()
	start := time.Now()
	_, err = List(ctx, client, ListOptions{Host: cfg.Host})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want one wrapping context.Canceled", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("returned %s after the start, want at once after the cancel", took)
	}
}
