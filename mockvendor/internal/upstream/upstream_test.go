package upstream

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

func TestEventReader(t *testing.T) {
	cases := []struct {
		name, in string
		limit    int64
		want     []string
		err      error // after the events
	}{
		{"two events", "data: a\n\ndata: b\n\n", 100, []string{"a", "b"}, io.EOF},
		{"multi-line data", "data: a\ndata: b\n\n", 100, []string{"a\nb"}, io.EOF},
		{"CRLF, comments and fields", ": hi\r\nevent: x\r\nid: 1\r\ndata:a\r\n\r\n", 100, []string{"a"}, io.EOF},
		{"last event without its blank line", "data: a", 100, []string{"a"}, io.EOF},
		{"over the limit", "data: " + strings.Repeat("x", 200) + "\n\n", 100, nil, errTooLarge},
		{"no data", "\n\n: ping\n\n", 100, nil, io.EOF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newEventReader(strings.NewReader(c.in), c.limit)
			var got []string
			var err error
			for {
				var b []byte
				if b, err = r.next(); err != nil {
					break
				}
				got = append(got, string(b))
			}
			if !slices.Equal(got, c.want) || !errors.Is(err, c.err) {
				t.Errorf("events %q, end %v; want %q, %v", got, err, c.want, c.err)
			}
		})
	}
}

func TestCardEndpointAndVersions(t *testing.T) {
	cases := []struct {
		name     string
		card     map[string]any
		url      string
		versions []string
	}{
		{"0.3 card", map[string]any{"url": "https://a/rpc", "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC"}, "https://a/rpc", []string{"0.3"}},
		{"1.0 card", map[string]any{"supportedInterfaces": []any{
			map[string]any{"url": "https://a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
			map[string]any{"url": "https://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
		}}, "https://a/rpc", []string{"1.0"}},
		{"0.3 card preferring REST, JSON-RPC among the others", map[string]any{"url": "https://a/rest", "preferredTransport": "HTTP+JSON", "protocolVersion": "0.3.0",
			"additionalInterfaces": []any{map[string]any{"url": "https://a/rpc", "transport": "JSONRPC"}}}, "https://a/rpc", []string{"0.3"}},
		{"no JSON-RPC", map[string]any{"supportedInterfaces": []any{map[string]any{"url": "a:443", "protocolBinding": "GRPC"}}}, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := JSONRPCURL(c.card); got != c.url {
				t.Errorf("JSONRPCURL = %q, want %q", got, c.url)
			}
			if got := JSONRPCVersions(c.card); !slices.Equal(got, c.versions) {
				t.Errorf("JSONRPCVersions = %v, want %v", got, c.versions)
			}
		})
	}
}

func TestDecodeEnvelope(t *testing.T) {
	cases := []struct {
		name, body string
		result     string
		code       int  // the agent's A2A error
		gateway    bool // no JSON-RPC response
	}{
		{"result", `{"jsonrpc":"2.0","id":1,"result":{"a":1}}`, `{"a":1}`, 0, false},
		{"error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no","data":{"x":1}}}`, "", -32001, false},
		{"html", `<html>oops</html>`, "", 0, true},
		{"no version", `{"id":1,"result":{}}`, "", 0, true},
		{"neither", `{"jsonrpc":"2.0","id":1}`, "", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeEnvelope([]byte(c.body), 200)
			var ae *a2a.Error
			var ge *Error
			switch {
			case c.gateway && !errors.As(err, &ge):
				t.Errorf("err %v, want a gateway error", err)
			case c.code != 0 && (!errors.As(err, &ae) || ae.Code != c.code):
				t.Errorf("err %v, want the agent's %d", err, c.code)
			case c.result != "" && string(got) != c.result:
				t.Errorf("result %s, want %s", got, c.result)
			}
		})
	}
}

// TestRecorderKeepsCardChanges: the first card, then each card that
// differs from the one before, at the count of exchanges it came after;
// a replay serves each from that many calls on.
func TestRecorderKeepsCardChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.recording.json")
	r := NewRecorder(path, "https://agent.example")
	send := Exchange{Method: "message/send", Status: 200, Body: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{"kind":"task"}}`)}
	r.card([]byte(`{"skills": [{"id": "invoice"}]}`), nil)
	r.add(send, nil)
	r.card([]byte(`{"skills":[{"id":"invoice"}]}`), nil) // the same card, spaced otherwise
	r.add(send, nil)
	r.card([]byte(`{"skills":[{"id":"invoice-v2"}]}`), nil)
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	rec, err := LoadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(compact(rec.Card)) != `{"skills":[{"id":"invoice"}]}` || len(rec.CardChanges) != 1 ||
		rec.CardChanges[0].AfterExchanges != 2 || string(compact(rec.CardChanges[0].Card)) != `{"skills":[{"id":"invoice-v2"}]}` {
		t.Fatalf("card %s, changes %+v; want the first card, then invoice-v2 after 2 exchanges", rec.Card, rec.CardChanges)
	}
	p := newReplayer(rec)
	var served []string
	for i := 0; i < 4; i++ {
		served = append(served, tReplayCard(t, p))
		tReplayCall(t, p, "message/send")
	}
	want := []string{"invoice", "invoice", "invoice-v2", "invoice-v2"}
	if !slices.Equal(served, want) {
		t.Errorf("replayed cards %q, want %q", served, want)
	}
}

