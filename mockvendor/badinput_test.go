package mockvendor

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

const tReadTimeout = 300 * time.Millisecond

// tBadInputFleet is vendor D with a short read timeout.
func tBadInputFleet(t *testing.T) *Fleet {
	return tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{ReadTimeout: tReadTimeout}})
}

// TestBadInput sends requests that are not valid A2A JSON-RPC calls.
func TestBadInput(t *testing.T) {
	f := tBadInputFleet(t)
	c := tClient(t, f, tViaProxy)
	msg03 := `{"kind":"message","role":"user","messageId":"m1","parts":[{"kind":"text","text":"hi"}]}`
	cases := []struct {
		name    string
		version string
		body    string
		code    int
	}{
		{"malformed JSON", "", `{"jsonrpc":"2.0","method":`, -32700},
		{"empty body", "", ``, -32700},
		{"trailing garbage", "", `{"jsonrpc":"2.0","method":"message/send","id":1} x`, -32700},
		{"not UTF-8 JSON", "", "\xff\xfe", -32700},
		{"a number", "", `42`, -32600},
		{"a string", "", `"message/send"`, -32600},
		{"null", "", `null`, -32600},
		{"jsonrpc 1.0", "", `{"jsonrpc":"1.0","method":"message/send","id":1,"params":{}}`, -32600},
		{"jsonrpc missing", "", `{"method":"message/send","id":1,"params":{}}`, -32600},
		{"jsonrpc a number", "", `{"jsonrpc":2.0,"method":"message/send","id":1,"params":{}}`, -32600},
		{"method a number", "", `{"jsonrpc":"2.0","method":5,"id":1}`, -32600},
		{"method empty", "", `{"jsonrpc":"2.0","method":"","id":1}`, -32600},
		{"method missing", "", `{"jsonrpc":"2.0","id":1}`, -32600},
		{"id an object", "", `{"jsonrpc":"2.0","method":"message/send","id":{},"params":{}}`, -32600},
		{"id a bool", "", `{"jsonrpc":"2.0","method":"message/send","id":true,"params":{}}`, -32600},
		{"batch", "", `[{"jsonrpc":"2.0","method":"message/send","id":1,"params":{"message":` + msg03 + `}}]`, -32600},
		{"empty batch", "", `[]`, -32600},
		{"unknown method", "", `{"jsonrpc":"2.0","method":"tasks/frobnicate","id":1,"params":{}}`, -32601},
		{"unknown 1.0 method", "1.0", `{"jsonrpc":"2.0","method":"Frobnicate","id":1,"params":{}}`, -32601},
		{"message missing", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":{}}`, -32602},
		{"message null", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":{"message":null}}`, -32602},
		{"params missing", "", `{"jsonrpc":"2.0","method":"message/send","id":1}`, -32602},
		{"params an array", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":[1]}`, -32602},
		{"parts empty", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":{"message":{"role":"user","messageId":"m","parts":[]}}}`, -32602},
		{"0.3 part without kind", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":{"message":{"role":"user","messageId":"m","parts":[{"text":"hi"}]}}}`, -32602},
		{"0.1 part without type", "", `{"jsonrpc":"2.0","method":"tasks/send","id":1,"params":{"id":"t","message":{"role":"user","parts":[{"kind":"text","text":"hi"}]}}}`, -32602},
		{"1.0 part with no member", "1.0", `{"jsonrpc":"2.0","method":"SendMessage","id":1,"params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"mediaType":"text/plain"}]}}}`, -32602},
		{"role missing", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":{"message":{"messageId":"m","parts":[{"kind":"text","text":"hi"}]}}}`, -32602},
		{"text part without text", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":{"message":{"role":"user","messageId":"m","parts":[{"kind":"text"}]}}}`, -32602},
		{"message a string", "", `{"jsonrpc":"2.0","method":"message/send","id":1,"params":{"message":"hi"}}`, -32602},
		{"get without id", "", `{"jsonrpc":"2.0","method":"tasks/get","id":1,"params":{}}`, -32602},
		{"push config without task", "", `{"jsonrpc":"2.0","method":"tasks/pushNotificationConfig/set","id":1,"params":{}}`, -32602},
	}
	seq := f.Trace().Seq()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.version != "" {
				hdr["A2A-Version"] = tc.version
			}
			r := tPost(t, c, tRPCD, []byte(tc.body), hdr)
			if r.Status != 200 {
				t.Errorf("HTTP %d, want 200", r.Status)
			}
			if r.Code() != tc.code || r.JSON["jsonrpc"] != "2.0" || r.JSON["result"] != nil {
				t.Errorf("answer %s, want error %d", r.Body, tc.code)
			}
			if _, ok := r.JSON["id"]; !ok {
				t.Errorf("answer without id: %s", r.Body)
			}
			ev := tLastEvent(t, f, HostRPCD)
			if ev.ErrorCode != tc.code || ev.Status != 200 || ev.HTTPMethod != http.MethodPost {
				t.Errorf("trace %+v", ev)
			}
		})
	}
	if n := len(tEvents(f, seq)); n != len(cases) {
		t.Errorf("%d trace events for %d bad requests", n, len(cases))
	}
	t.Run("GET on the endpoint", func(t *testing.T) {
		if r := tGet(t, c, tRPCD, nil); r.Status != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "POST" {
			t.Errorf("HTTP %d Allow %q", r.Status, r.Header.Get("Allow"))
		}
	})
	t.Run("1.0 error shape", func(t *testing.T) {
		r := tPost(t, c, tRPCD, []byte(`{"jsonrpc":"2.0","method":"SendMessage","id":"a","params":{}}`), map[string]string{"A2A-Version": "1.0"})
		if r.Code() != -32602 || tPath(r.Err(), "data", 0, "reason") != "INVALID_PARAMS" || r.JSON["id"] != "a" {
			t.Errorf("answer %s", r.Body)
		}
	})
	tCheckStillServes(t, f)
}

// tCheckStillServes checks a normal send still works.
func tCheckStillServes(t *testing.T, f *Fleet) {
	t.Helper()
	c := tClient(t, f, tViaResolve)
	start := time.Now()
	tWantState(t, "normal send afterwards", tSend(t, c, tRPCD, Dialect10, "still here", ""), "completed")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a normal send took %v", d)
	}
}

// tBlockingBody yields n bytes, then blocks until release is closed.
type tBlockingBody struct {
	n       int
	release chan struct{}
	sent    int
}

func (b *tBlockingBody) Read(p []byte) (int, error) {
	if b.sent >= b.n {
		<-b.release
		return 0, io.ErrUnexpectedEOF
	}
	k := min(len(p), b.n-b.sent)
	for i := range p[:k] {
		p[i] = ' '
	}
	b.sent += k
	return k, nil
}

// TestBodyTooLarge: a body over 1 MiB is refused with 413 before it is read.
func TestBodyTooLarge(t *testing.T) {
	f := tBadInputFleet(t)
	t.Run("content-length via client", func(t *testing.T) {
		for _, r := range tRoutes {
			c := tClient(t, f, r)
			body := &tBlockingBody{n: 64 << 10, release: make(chan struct{})}
			req, _ := http.NewRequest(http.MethodPost, tRPCD, body)
			req.ContentLength = 10 << 20
			req.Header.Set("Content-Type", "application/json")
			seq := f.Trace().Seq()
			done := make(chan struct{})
			var resp *http.Response
			var err error
			go func() { resp, err = c.Do(req); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				close(body.release)
				t.Fatalf("%s: no answer before the body was sent", r)
			}
			close(body.release)
			if err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !bytes.Contains(b, []byte(`"code":-32600`)) {
				t.Errorf("%s: HTTP %d %s", r, resp.StatusCode, b)
			}
			ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Host == HostRPCD })
			if ev.Status != 413 || ev.ErrorCode != -32600 {
				t.Errorf("%s: trace %+v", r, ev)
			}
		}
	})
	t.Run("content-length raw", func(t *testing.T) {
		conn := tRawTLS(t, f, HostRPCD)
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"jsonrpc\":", DefaultRPCPath, HostRPCD, 10<<20)
		_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer while the body is unsent: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != 413 || !resp.Close {
			t.Errorf("HTTP %d close=%v", resp.StatusCode, resp.Close)
		}
	})
	t.Run("chunked", func(t *testing.T) {
		conn := tRawTLS(t, f, HostRPCD)
		seq := f.Trace().Seq()
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", DefaultRPCPath, HostRPCD)
		writerDone := make(chan struct{})
		go func() {
			defer close(writerDone)
			chunk := strings.Repeat(" ", 64<<10)
			for i := 0; i < 40; i++ { // 2.5 MiB, if the server kept reading
				if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
					return
				}
			}
		}()
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != 413 {
			t.Errorf("HTTP %d", resp.StatusCode)
		}
		conn.Close()
		<-writerDone
		ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Host == HostRPCD })
		if ev.Status != 413 || ev.ErrorCode != -32600 {
			t.Errorf("trace %+v", ev)
		}
	})
	t.Run("exactly the limit is read", func(t *testing.T) {
		c := tClient(t, f, tViaResolve)
		body := `{"jsonrpc":"2.0","method":"tasks/get","id":1,"params":{"id":"x"}}`
		body += strings.Repeat(" ", (1<<20)-len(body))
		r := tPost(t, c, tRPCD, []byte(body), nil)
		tWantCode(t, "1 MiB body", r, -32001)
	})
	tCheckStillServes(t, f)
}

