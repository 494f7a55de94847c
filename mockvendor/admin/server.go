package admin

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Server is the admin API listening on loopback. It closes with its fleet.
type Server struct {
	// URL is the server's base URL ("http://127.0.0.1:PORT").
	URL string
	// Token is the bearer token every request must carry.
	Token string

	srv  *http.Server
	ln   net.Listener
	done chan struct{}
	once sync.Once
	wg   sync.WaitGroup // Serve and the fleet watcher
	// active counts running handlers; Close waits for them.
	mu     sync.Mutex
	ended  bool
	active sync.WaitGroup
}

// MinTokenLen is the shortest admin token Start accepts.
const MinTokenLen = 16

// MaxConns caps the connections open at once on the admin listener; past
// it a connection is closed at once. The listener is the admin API's own,
// so a saturated fleet proxy (Limits.MaxConns) leaves it reachable.
const MaxConns = 64

// NewToken returns a random token of 32 hex characters.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Start serves the fleet's admin API on 127.0.0.1 at a free port. An empty
// token means a fresh random one (Server.Token). The server closes when the
// fleet closes, or with Close.
func Start(f *mockvendor.Fleet, token string) (*Server, error) {
	return StartAt(f, token, "127.0.0.1:0")
}

// StartAt is Start on a given loopback address ("127.0.0.1:8099").
func StartAt(f *mockvendor.Fleet, token, addr string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, errors.New("the admin API listens on a loopback address only")
	}
	if token == "" {
		token = NewToken()
	}
	if len(token) < MinTokenLen {
		return nil, fmt.Errorf("the admin token must be at least %d characters (it has %d); leave it empty for a random one", MinTokenLen, len(token))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), Token: token, ln: ln, done: make(chan struct{})}
	s.srv = &http.Server{
		Handler:           s.track(newHandler(f, token, s.done)),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		_ = s.srv.Serve((&mockvendor.ConnCap{Max: MaxConns}).Listen(ln, nil))
	}()
	go func() {
		defer s.wg.Done()
		select {
		case <-f.Done():
			s.shutdown()
		case <-s.done:
		}
	}()
	return s, nil
}

// track counts running handlers so Close can wait for them; requests that
// arrive while closing are refused.
func (s *Server) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.ended {
			s.mu.Unlock()
			http.Error(w, "closing", http.StatusServiceUnavailable)
			return
		}
		s.active.Add(1)
		s.mu.Unlock()
		defer s.active.Done()
		next.ServeHTTP(w, r)
	})
}

// shutdown ends the streams and closes the listener and every connection.
func (s *Server) shutdown() {
	s.once.Do(func() {
		s.mu.Lock()
		s.ended = true
		s.mu.Unlock()
		close(s.done)
		_ = s.srv.Close()
	})
}

// Close stops the server and waits until its goroutines have ended.
func (s *Server) Close() {
	s.shutdown()
	s.wg.Wait()
	s.active.Wait()
}
