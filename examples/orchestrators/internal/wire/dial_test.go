package wire_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/internal/wire"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestDialer reaches a fleet host the three ways an HTTP transport does
// (the fleet's CONNECT proxy, a resolve map, and neither for a host that
// does not exist), then speaks TLS and HTTP/1.1 over the connection: the
// host's certificate verifies for its name, so the route is the host's.
func TestDialer(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ca, err := f.WriteCAFile()
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := wire.NewTransport(wire.ClientOptions{CAFile: ca, Resolve: f.Resolve()})
	if err != nil {
		t.Fatal(err)
	}
	addr := mockvendor.HostVendorA + ":443"
	cases := []struct {
		name string
		t    *http.Transport
		addr string
		ok   bool
	}{
		{"through the proxy", f.Transport(), addr, true},
		{"through the resolve map", resolved, addr, true},
		{"the proxy refuses a host outside the fleet", f.Transport(), "nowhere.example:443", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			conn, err := wire.Dialer{Transport: c.t}.DialContext(ctx, c.addr)
			if !c.ok {
				if err == nil {
					conn.Close()
					t.Fatal("dialled a host the proxy does not route")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			host, _, _ := strings.Cut(c.addr, ":")
			tc := tls.Client(conn, &tls.Config{RootCAs: f.TLSConfig().RootCAs, ServerName: host, MinVersion: tls.VersionTLS12})
			if err := tc.HandshakeContext(ctx); err != nil {
				t.Fatalf("TLS with %s: %v", host, err)
			}
			req, _ := http.NewRequest(http.MethodGet, "https://"+host+mockvendor.CardPath, nil)
			if err := req.Write(tc); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(tc), req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("card fetch over the dialled connection: %s", resp.Status)
			}
		})
	}
}

// TestFenceAdmits: a bare host:port, like a URL, is admitted when its
// host was allowed.
func TestFenceAdmits(t *testing.T) {
	f := &wire.Fence{}
	f.Allow("rpc.agent-d.example:443")
	f.Allow("https://agent-b.example/a2a")
	for in, want := range map[string]bool{
		"rpc.agent-d.example:443":         true,
		"rpc.agent-d.example":             true,
		"https://RPC.agent-d.example:443": true,
		"agent-b.example":                 true,
		"https://agent-b.example/x":       true,
		"other.example:443":               false,
	} {
		if got := f.Admits(in); got != want {
			t.Errorf("Admits(%q) = %v, want %v", in, got, want)
		}
	}
}
