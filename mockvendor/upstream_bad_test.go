package mockvendor

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// badAgent is a real server on loopback that misbehaves as an agent: its
// card is honest (a JSON-RPC interface at /rpc), its answers are not.
type badAgent struct {
	name   string
	answer http.HandlerFunc // the JSON-RPC endpoint's behaviour
}

// tBadAgent serves a's card and endpoint; it ends when the test does (any
// handler still waiting is released).
func tBadAgent(t *testing.T, a badAgent) string {
	t.Helper()
	done := make(chan struct{})
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"name":"bad","protocolVersion":"0.3.0","preferredTransport":"JSONRPC","url":"`+srv.URL+`/rpc","capabilities":{"streaming":true},"skills":[{"id":"s","name":"s"}]}`)
	})
	mux.HandleFunc("/rpc", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
			return
		default:
		}
		a.answer(w, r.WithContext(withDone(r.Context(), done)))
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(func() { close(done); srv.CloseClientConnections(); srv.Close() })
	return srv.URL
}

type doneKey struct{}

func withDone(ctx context.Context, done chan struct{}) context.Context {
	return context.WithValue(ctx, doneKey{}, done)
}

// hang waits until the client leaves or the test ends.
func hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-r.Context().Value(doneKey{}).(chan struct{}):
	}
}

var badAgents = []badAgent{
	{"slow", func(w http.ResponseWriter, r *http.Request) { hang(r) }},
	{"garbage", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html>502 Bad Gateway</html>")
	}},
	{"gigantic", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(strings.Repeat("x", 64<<10))
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"junk":"`)
		for i := 0; i < 1024; i++ { // 64 MiB, never held whole
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}},
	{"stream-stalls", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}}`+"\n\n")
		w.(http.Flusher).Flush()
		hang(r)
	}},
	{"stream-breaks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}}`+"\n\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}},
}

// tBoundedProxy is tProxy with small bounds.
func tBoundedProxy(t *testing.T, base string) *Fleet {
	t.Helper()
	return tStart(t, Config{Vendors: []VendorConfig{{
		ID: "p", Organization: "Proxied",
		Hosts:    []HostConfig{{Name: "agent.proxied.example", Card: true, RPCPath: DefaultRPCPath, RESTPath: DefaultRESTPath, GRPC: true}},
		Upstream: &UpstreamConfig{URL: base, Timeout: 300 * time.Millisecond, StreamIdle: 300 * time.Millisecond, MaxBody: 1 << 20},
	}}})
}

func TestUpstreamFailuresAnswerAsAGateway(t *testing.T) {
	cases := []struct {
		agent     string
		stream    bool
		status    int        // JSON-RPC answer's HTTP status (0: a stream)
		rest      string     // HTTP+JSON status name
		grpc      codes.Code // gRPC
		lastEvent string     // a stream's end: "error" or "broken"
	}{
		{agent: "slow", status: http.StatusGatewayTimeout, rest: "DEADLINE_EXCEEDED", grpc: codes.Unavailable},
		{agent: "garbage", status: http.StatusBadGateway, rest: "UNAVAILABLE", grpc: codes.Unavailable},
		{agent: "gigantic", status: http.StatusBadGateway, rest: "UNAVAILABLE", grpc: codes.Unavailable},
		{agent: "stream-stalls", stream: true, lastEvent: "error"},
		{agent: "stream-breaks", stream: true, lastEvent: "broken"},
	}
	for _, tc := range cases {
		t.Run(tc.agent, func(t *testing.T) {
			i := indexOfBad(tc.agent)
			f := tBoundedProxy(t, tBadAgent(t, badAgents[i]))
			c := tClient(t, f, tViaResolve)
			rpc := tURL(t, f, "agent.proxied.example", DefaultRPCPath)
			start := time.Now()
			if tc.stream {
				tStreamFailure(t, c, rpc, tc.lastEvent)
			} else {
				r := tSend(t, c, rpc, Dialect03, "hello", "s")
				if r.Status != tc.status || r.Code() != -32603 {
					t.Errorf("JSON-RPC: HTTP %d code %d (%s), want %d and -32603", r.Status, r.Code(), r.Body, tc.status)
				}
				rest := tPost(t, c, tURL(t, f, "agent.proxied.example", DefaultRESTPath+"/message:send"), []byte(`{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`), map[string]string{"A2A-Version": "1.0", "Content-Type": "application/json"})
				if rest.Status != tc.status || tPath(rest.JSON, "error", "status") != tc.rest {
					t.Errorf("HTTP+JSON: HTTP %d %s, want %d %s", rest.Status, rest.Body, tc.status, tc.rest)
				}
				_, err := tGRPCDial(t, f, tViaResolve, "agent.proxied.example").SendMessage(tGRPCCtx(t), tGRPCSend("hello", "s"))
				if st, _ := status.FromError(err); st.Code() != tc.grpc {
					t.Errorf("gRPC: %v, want %v", err, tc.grpc)
				}
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("the failures took %v: the proxy hung on the agent", took)
			}
			if n := tUpstreamFailures(f, "agent.proxied.example", 2*time.Second); n == 0 {
				t.Errorf("no trace event names the agent's failure (event.upstream.error)")
			}
		})
	}
}