// TestSlowClients: a client that sends its body (or headers) too slowly is
// cut off after Limits.ReadTimeout, and the fleet serves others meanwhile.
func TestSlowClients(t *testing.T) {
	f := tBadInputFleet(t)
	t.Run("slow body", func(t *testing.T) {
		seq := f.Trace().Seq()
		conn := tRawTLS(t, f, HostRPCD)
		start := time.Now()
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"jsonrpc\":\"2.0\",", DefaultRPCPath, HostRPCD)
		// Others are served while this client dawdles.
		tCheckStillServes(t, f)
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer to the slow client: %v", err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		elapsed := time.Since(start)
		if elapsed < tReadTimeout-50*time.Millisecond || elapsed > tReadTimeout+2*time.Second {
			t.Errorf("cut off after %v, want about %v", elapsed, tReadTimeout)
		}
		t.Logf("slow body answer after %v: HTTP %d %s", elapsed, resp.StatusCode, b)
		if _, err := br.ReadByte(); err == nil {
			t.Error("connection still open after the cut-off")
		}
		ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Note == "body not read whole" })
		if ev.ErrorCode == 0 || ev.Host != HostRPCD {
			t.Errorf("trace %+v", ev)
		}
	})
	t.Run("slow headers", func(t *testing.T) {
		conn := tRawTLS(t, f, HostRPCD)
		start := time.Now()
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\n", DefaultRPCPath, HostRPCD)
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.ReadAll(conn)
		if tIsTimeout(err) {
			t.Fatal("the fleet kept a half-sent request open")
		}
		if d := time.Since(start); d > tReadTimeout+2*time.Second {
			t.Errorf("cut off after %v", d)
		}
	})
	t.Run("slow body through the proxy", func(t *testing.T) {
		tunnel, code := tConnect(t, f, HostRPCD+":443")
		if tunnel == nil {
			t.Fatalf("CONNECT: %d", code)
		}
		defer tunnel.Close()
		cfg := f.TLSConfig()
		cfg.ServerName = HostRPCD
		conn := tTLSClientConn(tunnel, cfg)
		start := time.Now()
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 200\r\n\r\n{", DefaultRPCPath, HostRPCD)
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil {
			t.Fatalf("no answer: %v", err)
		}
		if d := time.Since(start); d > tReadTimeout+2*time.Second {
			t.Errorf("cut off after %v", d)
		}
	})
	tCheckStillServes(t, f)
}

// TestStreamOutlivesReadTimeout: Limits.ReadTimeout bounds reading the
// request, not the life of a stream whose first frame is slow.
func TestStreamOutlivesReadTimeout(t *testing.T) {
	cfg := Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{ReadTimeout: tReadTimeout}}
	cfg.Vendors[0].Faults = []FaultSpec{Spec("slow-first-frame", SlowFirstFrame{DelayMs: int(2 * tReadTimeout / time.Millisecond)})}
	f := tStart(t, cfg)
	for _, r := range tRoutes {
		t.Run(string(r), func(t *testing.T) {
			c := tClient(t, f, r)
			start := time.Now()
			resp := tStream(t, c, tRPCD, "0.3", "message/stream", tSendParams(Dialect03, "slow", ""))
			evs := tReadSSE(t, resp.Body)
			if len(evs) != 4 {
				t.Fatalf("%d events after %v, want 4", len(evs), time.Since(start))
			}
			if d := time.Since(start); d < 2*tReadTimeout {
				t.Errorf("first frame after %v", d)
			}
		})
	}
}
