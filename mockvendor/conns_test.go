package mockvendor

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// tKeepAlive opens a connection to the proxy, makes one card fetch on it
// and leaves it open and idle (a keep-alive connection between requests);
// nil when the proxy refused it.
func tKeepAlive(f *Fleet) net.Conn {
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(f.ProxyURL(), "http://"), time.Second)
	if err != nil {
		return nil
	}
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	fmt.Fprintf(c, "GET http://%s%s HTTP/1.1\r\nHost: %s\r\n\r\n", HostCardD, CardPath, HostCardD)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		c.Close()
		return nil
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_ = c.SetDeadline(time.Time{})
	return c
}

// TestConnCapReclaimsIdle: one client holds more idle keep-alive
// connections than Limits.MaxConns (1,024) and keeps renewing them; every
// request of another client, each on a new connection, directly or through
// the proxy, is still answered, because a connection past the cap takes
// the place of the one idle the longest. Bounded: 1,100 held connections,
// 24 good requests, at most 1,000 renewals.
func TestConnCapReclaimsIdle(t *testing.T) {
	const held, good, renewals = 1100, 24, 1000
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}})
	var mu sync.Mutex
	var conns []net.Conn
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < held; i++ {
		if c := tKeepAlive(f); c != nil {
			conns = append(conns, c)
		}
	}
	stop := make(chan struct{})
	renewed := make(chan int)
	go func() { // the holder renews its connections, oldest first
		n := 0
		defer func() { renewed <- n }()
		for ; n < renewals; n++ {
			select {
			case <-stop:
				return
			default:
			}
			c := tKeepAlive(f)
			mu.Lock()
			if len(conns) > 0 {
				conns[0].Close()
				conns = conns[1:]
			}
			if c != nil {
				conns = append(conns, c)
			}
			mu.Unlock()
		}
	}()
	direct, proxied := tResolveTransport(f), f.Transport()
	direct.DisableKeepAlives, proxied.DisableKeepAlives = true, true
	start := time.Now()
	failed := 0
	for i := 0; i < good; i++ {
		c := &http.Client{Transport: direct, Timeout: 5 * time.Second}
		if i%2 == 1 {
			c.Transport = proxied
		}
		r, err := tTrySend(c)
		if err != nil || r.Status != 200 || tState(r) != "completed" {
			failed++
			t.Errorf("good request %d (%s): %v %s", i, map[bool]string{true: "via proxy", false: "direct"}[i%2 == 1], err, tBodyOf(r))
		}
		if open, _ := f.Conns(); open > int64(f.limits.MaxConns) {
			t.Errorf("%d connections open, over the cap of %d", open, f.limits.MaxConns)
		}
		time.Sleep(10 * time.Millisecond) // while the holder renews
	}
	elapsed := time.Since(start)
	close(stop)
	n := <-renewed
	open, refused := f.Conns()
	t.Logf("%d good requests (%d failed) in %v while %d connections were held and %d renewed; fleet: %d open, %d refused, %d reclaimed",
		good, failed, elapsed.Round(time.Millisecond), held, n, open, refused, f.ConnsReclaimed())
	if hits := f.LimitsHit(); len(hits) > 0 {
		t.Errorf("limits hit: %+v, want none (an idle connection reclaimed costs nothing)", hits)
	}
}

// tTrySend makes one 1.0 send to D's JSON-RPC endpoint and returns the
// decoded answer or the transport's error.
func tTrySend(c *http.Client) (*tResp, error) {
	req, _ := http.NewRequest(http.MethodPost, tRPCD, strings.NewReader(string(tEnvelope("SendMessage", tSendParams(Dialect10, "good", "")))))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	out := &tResp{Status: resp.StatusCode, Header: resp.Header, Body: b}
	_ = json.Unmarshal(b, &out.JSON)
	return out, nil
}

func tBodyOf(r *tResp) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf("HTTP %d %.200s", r.Status, r.Body)
}