// TestRecorderCoalescesWrites: a burst of exchanges is written once at
// its start and once WriteInterval later, not once per exchange; Flush
// writes what came since at once.
func TestRecorderCoalescesWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.recording.json")
	r := NewRecorder(path, "https://agent.example")
	x := Exchange{Method: "message/send", Status: 200, Body: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{}}`)}
	r.card([]byte(`{"skills":[{"id":"invoice"}]}`), nil) // written at once
	const burst = 500
	for i := 0; i < burst; i++ {
		r.add(x, nil)
	}
	r.mu.Lock()
	writes := r.writes
	r.mu.Unlock()
	if writes != 1 {
		t.Errorf("a card and %d exchanges wrote the file %d times at once, want 1 (the rest due within %s)", burst, writes, WriteInterval)
	}
	if n := tRecorded(t, path); n != 0 {
		t.Errorf("the file before the interval holds %d exchanges, want none yet (the card alone)", n)
	}
	deadline := time.Now().Add(WriteInterval + 5*time.Second) // the timer's write, however loaded the machine
	for tRecorded(t, path) != burst && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := tRecorded(t, path); n != burst {
		t.Errorf("after the interval the file holds %d exchanges, want %d", n, burst)
	}
	r.add(x, nil)
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	writes = r.writes
	r.mu.Unlock()
	// The start, the interval's write, Flush (and one more if the add came
	// a whole interval after the second): never one per exchange.
	if n := tRecorded(t, path); n != burst+1 || writes < 3 || writes > 4 {
		t.Errorf("after Flush the file holds %d exchanges in %d writes, want %d in 3 or 4", n, writes, burst+1)
	}
}

func tReplayCard(t *testing.T, p *replayer) string {
	t.Helper()
	resp, err := p.RoundTrip(httptest.NewRequest(http.MethodGet, "https://agent.example/.well-known/agent-card.json", nil))
	if err != nil {
		t.Fatal(err)
	}
	var card struct {
		Skills []struct {
			ID string `json:"id"`
		} `json:"skills"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&card); err != nil || len(card.Skills) != 1 {
		t.Fatalf("replayed card: %v", err)
	}
	return card.Skills[0].ID
}

func tReplayCall(t *testing.T, p *replayer, method string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":{}}`
	resp, err := p.RoundTrip(httptest.NewRequest(http.MethodPost, "https://agent.example/rpc", strings.NewReader(body)))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("replayed %s: %v", method, err)
	}
	resp.Body.Close()
}

// tRecorded is how many exchanges the recording file at path holds.
func tRecorded(t *testing.T, path string) int {
	t.Helper()
	rec, err := LoadRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(rec.Exchanges)
}
