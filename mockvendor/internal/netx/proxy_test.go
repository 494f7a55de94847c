package netx

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// tProxyDo writes one raw request to the proxy and reads the answer; after
// a 200 to a CONNECT it sends "ping" through the tunnel, half-closes and
// returns what came back as the body.
func tProxyDo(t *testing.T, s *stubFleet, raw string) (int, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", s.proxy.Addr(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	if strings.HasPrefix(raw, "CONNECT") && resp.StatusCode == http.StatusOK {
		_, _ = io.WriteString(c, "ping")
		_ = c.(*net.TCPConn).CloseWrite()
		b, _ := io.ReadAll(br)
		return resp.StatusCode, string(b)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(b)
}

// TestProxyRoutes: the proxy reaches the fleet hosts the Router names, by
// CONNECT (a tunnel to the host's listener) and by absolute-form plain
// HTTP (the host's handler, port 80 meaning the named host); every other
// target is answered 403 and reported as OutsideFleet.
func TestProxyRoutes(t *testing.T) {
	s := tStubFleet(t, stubLimits{})
	d := s.host("agent-d.example")
	cases := []struct {
		name, raw string
		status    int
		body      string   // prefix of the answer (the tunnel's echo)
		refused   *Refusal // the refusal reported, if any
	}{
		{"connect by name", "CONNECT agent-d.example:443 HTTP/1.1\r\nHost: agent-d.example:443\r\n\r\n", 200, "ping", nil},
		{"connect by address", "CONNECT " + d.addr + " HTTP/1.1\r\nHost: " + d.addr + "\r\n\r\n", 200, "ping", nil},
		{"plain http, no port", "GET http://rpc.agent-d.example/a2a HTTP/1.1\r\nHost: rpc.agent-d.example\r\n\r\n", 200, "ok rpc.agent-d.example /a2a", nil},
		{"plain http, port 80", "POST http://agent-b.example:80/x HTTP/1.1\r\nHost: agent-b.example\r\nContent-Length: 2\r\n\r\n{}", 200, "ok agent-b.example /x", nil},
		{"https absolute form", "GET https://agent-b.example/y HTTP/1.1\r\nHost: agent-b.example\r\n\r\n", 200, "ok agent-b.example /y", nil},
		{"connect outside", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 403, "a2a-conform proxy: example.com:443 is not", &Refusal{Why: OutsideFleet, Host: "example.com:443", Method: "CONNECT", Status: 403}},
		{"connect to port 80", "CONNECT agent-b.example:80 HTTP/1.1\r\nHost: agent-b.example:80\r\n\r\n", 200, "ping", nil},
		{"connect to another port", "CONNECT agent-b.example:8443 HTTP/1.1\r\nHost: agent-b.example:8443\r\n\r\n", 403, "a2a-conform proxy:", &Refusal{Why: OutsideFleet, Host: "agent-b.example:8443", Method: "CONNECT", Status: 403}},
		{"plain http outside", "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n", 403, "a2a-conform proxy:", &Refusal{Why: OutsideFleet, Host: "example.com", Method: "GET", Status: 403}},
		{"ftp scheme", "GET ftp://agent-b.example/ HTTP/1.1\r\nHost: agent-b.example\r\n\r\n", 403, "a2a-conform proxy:", &Refusal{Why: OutsideFleet, Host: "agent-b.example", Method: "GET", Status: 403}},
		{"origin form", "GET / HTTP/1.1\r\nHost: agent-b.example\r\n\r\n", 400, "a2a-conform proxy: send CONNECT", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := s.count()
			status, body := tProxyDo(t, s, tc.raw)
			if status != tc.status || !strings.HasPrefix(body, tc.body) {
				t.Errorf("answered %d %q, want %d %q...", status, body, tc.status, tc.body)
			}
			got := s.since(n)
			switch {
			case tc.refused == nil && len(got) != 0:
				t.Errorf("reported %+v, want no refusal", got)
			case tc.refused != nil && (len(got) != 1 || got[0] != *tc.refused):
				t.Errorf("reported %+v, want [%+v]", got, *tc.refused)
			}
		})
	}
}

