package admin_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/go-json-experiment/json/jsontext"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/testenv"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/mockvendor/admin"
)

// TestTraceOutputBounded sends request bodies that grow when re-indented
// or break strict parsers, and checks that GET /admin/trace stays within
// a small multiple of what was sent and is strict JSON.
func TestTraceOutputBounded(t *testing.T) {
	const depth = 9_990
	deep := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}`
	cases := []struct {
		name string
		body string
	}{
		{"nested-9990", deep},
		{"invalid-utf8", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"SendMessage\",\"params\":{\"x\":\"\xfe\xc0\"}}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t)
			u, _ := e.f.HostURL(mockvendor.HostRPCD)
			resp, err := e.fc.Post(u+mockvendor.DefaultRPCPath, "application/json", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			status, _, b := e.do(t, http.MethodGet, "/admin/trace?host="+mockvendor.HostRPCD, "", "Bearer "+token)
			if status != http.StatusOK {
				t.Fatalf("GET /admin/trace answered %d: %s", status, b)
			}
			if !jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true)) {
				t.Fatalf("GET /admin/trace is not strict JSON: %q", b[:min(len(b), 300)])
			}
			// The events' array, an event, then what it keeps.
			if d := testenv.JSONDepth(t, b); d > mockvendor.MaxTracedDepth+2 {
				t.Errorf("GET /admin/trace is nested %d deep, more than %d", d, mockvendor.MaxTracedDepth+2)
			}
			if limit := 2*len(c.body) + 4096; len(b) > limit {
				t.Errorf("GET /admin/trace is %d bytes for a %d-byte body (limit %d)", len(b), len(c.body), limit)
			}
			if !bytes.Contains(b, []byte(`"method":"SendMessage"`)) {
				t.Errorf("the event lost its method: %.300s", b)
			}
			t.Logf("%s: body %d bytes, /admin/trace %d bytes", c.name, len(c.body), len(b))
		})
	}
}

// gatedConfig is a valid region-gate config of about n bytes.
func gatedConfig(n int) string {
	return `{"type":"region-gate","config":{"gatedSkills":["` + strings.Repeat("s", n) + `"]}}`
}

// TestAdminCaps holds the admin API to its caps: the Host header, faults
// per vendor, a fault's config size, all configs together, and open trace
// streams; each refusal has its status and the API keeps answering.
func TestAdminCaps(t *testing.T) {
	bearer := "Bearer " + token
	cases := []struct {
		name string
		// setup makes requests that must succeed; then the request below
		// must be refused with want.
		setup  func(t *testing.T, e *env)
		method string
		path   string
		body   string
		host   string
		want   int
	}{
		{name: "rebinding-host", method: "GET", path: "/admin/vendors", host: "attacker.example", want: http.StatusForbidden},
		{name: "rebinding-host-port", method: "GET", path: "/admin/vendors", host: "attacker.example:80", want: http.StatusForbidden},
		{name: "localhost", method: "GET", path: "/admin/vendors", host: "localhost:1234", want: http.StatusOK},
		{name: "fault-config-size", method: "POST", path: "/admin/vendors/d/faults", body: gatedConfig(admin.MaxFaultConfig), want: http.StatusRequestEntityTooLarge},
		{
			name: "faults-per-vendor",
			setup: func(t *testing.T, e *env) {
				for i := 0; i < admin.MaxFaults; i++ {
					if st, _, b := e.do(t, "POST", "/admin/vendors/d/faults", `{"type":"stub-endpoint"}`, bearer); st != http.StatusCreated {
						t.Fatalf("fault %d: %d %s", i, st, b)
					}
				}
			},
			method: "POST", path: "/admin/vendors/d/faults", body: `{"type":"stub-endpoint"}`, want: http.StatusConflict,
		},
		{
			name: "config-total",
			setup: func(t *testing.T, e *env) {
				for i := 0; i < admin.MaxConfigTotal/(admin.MaxFaultConfig-100); i++ {
					v := []string{"b", "c", "d"}[i%3]
					if st, _, b := e.do(t, "POST", "/admin/vendors/"+v+"/faults", gatedConfig(admin.MaxFaultConfig-200), bearer); st != http.StatusCreated {
						t.Fatalf("fault %d: %d %.200s", i, st, b)
					}
				}
			},
			method: "POST", path: "/admin/vendors/d/faults", body: gatedConfig(admin.MaxFaultConfig - 200), want: http.StatusRequestEntityTooLarge,
		},
		{
			name: "streams",
			setup: func(t *testing.T, e *env) {
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				for i := 0; i < admin.MaxStreams; i++ {
					openStream(t, e, ctx, "")
				}
			},
			method: "GET", path: "/admin/trace/stream", want: http.StatusServiceUnavailable,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t)
			if c.setup != nil {
				c.setup(t, e)
			}
			var rd io.Reader
			if c.body != "" {
				rd = strings.NewReader(c.body)
			}
			req, _ := http.NewRequest(c.method, e.srv.URL+c.path, rd)
			req.Header.Set("Authorization", bearer)
			if c.host != "" {
				req.Host = c.host
			}
			resp, err := e.c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("answered %d %.300s, want %d", resp.StatusCode, b, c.want)
			}
			if st, _, _ := e.do(t, "GET", "/admin/faults", "", bearer); st != http.StatusOK {
				t.Errorf("the API answers %d afterwards", st)
			}
			t.Logf("%d %.200s", resp.StatusCode, b)
		})
	}
}

// TestAdminShortToken checks that Start refuses a token under
// MinTokenLen characters and names the minimum.
func TestAdminShortToken(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tok := range []string{"x", "s3cret", strings.Repeat("a", admin.MinTokenLen-1)} {
		if s, err := admin.Start(f, tok); err == nil || !strings.Contains(err.Error(), "at least 16") {
			if s != nil {
				s.Close()
			}
			t.Errorf("Start with a %d-character token: %v, want a refusal naming the minimum", len(tok), err)
		}
	}
}

// TestAdminSlowTokenlessBody sends a request without the token whose body
// trickles in: the API must answer 401 and close the connection at once.
func TestAdminSlowTokenlessBody(t *testing.T) {
	e := start(t)
	c, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /admin/vendors/d/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n{")
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(5 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("the connection was still open after %v: %v", time.Since(start), err)
	}
	if !strings.HasPrefix(string(got), "HTTP/1.1 401") || time.Since(start) > time.Second {
		t.Errorf("after %v: %.100q", time.Since(start), got)
	}
	t.Logf("401 and closed after %v", time.Since(start).Round(time.Millisecond))
}

// BenchmarkIdleStreams measures an ordinary fleet request (a card fetch)
// with no trace stream open, then with 500 attempted idle streams (clients
// that never read; at most MaxStreams are served), and reports the ratio
// of the two medians in the same run.
func BenchmarkIdleStreams(b *testing.B) {
	for i := 0; i < b.N; i++ {
		f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		srv, err := admin.Start(f, token)
		if err != nil {
			b.Fatal(err)
		}
		c := f.Client()
		u, _ := f.HostURL(mockvendor.HostCardD)
		median := func() time.Duration {
			var ds []time.Duration
			for j := 0; j < 201; j++ {
				start := time.Now()
				resp, err := c.Get(u + mockvendor.CardPath)
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				ds = append(ds, time.Since(start))
			}
			slices.Sort(ds)
			return ds[len(ds)/2]
		}
		base := median()
		var conns []net.Conn
		served := 0
		for j := 0; j < 500; j++ {
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				break
			}
			fmt.Fprintf(conn, "GET /admin/trace/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n", token)
			conns = append(conns, conn)
		}
		time.Sleep(300 * time.Millisecond)
		for _, conn := range conns {
			_ = conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			buf := make([]byte, 12)
			if n, _ := io.ReadFull(conn, buf); n == 12 && string(buf) == "HTTP/1.1 200" {
				served++
			}
		}
		during := median()
		b.ReportMetric(float64(during)/float64(base), "latency-ratio")
		b.ReportMetric(float64(served), "streams-served")
		b.ReportMetric(0, "ns/op")
		b.Logf("card fetch median %v without streams, %v with %d of 500 idle streams served", base, during, served)
		for _, conn := range conns {
			conn.Close()
		}
		c.CloseIdleConnections()
		srv.Close()
		f.Close()
	}
}

// TestAdminReachableDuringFlood fills the fleet's connection cap with idle
// connections to the proxy (each past the cap takes the place of the
// oldest) and checks that the admin API, on its own listener, still
// answers at once.
func TestAdminReachableDuringFlood(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.Config{Vendors: []mockvendor.VendorConfig{mockvendor.VendorD()}, Limits: mockvendor.Limits{MaxConns: 50}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	srv, err := admin.Start(f, token)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for i := 0; i < 60; i++ {
		c, err := net.Dial("tcp", strings.TrimPrefix(f.ProxyURL(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	time.Sleep(100 * time.Millisecond)
	if open, _ := f.Conns(); open != 50 || f.ConnsReclaimed() != 10 {
		t.Errorf("the fleet holds %d connections and reclaimed %d idle ones, want 50 and 10", open, f.ConnsReclaimed())
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/admin/vendors", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	resp, err := (&http.Client{Timeout: 2 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("the admin API does not answer during the flood: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the admin API answered %d", resp.StatusCode)
	}
	t.Logf("admin answered %d in %v with the fleet's connections full", resp.StatusCode, time.Since(start).Round(time.Microsecond))
}