// tStreamFailure reads a stream whose agent fails after one event: the
// client gets that event, then an error event ("error") or a broken
// connection ("broken").
func tStreamFailure(t *testing.T, c *http.Client, rpc, end string) {
	t.Helper()
	resp := tStream(t, c, rpc, "", "message/stream", tSendParams(Dialect03, "hello", "s"))
	defer resp.Body.Close()
	sse := tNewSSE(resp.Body)
	var evs []map[string]any
	var err error
	for {
		var ev map[string]any
		if ev, err = sse.Next(); err != nil {
			break
		}
		evs = append(evs, ev)
	}
	switch end {
	case "error":
		if len(evs) != 2 || tPath(evs[1], "error", "code") != float64(-32603) || !errors.Is(err, io.EOF) {
			t.Errorf("events %v (end %v), want the agent's event then a -32603 error event", evs, err)
		}
	case "broken":
		if len(evs) != 1 || errors.Is(err, io.EOF) {
			t.Errorf("events %v (end %v), want the agent's event then a broken stream", evs, err)
		}
	}
}

func indexOfBad(name string) int {
	for i, a := range badAgents {
		if a.name == name {
			return i
		}
	}
	panic("no bad agent " + name)
}

func TestUpstreamDownAnswers502(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	f := tBoundedProxy(t, "http://"+addr)
	c := tClient(t, f, tViaResolve)
	card := tGet(t, c, tURL(t, f, "agent.proxied.example", CardPath), nil)
	if card.Status != http.StatusBadGateway {
		t.Errorf("card of a down agent: HTTP %d %s, want 502", card.Status, card.Body)
	}
	r := tSend(t, c, tURL(t, f, "agent.proxied.example", DefaultRPCPath), Dialect03, "hello", "s")
	if r.Status != http.StatusBadGateway || r.Code() != -32603 || !strings.Contains(string(r.Body), "unreachable") {
		t.Errorf("send to a down agent: HTTP %d %s, want 502 -32603 unreachable", r.Status, r.Body)
	}
}

// tUpstreamFailures counts the finished events of host whose exchange
// with the agent failed, waiting up to wait for one (an event is finished
// a moment after its client saw the answer).
func tUpstreamFailures(f *Fleet, host string, wait time.Duration) int {
	deadline := time.Now().Add(wait)
	for {
		n := 0
		for _, ev := range f.Trace().Events() {
			if ev.Host == host && !ev.Pending && ev.Upstream != nil && ev.Upstream.Error != "" {
				n++
			}
		}
		if n > 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}
