package netx

import (
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// stubHost is a fleet host for the proxy's tests: its listener echoes
// what a tunnel sends until the client half-closes; its handler answers
// a plain HTTP request "ok <name> <path>" after reading the body.
type stubHost struct {
	vendor, name, addr string
}

func (h *stubHost) Addr() string                 { return h.addr }
func (h *stubHost) Names() (vendor, host string) { return h.vendor, h.name }

func (h *stubHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, _ = io.WriteString(w, "ok "+h.name+" "+r.URL.Path)
}

// stubFleet is what the proxy needs of a fleet, with the hosts of the
// default fleet the FuzzProxy corpus names; it keeps every refusal.
type stubFleet struct {
	hosts map[string]*stubHost // by "name:443" and "127.0.0.1:PORT"
	conns *FleetCap
	proxy *Proxy

	mu       sync.Mutex
	refusals []Refusal
}

func (s *stubFleet) Lookup(authority string) Host {
	if h := s.hosts[authority]; h != nil {
		return h
	}
	return nil
}

func (s *stubFleet) Refused(r Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals = append(s.refusals, r)
}

// since returns the refusals after the first n.
func (s *stubFleet) since(n int) []Refusal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Refusal(nil), s.refusals[n:]...)
}

func (s *stubFleet) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.refusals)
}

// host returns the stub host of that name.
func (s *stubFleet) host(name string) *stubHost { return s.hosts[net.JoinHostPort(name, "443")] }

// stubLimits are the caps and timeouts of a stub fleet's proxy.
type stubLimits struct {
	maxConns, maxTunnels int
	readTimeout          time.Duration
}

// tStubFleet starts echo listeners for agent-b.example, agent-d.example
// and rpc.agent-d.example and a proxy in front of them (the fleet's
// default limits where l leaves zero); the test's cleanup closes all.
func tStubFleet(tb testing.TB, l stubLimits) *stubFleet {
	tb.Helper()
	if l.maxConns == 0 {
		l.maxConns = 1024
	}
	if l.maxTunnels == 0 {
		l.maxTunnels = 256
	}
	if l.readTimeout == 0 {
		l.readTimeout = 10 * time.Second
	}
	s := &stubFleet{hosts: map[string]*stubHost{}, conns: NewFleetCap(int64(l.maxConns))}
	for _, hc := range []struct{ vendor, name string }{{"b", "agent-b.example"}, {"d", "agent-d.example"}, {"d", "rpc.agent-d.example"}} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { ln.Close() })
		go tEcho(ln)
		h := &stubHost{vendor: hc.vendor, name: hc.name, addr: ln.Addr().String()}
		s.hosts[net.JoinHostPort(h.name, "443")], s.hosts[h.addr] = h, h
	}
	var active sync.WaitGroup
	p, err := ListenProxy(ProxyConfig{
		Router: s, Reporter: s, Conns: s.conns,
		ReadTimeout: l.readTimeout, IdleTimeout: 60 * time.Second, MaxTunnels: l.maxTunnels,
		Enter: func() bool { active.Add(1); return true }, Leave: active.Done,
	})
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Serve() }()
	tb.Cleanup(func() { p.Close(); <-done; active.Wait() })
	s.proxy = p
	return s
}

// tEcho echoes every connection of ln until its client half-closes.
func tEcho(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(30 * time.Second))
			_, _ = io.Copy(c, c)
		}()
	}
}

// tWaitFor waits up to 2 s for cond.
func tWaitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("condition not met within 2 s")
}