// tFillWithBusy holds every place under Limits.MaxConns with a connection
// to the proxy inside a request (a body that never comes, until
// Limits.ReadTimeout), and waits until the fleet is answering each.
func tFillWithBusy(t *testing.T, f *Fleet) {
	t.Helper()
	for i := 0; i < f.limits.MaxConns; i++ {
		c := tDialProxy(t, f)
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "POST http://%s%s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", HostRPCD, DefaultRPCPath, HostRPCD)
	}
	deadline := time.Now().Add(3 * time.Second)
	for f.Trace().Open() < f.limits.MaxConns {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d connections inside a request", f.Trace().Open(), f.limits.MaxConns)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestConnCapAnswers: when every place under Limits.MaxConns holds a
// connection inside a request (none to reclaim), a new connection gets a
// readable answer, over TLS on a host as on the proxy: HTTP 503 with
// Retry-After: 1 and a body naming the limit; no task runs, the trace
// says why and Fleet.LimitsHit counts it.
func TestConnCapAnswers(t *testing.T) {
	cases := []struct {
		name string
		do   func(t *testing.T, f *Fleet) (*http.Response, error)
		host string // the trace event's host
	}{
		{"host over TLS", func(t *testing.T, f *Fleet) (*http.Response, error) {
			c := &http.Client{Transport: tResolveTransport(f), Timeout: 5 * time.Second}
			req, _ := http.NewRequest(http.MethodPost, tRPCD, strings.NewReader(string(tEnvelope("SendMessage", tSendParams(Dialect10, "refused", "")))))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("A2A-Version", "1.0")
			return c.Do(req)
		}, HostRPCD},
		{"gRPC host over h2", func(t *testing.T, f *Fleet) (*http.Response, error) {
			// HTTP/2 on a gRPC host is served on grpc-go's transport;
			// past the cap, on net/http's, which answers 503 as over
			// HTTP/1.1 (a gRPC client reads UNAVAILABLE).
			h2 := tH2Transport(f)
			defer h2.CloseIdleConnections()
			req, _ := http.NewRequest(http.MethodPost, "https://"+HostRPCD+"/lf.a2a.v1.A2AService/SendMessage", strings.NewReader("\x00\x00\x00\x00\x00"))
			req.Header.Set("Content-Type", "application/grpc")
			return (&http.Client{Transport: h2, Timeout: 5 * time.Second}).Do(req)
		}, HostRPCD},
		{"proxy", func(t *testing.T, f *Fleet) (*http.Response, error) {
			c := tDialProxy(t, f)
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(3 * time.Second))
			fmt.Fprintf(c, "GET http://%s%s HTTP/1.1\r\nHost: %s\r\n\r\n", HostCardD, CardPath, HostCardD)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body = io.NopCloser(strings.NewReader(string(b)))
			}
			return resp, err
		}, HostCardD},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxConns: 8, ReadTimeout: 3 * time.Second}})
			tFillWithBusy(t, f)
			seq := f.Trace().Seq()
			start := time.Now()
			resp, err := tc.do(t, f)
			if err != nil {
				t.Fatalf("no answer past the cap after %v: %v", time.Since(start).Round(time.Millisecond), err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(b), "Limits.MaxConns") {
				t.Errorf("answered HTTP %d Retry-After %q %q, want 503, Retry-After: 1 and a body naming Limits.MaxConns", resp.StatusCode, resp.Header.Get("Retry-After"), b)
			}
			t.Logf("answered %d in %v: %s", resp.StatusCode, time.Since(start).Round(time.Millisecond), strings.TrimSpace(string(b)))
			ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Op == OpConnLimit })
			if ev.Host != tc.host || ev.Status != 503 || !strings.Contains(ev.Note, "Limits.MaxConns") {
				t.Errorf("trace %+v", ev)
			}
			for _, e := range tEvents(f, seq) {
				if e.Op == OpSend {
					t.Errorf("a send ran past the cap: %+v", e)
				}
			}
			if hits := f.LimitsHit(); len(hits) != 1 || hits[0].Limit != "MaxConns" {
				t.Errorf("limits hit %+v, want MaxConns", hits)
			}
		})
	}
}

// TestConnCapAnswerBound: the answers past Limits.MaxConns are bounded
// too: at most MaxOverCapAnswers connections are being answered at once,
// each closed within OverCapLife even when it sends nothing; one more is
// closed at once (on the proxy after its plain 503).
func TestConnCapAnswerBound(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxConns: 4, ReadTimeout: 5 * time.Second}})
	tFillWithBusy(t, f)
	silent := make([]net.Conn, MaxOverCapAnswers)
	for i := range silent {
		silent[i] = tDialProxy(t, f)
		defer silent[i].Close()
	}
	tWaitFor(t, func() bool { return f.conns.Answering() == MaxOverCapAnswers })
	start := time.Now()
	extra := tDialProxy(t, f)
	defer extra.Close()
	_ = extra.SetReadDeadline(start.Add(3 * time.Second))
	got, _ := io.ReadAll(extra)
	if !strings.HasPrefix(string(got), "HTTP/1.1 503") || !strings.Contains(string(got), "Retry-After: 1") || time.Since(start) > 200*time.Millisecond {
		t.Errorf("one past %d answers: %q after %v, want a plain 503 with Retry-After at once", MaxOverCapAnswers, got, time.Since(start))
	}
	_ = silent[0].SetReadDeadline(start.Add(OverCapLife + 2*time.Second))
	_, err := io.ReadAll(silent[0])
	elapsed := time.Since(start)
	if err != nil || elapsed > OverCapLife+time.Second {
		t.Errorf("a silent connection past the cap was closed after %v (%v), want within %v", elapsed, err, OverCapLife)
	}
	tWaitFor(t, func() bool { return f.conns.Answering() == 0 })
	_, refused := f.Conns()
	t.Logf("%d answered at once, one more closed at once; a silent one closed after %v; %d refused in all", MaxOverCapAnswers, elapsed.Round(time.Millisecond), refused)
}
