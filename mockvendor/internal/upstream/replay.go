package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// MaxReplayDelay caps the wait before a replayed stream event: a
// recording of a slow agent replays no slower than this per event.
const MaxReplayDelay = 5 * time.Second

// replayer answers the client's requests from a Recording, as the agent
// answered them (an http.RoundTripper in place of the network): the card
// to any GET (the one the agent served after as many exchanges as have
// been replayed: its CardChanges come back in their place); a JSON-RPC
// call with a recorded answer of its method, the one of the task it names
// first, else the method's answers in their recorded order (the last one
// repeating once they run out); the response's id is the request's. A method never recorded gets -32601, a
// task never recorded -32001.
type replayer struct {
	rec   *Recording
	mu    sync.Mutex
	next  map[string]int // the method's next answer, in recorded order
	calls int            // the calls answered so far
}

func newReplayer(rec *Recording) *replayer {
	return &replayer{rec: rec, next: map[string]int{}}
}

// RoundTrip answers r from the recording.
func (p *replayer) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		return answer(r, http.StatusOK, "application/json", "", io.NopCloser(bytes.NewReader(p.card()))), nil
	}
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("replay: the request is not JSON-RPC: %w", err)
	}
	x, missing := p.find(env.Method, taskIDOf(env.Params))
	if x == nil {
		return answer(r, http.StatusOK, "application/json", "", io.NopCloser(bytes.NewReader(withID(missing, env.ID)))), nil
	}
	if x.Events == nil {
		return answer(r, x.Status, x.ContentType, x.A2AVersion, io.NopCloser(bytes.NewReader(withID(x.Body, env.ID)))), nil
	}
	pr, pw := io.Pipe()
	go replayEvents(r, pw, x.Events, env.ID)
	return answer(r, x.Status, x.ContentType, x.A2AVersion, pr), nil
}

// card is the card the agent served after as many exchanges as the
// replay has answered.
func (p *replayer) card() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	card := p.rec.Card
	for _, c := range p.rec.CardChanges {
		if c.AfterExchanges <= p.calls {
			card = c.Card
		}
	}
	return card
}

// find is the recorded exchange that answers method for task ("": none
// named), or the error answer when there is none.
func (p *replayer) find(method, task string) (*Exchange, []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	var of []*Exchange
	for i := range p.rec.Exchanges {
		x := &p.rec.Exchanges[i]
		if x.Method != method {
			continue
		}
		if task != "" && x.TaskID == task {
			return x, nil
		}
		of = append(of, x)
	}
	switch {
	case len(of) == 0:
		return nil, rpcError(-32601, "method not found in the recording: "+method)
	case task != "":
		return nil, rpcError(-32001, "task not found in the recording: "+task)
	}
	i := min(p.next[method], len(of)-1)
	p.next[method]++
	return of[i], nil
}

// replayEvents writes events as server-sent events, each after its
// recorded delay (at most MaxReplayDelay), until the client leaves.
func replayEvents(r *http.Request, w *io.PipeWriter, events []Event, id json.RawMessage) {
	for _, e := range events {
		t := time.NewTimer(min(time.Duration(e.AfterMs)*time.Millisecond, MaxReplayDelay))
		select {
		case <-r.Context().Done():
			t.Stop()
			w.CloseWithError(r.Context().Err())
			return
		case <-t.C:
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", withID(e.Data, id)); err != nil {
			return
		}
	}
	w.Close()
}

// withID is a JSON-RPC response with the request's id.
func withID(body []byte, id json.RawMessage) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return body
	}
	if len(id) > 0 {
		m["id"] = id
	}
	b, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return b
}

func rpcError(code int, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	return b
}

func answer(r *http.Request, status int, contentType, version string, body io.ReadCloser) *http.Response {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	if version != "" {
		h.Set("A2A-Version", version)
	}
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: h, Body: body, Request: r, ProtoMajor: 1, ProtoMinor: 1}
}
