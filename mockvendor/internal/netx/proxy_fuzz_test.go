package netx

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// FuzzProxy writes arbitrary bytes to a proxy in front of the default
// fleet's agent-b.example, agent-d.example and rpc.agent-d.example (stub
// hosts: see tStubFleet), half-closes, and reads what comes back. Inputs
// may name {canary} (a listener outside the fleet), {host} (a fleet host's
// own 127.0.0.1:PORT) and {proxy} (the proxy itself); they are replaced
// before sending. The proxy must never connect to the canary, never answer
// 5xx of its own (net/http's 501 and 505 for malformed requests aside),
// always finish (no hang), and report one OutsideFleet refusal for every
// refusal it answers.
func FuzzProxy(f *testing.F) {
	fl := tStubFleet(f, stubLimits{})
	canary, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { canary.Close() })
	var canaryHits atomic.Int64
	go func() {
		for {
			c, err := canary.Accept()
			if err != nil {
				return
			}
			canaryHits.Add(1)
			c.Close()
		}
	}()
	fleetHost := fl.host("rpc.agent-d.example").addr
	proxyAddr := fl.proxy.Addr()
	repl := strings.NewReplacer("{canary}", canary.Addr().String(), "{host}", fleetHost, "{proxy}", proxyAddr)

	f.Add([]byte("CONNECT {canary} HTTP/1.1\r\nHost: {canary}\r\n\r\n"))
	f.Add([]byte("CONNECT agent-d.example:443 HTTP/1.1\r\nHost: agent-d.example:443\r\n\r\n\x16\x03\x01\x00\x05hello"))
	f.Add([]byte("GET http://{canary}/ HTTP/1.1\r\nHost: {canary}\r\n\r\n"))
	f.Add([]byte("GET http://agent-d.example/.well-known/agent-card.json HTTP/1.1\r\nHost: agent-d.example\r\n\r\n"))
	f.Add([]byte("POST http://rpc.agent-d.example/a2a/v1 HTTP/1.1\r\nHost: rpc.agent-d.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"))
	f.Add([]byte("CONNECT {proxy} HTTP/1.1\r\nHost: {proxy}\r\n\r\n"))
	f.Add([]byte("CONNECT {host} HTTP/1.1\r\nHost: {host}\r\n\r\n"))
	f.Add([]byte("GET ftp://agent-b.example/ HTTP/1.1\r\nHost: agent-b.example\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		in := []byte(repl.Replace(string(raw)))
		hits := canaryHits.Load()
		seq := fl.count()
		conn, err := net.DialTimeout("tcp", proxyAddr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := conn.Write(in); err != nil && !fzPeerGone(err) {
			t.Fatalf("write: %v", err)
		}
		_ = conn.(*net.TCPConn).CloseWrite()
		out, err := io.ReadAll(conn)
		if err != nil && !fzPeerGone(err) {
			t.Fatalf("proxy did not finish: %v (read %d bytes)", err, len(out))
		}

		refusals := 0
		br := bufio.NewReader(bytes.NewReader(out))
		for {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				break
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			// net/http itself answers 501 and 505 to malformed requests;
			// any other 5xx (502: a failed dial) is the proxy's.
			if resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented && resp.StatusCode != http.StatusHTTPVersionNotSupported {
				t.Fatalf("proxy answered %d: %s", resp.StatusCode, body)
			}
			if resp.StatusCode == http.StatusForbidden && bytes.HasPrefix(body, []byte("a2a-conform proxy: ")) {
				refusals++
			}
			if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Status, "200 Connection established") {
				break // the rest is the tunnel
			}
		}
		if n := canaryHits.Load() - hits; n != 0 {
			t.Fatalf("the proxy connected outside the fleet (%d connections)", n)
		}
		// A refusal is reported before it is answered.
		recorded := 0
		for _, r := range fl.since(seq) {
			if r.Why == OutsideFleet {
				recorded++
				if r.Status != http.StatusForbidden {
					t.Fatalf("refusal reported with status %d", r.Status)
				}
			}
		}
		if recorded < refusals {
			t.Fatalf("%d refusals answered, %d recorded", refusals, recorded)
		}
	})
}

// fzPeerGone reports errors that mean the proxy closed the connection (a
// deadline is not one of them: that is a hang).
func fzPeerGone(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return false
	}
	return errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
