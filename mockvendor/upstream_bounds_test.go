package mockvendor

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestUpstreamBounds holds the proxy's bounds on the agent's side: the
// connections open to one agent stay within MaxConns however many calls
// wait on it, and 64 streams relayed at once cost a bounded heap.
func TestUpstreamBounds(t *testing.T) {
	agent := tHoldingAgent(t)
	const maxConns, streams = 8, 64
	f := tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Hosts: []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}},
		Upstream: &UpstreamConfig{URL: agent.url, MaxConns: maxConns, StreamIdle: 10 * time.Second},
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
	if p := agent.peak.Load(); p > maxConns {
		t.Errorf("the agent saw %d connections at once, want at most MaxConns %d", p, maxConns)
	}
	t.Logf("%d streams relayed (%d connections to the agent at most): heap in use grew by %d KiB", streams, agent.peak.Load(), held>>10)
	if held > 16<<20 {
		t.Errorf("%d streams held %d KiB of heap, want under 16 MiB", streams, held>>10)
	}
	close(agent.release)
	wg.Wait()
}

// TestUpstreamQueuedCallTimesOut: a call that finds every one of the
// agent's MaxConns connections held by a stream waits for one no longer
// than Timeout, then gets the gateway timeout its binding answers (HTTP
// 504, -32603), the trace saying no connection came free.
func TestUpstreamQueuedCallTimesOut(t *testing.T) {
	agent := tHoldingAgent(t)
	defer close(agent.release)
	f := tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Hosts: []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath}},
		Upstream: &UpstreamConfig{URL: agent.url, MaxConns: 1, Timeout: 300 * time.Millisecond, StreamIdle: 10 * time.Second},
	}}})
	c := tClient(t, f, tViaResolve)
	rpc := tURL(t, f, "agent.proxied.example", DefaultRPCPath)
	_ = tGet(t, c, tURL(t, f, "agent.proxied.example", CardPath), nil)
	held := tStream(t, c, rpc, "", "message/stream", tSendParams(Dialect03, "hold", "s"))
	defer held.Body.Close()
	if _, err := bufio.NewReader(held.Body).ReadString('\n'); err != nil {
		t.Fatalf("the holding stream's first event: %v", err)
	}
	start := time.Now()
	r := tSend(t, c, rpc, Dialect03, "queued", "s")
	took := time.Since(start)
	if r.Status != http.StatusGatewayTimeout || r.Code() != -32603 {
		t.Errorf("the queued call: HTTP %d code %d (%s), want 504 and -32603", r.Status, r.Code(), r.Body)
	}
	if took > 3*time.Second {
		t.Errorf("the queued call took %v, want about Timeout (300ms)", took)
	}
	var detail string
	tUpstreamFailures(f, "agent.proxied.example", 2*time.Second)
	for _, ev := range f.Trace().Events() {
		if ev.Op == OpSend && !ev.Pending && ev.Upstream != nil {
			detail = ev.Upstream.Error
		}
	}
	if !strings.Contains(detail, "no free connection") {
		t.Errorf("the send's upstream error %q, want it to say no connection came free", detail)
	}
	if p := agent.peak.Load(); p != 1 {
		t.Errorf("the agent saw %d connections at once, want MaxConns 1", p)
	}
}

// holdingAgent is an agent whose streams send one event and stay open
// until release is closed, counting the connections open to it at once.
type holdingAgent struct {
	url     string
	peak    *atomic.Int64
	release chan struct{}
}

func tHoldingAgent(t *testing.T) holdingAgent {
	t.Helper()
	a := holdingAgent{peak: new(atomic.Int64), release: make(chan struct{})}
	var open atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"name":"held","protocolVersion":"0.3.0","url":"`+a.url+`/rpc","capabilities":{"streaming":true},"skills":[{"id":"s","name":"s"}]}`)
	})
	mux.HandleFunc("/rpc", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-a.release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			if n := open.Add(1); n > a.peak.Load() {
				a.peak.Store(n)
			}
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	a.url = srv.URL
	return a
}

func tHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}
