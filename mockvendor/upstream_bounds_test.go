package mockvendor

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestUpstreamBounds holds the proxy's bounds on the agent's side: the
// connections open to one agent stay within MaxConns however many calls
// wait on it, and 64 streams relayed at once cost a bounded heap.
func TestUpstreamBounds(t *testing.T) {
	var open, peak atomic.Int64
	release := make(chan struct{})
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"name":"held","protocolVersion":"0.3.0","url":"`+srv.URL+`/rpc","capabilities":{"streaming":true},"skills":[{"id":"s","name":"s"}]}`)
	})
	mux.HandleFunc("/rpc", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv = httptest.NewUnstartedServer(mux)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			if n := open.Add(1); n > peak.Load() {
				peak.Store(n)
			}
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	const maxConns, streams = 8, 64
	f := tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Hosts: []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}},
		Upstream: &UpstreamConfig{URL: srv.URL, MaxConns: maxConns, StreamIdle: 10 * time.Second},
	}}})
	c := tClient(t, f, tViaResolve)
	c.Timeout = 0
	rpc := tURL(t, f, "agent.proxied.example", DefaultRPCPath)
	_ = tGet(t, c, tURL(t, f, "agent.proxied.example", CardPath), nil)
	heap0 := tHeap()
	var wg sync.WaitGroup
	for i := 0; i < streams; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := tStream(t, c, rpc, "", "message/stream", tSendParams(Dialect03, "hello", "s"))
			_, _ = io.Copy(io.Discard, resp.Body)
		}()
	}
	time.Sleep(500 * time.Millisecond) // every stream open, or waiting for a connection to the agent
	held := tHeap() - heap0
	if p := peak.Load(); p > maxConns {
		t.Errorf("the agent saw %d connections at once, want at most MaxConns %d", p, maxConns)
	}
	t.Logf("%d streams relayed (%d connections to the agent at most): heap in use grew by %d KiB", streams, peak.Load(), held>>10)
	if held > 16<<20 {
		t.Errorf("%d streams held %d KiB of heap, want under 16 MiB", streams, held>>10)
	}
	close(release)
	wg.Wait()
}

func tHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}
