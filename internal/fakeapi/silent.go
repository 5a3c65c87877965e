package fakeapi

import (
	"net"
	"sync"
	"testing"
)

// Silent is a server that accepts connections and never answers: the
// hang a live command must not wait on forever. Close it with t.Cleanup
// (NewSilent registers that), which closes the connections too.
type Silent struct {
	// URL is http://127.0.0.1:PORT.
	URL string
	// TLSURL is https://127.0.0.1:PORT: to a TLS client the server
	// accepts the connection and never completes the handshake.
	TLSURL string

	mu       sync.Mutex
	conns    []net.Conn
	accepted chan struct{} // closed at the first connection
}

// NewSilent starts a Silent server on a free port of 127.0.0.1.
func NewSilent(t testing.TB) *Silent {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Silent{URL: "http://" + l.Addr().String(), TLSURL: "https://" + l.Addr().String(), accepted: make(chan struct{})}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			if len(s.conns) == 1 {
				close(s.accepted)
			}
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = l.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			_ = c.Close()
		}
	})
	return s
}

// Connections is the number of connections accepted so far.
func (s *Silent) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Accepted is closed once the server holds a connection.
func (s *Silent) Accepted() <-chan struct{} { return s.accepted }
