package mockvendor

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
)

// bnSend is the 1.0 SendMessage the benchmarks send to vendor D.
const bnSend = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m-1","parts":[{"text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`

// bnSend03 is the same send in the 0.3 dialect.
const bnSend03 = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`

// bnWriter is a ResponseWriter that keeps nothing, so the benchmark sees the
// handler's own cost.
type bnWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *bnWriter) Header() http.Header         { return w.h }
func (w *bnWriter) WriteHeader(code int)        { w.status = code }
func (w *bnWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// bnFleet starts the default fleet with the benchmark's cheap fault armed on
// vendor D and returns the rpc.agent-d.example host.
func bnFleet(b *testing.B, limits Limits, plain bool) (*Fleet, *host) {
	cfg := DefaultConfig()
	cfg.Limits = limits
	cfg.PlainJSON = plain
	f := tStart(b, cfg)
	if _, err := f.AddFault("d", Spec("version-header-lie", VersionHeaderLie{Version: "1.0"})); err != nil {
		b.Fatal(err)
	}
	for _, h := range f.hosts {
		if h.cfg.Name == HostRPCD {
			return f, h
		}
	}
	b.Fatal("no rpc.agent-d.example")
	return nil, nil
}

// BenchmarkServeSendMessage measures the fleet's handler for a 1.0
// SendMessage answered with a completed task, trace recording, in process
// (no TLS, no HTTP parsing): with the default limits (the trace fills up to
// 100,000 events and then drops the oldest tenth when full) and with a
// trace capped at 1,000 events, to show what a full trace costs.
func BenchmarkServeSendMessage(b *testing.B) {
	b.Run("trace=default", func(b *testing.B) { bnServe(b, Limits{}, false, bnSend, "1.0") })
	b.Run("trace=1000", func(b *testing.B) { bnServe(b, Limits{MaxTraceEvents: 1000}, false, bnSend, "1.0") })
}

// BenchmarkServeJSON measures the handler for a send in each dialect with
// the JSON fast path on and off (Config.PlainJSON), trace capped at 1,000.
func BenchmarkServeJSON(b *testing.B) {
	for _, d := range []struct{ name, body, version string }{{"0.3", bnSend03, "0.3"}, {"1.0", bnSend, "1.0"}} {
		for _, mode := range []string{"fast", "plain"} {
			b.Run(fmt.Sprintf("dialect=%s/json=%s", d.name, mode), func(b *testing.B) {
				bnServeMode(b, Limits{MaxTraceEvents: 1000}, mode, d.body, d.version)
			})
		}
	}
}

func bnServe(b *testing.B, limits Limits, plain bool, send, version string) {
	mode := "fast"
	if plain {
		mode = "plain"
	}
	bnServeMode(b, limits, mode, send, version)
}

func bnServeMode(b *testing.B, limits Limits, mode, send, version string) {
	_, h := bnFleet(b, limits, mode == "plain")
	body := []byte(send)
	req, _ := http.NewRequest(http.MethodPost, "https://"+HostRPCD+DefaultRPCPath, nil)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", version)
	req.ContentLength = int64(len(body))
	rd := bytes.NewReader(body)
	w := &bnWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd.Reset(body)
		req.Body = io.NopCloser(rd)
		clear(w.h)
		w.status, w.n = 0, 0
		h.serve(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
}

// BenchmarkFleetTLS measures a 1.0 SendMessage over TLS 1.3 keep-alive
// connections to rpc.agent-d.example's listener (16 parallel clients).
func BenchmarkFleetTLS(b *testing.B) {
	f, h := bnFleet(b, Limits{}, false)
	addr := h.addr
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", addr)
		},
		TLSClientConfig:     &tls.Config{RootCAs: f.CA().Pool(), ServerName: HostRPCD, MinVersion: tls.VersionTLS13},
		MaxConnsPerHost:     16,
		MaxIdleConnsPerHost: 16,
	}
	b.Cleanup(tr.CloseIdleConnections)
	body := []byte(bnSend)
	b.SetParallelism(8) // 16 goroutines on 2 cores
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodPost, "https://"+HostRPCD+DefaultRPCPath, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("A2A-Version", "1.0")
			resp, err := tr.RoundTrip(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
}
