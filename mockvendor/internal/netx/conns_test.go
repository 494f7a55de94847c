package netx

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// tListen returns a loopback listener closed at the test's end.
func tListen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// TestConnCapListen: past Max a new connection reads the refusal and is
// closed, counted as refused; a closed connection gives its place back,
// once however often it is closed.
func TestConnCapListen(t *testing.T) {
	for _, refusal := range []string{"", "busy\n"} {
		t.Run(fmt.Sprintf("refusal=%q", refusal), func(t *testing.T) {
			cc := &ConnCap{Max: 1}
			var r []byte
			if refusal != "" {
				r = []byte(refusal)
			}
			ln := cc.Listen(tListen(t), r)
			accepted := make(chan net.Conn, 4)
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					accepted <- c
				}
			}()
			first, _ := net.Dial("tcp", ln.Addr().String())
			defer first.Close()
			c1 := <-accepted
			second, _ := net.Dial("tcp", ln.Addr().String())
			defer second.Close()
			_ = second.SetReadDeadline(time.Now().Add(2 * time.Second))
			got, err := io.ReadAll(second)
			if err != nil || string(got) != refusal {
				t.Errorf("past the cap read %q (%v), want %q and EOF", got, err, refusal)
			}
			if open, refused := cc.Counts(); open != 1 || refused != 1 {
				t.Errorf("counts %d open, %d refused; want 1, 1", open, refused)
			}
			c1.Close()
			c1.Close()
			if open, _ := cc.Counts(); open != 0 {
				t.Errorf("%d open after close, want 0", open)
			}
			third, _ := net.Dial("tcp", ln.Addr().String())
			defer third.Close()
			select {
			case c := <-accepted:
				c.Close()
			case <-time.After(2 * time.Second):
				t.Error("no place after the first connection closed")
			}
		})
	}
}

// tCapServer serves under fc: an over-cap request is refused with
// RefuseOverCap and reported to rep as vendor "v", host "h"; others wait
// for their body and answer "ok".
func tCapServer(t *testing.T, fc *FleetCap, rep Reporter, tlsCfg *tls.Config) string {
	t.Helper()
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if OverCap(r) {
				fc.RefuseOverCap(w, r, rep, "v", "h")
				return
			}
			_, _ = io.Copy(io.Discard, r.Body)
			_, _ = io.WriteString(w, "ok")
		}),
		ReadTimeout: 3 * time.Second,
		ErrorLog:    log.New(io.Discard, "", 0),
		ConnState:   fc.ConnState,
		ConnContext: MarkOverCap,
	}
	raw := tListen(t)
	ln := fc.Listen(&tagListener{raw}, nil)
	if tlsCfg != nil {
		ln = tls.NewListener(ln, tlsCfg)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return raw.Addr().String()
}

// tagListener wraps each accepted connection as a fleet host tags its own
// (a layer with NetConn between TLS and the cap's counted connection).
type tagListener struct{ net.Listener }

type tagConn struct{ net.Conn }

func (c *tagConn) NetConn() net.Conn { return c.Conn }

func (l *tagListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &tagConn{c}, nil
}

// tGet makes one GET on a new connection (TLS when cfg is set) and
// returns the status, Retry-After and body.
func tGet(t *testing.T, addr string, cfg *tls.Config) (int, string, string) {
	t.Helper()
	var c net.Conn
	var err error
	if cfg != nil {
		c, err = tls.Dial("tcp", addr, cfg)
	} else {
		c, err = net.Dial("tcp", addr)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	fmt.Fprint(c, "GET /p HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

// TestFleetCap: at the cap, a new connection takes the place of an idle
// one (Reclaimed); when the one open is inside a request, the new one is
// answered 503 and reported PastCap, over TLS (the counted connection
// found under the TLS and tag layers) as over plain TCP.
func TestFleetCap(t *testing.T) {
	ca, err := NewCA()
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.Issue("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	serverTLS := &tls.Config{Certificates: []tls.Certificate{leaf}}
	clientTLS := &tls.Config{RootCAs: ca.Pool(), ServerName: "127.0.0.1"}
	for _, tc := range []struct {
		name           string
		server, client *tls.Config
	}{{"tcp", nil, nil}, {"tls", serverTLS, clientTLS}} {
		t.Run(tc.name, func(t *testing.T) {
			fc := NewFleetCap(1)
			rep := &stubFleet{}
			addr := tCapServer(t, fc, rep, tc.server)
			// An idle keep-alive connection is reclaimed for a new one.
			idle, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer idle.Close()
			tWaitFor(t, func() bool { open, _ := fc.Counts(); return open == 1 })
			if status, _, body := tGet(t, addr, tc.client); status != 200 || body != "ok" {
				t.Errorf("with one idle connection open: %d %q, want 200 ok", status, body)
			}
			if fc.Reclaimed() != 1 {
				t.Errorf("%d reclaimed, want 1", fc.Reclaimed())
			}
			// A connection inside a request is not reclaimed: the next is
			// answered 503. (The server side of the last connection goes
			// first, so that the one open is the one inside its request.)
			tWaitFor(t, func() bool { open, _ := fc.Counts(); return open == 0 })
			busy, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer busy.Close()
			if tc.client != nil {
				busy = tls.Client(busy, tc.client)
			}
			fmt.Fprint(busy, "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{")
			tWaitFor(t, func() bool { open, _ := fc.Counts(); return open == 1 && fc.cc.busyConns() == 1 }) // inside its request
			status, retry, body := tGet(t, addr, tc.client)
			if status != 503 || retry != "1" || !strings.Contains(body, "1 connections are open") {
				t.Errorf("past the cap: %d Retry-After %q %q, want 503, 1 and the cap", status, retry, body)
			}
			want := Refusal{Why: PastCap, Vendor: "v", Host: "h", Method: "GET", Path: "/p", Status: 503, Max: 1}
			if got := rep.since(0); len(got) != 1 || got[0] != want {
				t.Errorf("reported %+v, want [%+v]", got, want)
			}
			tWaitFor(t, func() bool { return fc.Answering() == 0 })
		})
	}
}

// TestReclaimedUnwraps: Reclaimed finds the counted connection under TLS
// and a tag layer, and says false for a connection no cap counts.
func TestReclaimedUnwraps(t *testing.T) {
	k := &countedConn{}
	k.reclaimed.Store(true)
	cases := []struct {
		name string
		c    net.Conn
		want bool
	}{
		{"counted", k, true},
		{"tag", &tagConn{k}, true},
		{"tls over tag", tls.Server(&tagConn{k}, &tls.Config{}), true},
		{"uncounted", tls.Server(&tagConn{&net.TCPConn{}}, &tls.Config{}), false},
		{"not reclaimed", &tagConn{&countedConn{}}, false},
	}
	for _, tc := range cases {
		if got := Reclaimed(tc.c); got != tc.want {
			t.Errorf("%s: Reclaimed = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// busyConns counts the connections the cap holds that are inside a
// request or hijacked (a FleetCap's, whose servers report states).
func (cc *ConnCap) busyConns() int {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	n := 0
	for k := range cc.conns {
		if k.busy.Load() {
			n++
		}
	}
	return n
}
