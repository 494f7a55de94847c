package mockvendor

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tOpenFDs counts the descriptors this process holds (Linux).
func tOpenFDs(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// TestTunnelDescriptors opens 200 CONNECT tunnels, each with a TLS
// handshake and one card fetch through it, and counts the descriptors the
// process holds per tunnel (the test's own client end included) while they
// stay open and after they close.
func TestTunnelDescriptors(t *testing.T) {
	const n = 200
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}})
	before := tOpenFDs(t)
	var conns []net.Conn
	for i := 0; i < n; i++ {
		raw, status := tConnect(t, f, HostCardD+":443")
		if status != 200 {
			t.Fatalf("tunnel %d: CONNECT answered %d", i, status)
		}
		tc := tls.Client(raw, &tls.Config{ServerName: HostCardD, RootCAs: f.CA().Pool()})
		_ = tc.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := tc.Write([]byte("GET " + CardPath + " HTTP/1.1\r\nHost: " + HostCardD + "\r\n\r\n")); err != nil {
			t.Fatalf("tunnel %d: %v", i, err)
		}
		buf := make([]byte, 4096)
		if _, err := tc.Read(buf); err != nil {
			t.Fatalf("tunnel %d: %v", i, err)
		}
		conns = append(conns, tc)
	}
	open := tOpenFDs(t)
	for _, c := range conns {
		c.Close()
	}
	time.Sleep(300 * time.Millisecond)
	after := tOpenFDs(t)
	per := float64(open-before) / n
	t.Logf("%d tunnels: %d descriptors before, %d open (%.2f per tunnel, client end included), %d after close", n, before, open, per, after)
	if per > 4.1 {
		t.Errorf("%.2f descriptors per tunnel, want at most 4 (client end, proxy end, proxy to host, host end)", per)
	}
	if after > before+4 {
		t.Errorf("%d descriptors after closing every tunnel, %d before", after, before)
	}
}

// TestConnBounds holds the proxy to its Limits: idle keep-alive
// connections and idle tunnels are closed after IdleTimeout, a body that
// stalls on the absolute-form path is cut after ReadTimeout, a header over
// 64 KiB is refused with 431, and past
// MaxTunnels and MaxConns (every connection inside a request) the proxy
// answers 503 with Retry-After. Each case must end within its bound.
func TestConnBounds(t *testing.T) {
	const idle, read = 300 * time.Millisecond, 300 * time.Millisecond
	limits := Limits{IdleTimeout: idle, ReadTimeout: read, MaxTunnels: 4, MaxConns: 12}
	cases := []struct {
		name string
		// open sets the connection up and returns it; the proxy must then
		// close it (or answer want) within bound.
		open  func(t *testing.T, f *Fleet) net.Conn
		want  string // the start of what the proxy answers ("" = it just closes)
		bound time.Duration
	}{
		{
			name: "idle-keep-alive",
			open: func(t *testing.T, f *Fleet) net.Conn {
				c := tDialProxy(t, f)
				fmt.Fprintf(c, "GET http://%s%s HTTP/1.1\r\nHost: %s\r\n\r\n", HostCardD, CardPath, HostCardD)
				if _, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil {
					t.Fatal(err)
				}
				return c
			},
			bound: idle + time.Second,
		},
		{
			name: "idle-tunnel",
			open: func(t *testing.T, f *Fleet) net.Conn {
				c, status := tConnect(t, f, HostCardD+":443")
				if status != 200 {
					t.Fatalf("CONNECT answered %d", status)
				}
				return c
			},
			bound: idle + time.Second,
		},
		{
			name: "stalled-body",
			open: func(t *testing.T, f *Fleet) net.Conn {
				c := tDialProxy(t, f)
				fmt.Fprintf(c, "POST http://%s%s HTTP/1.1\r\nHost: %s\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\"", HostRPCD, DefaultRPCPath, HostRPCD)
				return c
			},
			want:  "HTTP/1.1 200", // the JSON-RPC parse error for what arrived in time
			bound: read + time.Second,
		},
		{
			name: "huge-header",
			open: func(t *testing.T, f *Fleet) net.Conn {
				c := tDialProxy(t, f)
				fmt.Fprintf(c, "GET http://%s%s HTTP/1.1\r\nHost: %s\r\nX-Pad: %s\r\n\r\n", HostCardD, CardPath, HostCardD, strings.Repeat("p", 100<<10))
				return c
			},
			want:  "HTTP/1.1 431",
			bound: time.Second,
		},
		{
			name: "tunnels-past-cap",
			open: func(t *testing.T, f *Fleet) net.Conn {
				for i := 0; i < limits.MaxTunnels; i++ {
					if c, status := tConnect(t, f, HostCardD+":443"); status == 200 {
						t.Cleanup(func() { c.Close() })
					}
				}
				c := tDialProxy(t, f)
				fmt.Fprintf(c, "CONNECT %s:443 HTTP/1.1\r\nHost: %s:443\r\n\r\n", HostCardD, HostCardD)
				return c
			},
			want:  "HTTP/1.1 503",
			bound: time.Second,
		},
		{
			name: "conns-past-cap",
			open: func(t *testing.T, f *Fleet) net.Conn {
				tFillWithBusy(t, f) // none idle: nothing to reclaim
				c := tDialProxy(t, f)
				fmt.Fprintf(c, "GET http://%s%s HTTP/1.1\r\nHost: %s\r\n\r\n", HostCardD, CardPath, HostCardD)
				return c
			},
			want:  "HTTP/1.1 503",
			bound: time.Second,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: limits})
			conn := c.open(t, f)
			defer conn.Close()
			start := time.Now()
			_ = conn.SetReadDeadline(start.Add(c.bound + time.Second))
			got, err := io.ReadAll(conn)
			elapsed := time.Since(start)
			if errors.Is(err, syscall.ECONNRESET) {
				err = nil // closed with the client's bytes unread (huge-header)
			}
			if err != nil {
				t.Fatalf("the proxy kept the connection open for %v (%v)", elapsed, err)
			}
			if elapsed > c.bound {
				t.Errorf("closed after %v, bound %v", elapsed, c.bound)
			}
			if !strings.HasPrefix(string(got), c.want) || c.want == "" && len(got) > 0 {
				t.Errorf("the proxy answered %q, want %q", got, c.want)
			}
			if strings.HasPrefix(c.want, "HTTP/1.1 503") && !strings.Contains(string(got), "Retry-After: 1") {
				t.Errorf("a refusal without Retry-After: %q", got)
			}
			t.Logf("closed after %v", elapsed.Round(time.Millisecond))
		})
	}
}

// tDialProxy opens a plain TCP connection to the fleet's proxy.
func tDialProxy(t *testing.T, f *Fleet) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(f.ProxyURL(), "http://"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