// TestProxyTunnelCap: a CONNECT past MaxTunnels is answered 503 with
// Retry-After: 1 and counted (TunnelsRefused); once the tunnel before it
// ends, a CONNECT gets through again.
func TestProxyTunnelCap(t *testing.T) {
	s := tStubFleet(t, stubLimits{maxTunnels: 1})
	c, err := net.DialTimeout("tcp", s.proxy.Addr(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprint(c, "CONNECT agent-d.example:443 HTTP/1.1\r\nHost: agent-d.example:443\r\n\r\n")
	if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("first tunnel: %v %v", resp, err)
	}
	status, body := tProxyDo(t, s, "CONNECT agent-b.example:443 HTTP/1.1\r\nHost: agent-b.example:443\r\n\r\n")
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "Limits.MaxTunnels") || s.proxy.TunnelsRefused() != 1 {
		t.Errorf("second tunnel: %d %q, %d refused; want 503 naming Limits.MaxTunnels, 1 refused", status, body, s.proxy.TunnelsRefused())
	}
	c.Close()
	tWaitFor(t, func() bool { return s.proxy.tunnels.Load() == 0 })
	if status, body := tProxyDo(t, s, "CONNECT agent-b.example:443 HTTP/1.1\r\nHost: agent-b.example:443\r\n\r\n"); status != 200 || body != "ping" {
		t.Errorf("after the first tunnel ended: %d %q, want 200 and the echo", status, body)
	}
}

// TestProxyOverCap: with every place under the cap held by a connection
// inside a request, a request on a new connection is answered 503 with
// Retry-After: 1 and reported as PastCap with the vendor and host its
// target names (the target itself when it names none).
func TestProxyOverCap(t *testing.T) {
	cases := []struct {
		name, raw string
		want      Refusal
	}{
		{"plain http", "GET http://agent-d.example/x HTTP/1.1\r\nHost: agent-d.example\r\n\r\n", Refusal{Why: PastCap, Vendor: "d", Host: "agent-d.example", Method: "GET", Path: "/x", Status: 503, Max: 1}},
		{"connect", "CONNECT agent-b.example:443 HTTP/1.1\r\nHost: agent-b.example:443\r\n\r\n", Refusal{Why: PastCap, Vendor: "b", Host: "agent-b.example", Method: "CONNECT", Status: 503, Max: 1}},
		{"outside", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", Refusal{Why: PastCap, Host: "example.com:443", Method: "CONNECT", Status: 503, Max: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tStubFleet(t, stubLimits{maxConns: 1, readTimeout: 3 * time.Second})
			busy, err := net.DialTimeout("tcp", s.proxy.Addr(), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer busy.Close()
			fmt.Fprint(busy, "POST http://agent-d.example/ HTTP/1.1\r\nHost: agent-d.example\r\nContent-Length: 100\r\n\r\n{")
			tWaitFor(t, func() bool { open, _ := s.conns.Counts(); return open == 1 })
			tWaitFor(t, func() bool { return s.conns.cc.busyConns() == 1 }) // the held connection is inside its request
			n := s.count()
			status, body := tProxyDo(t, s, tc.raw)
			if status != http.StatusServiceUnavailable || !strings.Contains(body, "Limits.MaxConns") {
				t.Errorf("answered %d %q, want 503 naming Limits.MaxConns", status, body)
			}
			if got := s.since(n); len(got) != 1 || got[0] != tc.want {
				t.Errorf("reported %+v, want [%+v]", got, tc.want)
			}
			if _, refused := s.conns.Counts(); refused != 1 {
				t.Errorf("%d refused, want 1", refused)
			}
		})
	}
}
