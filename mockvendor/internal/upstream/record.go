package upstream

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Recording is what an agent answered, as the fleet forwarded to it: its
// card, and each exchange's answer (a plain answer's body, or a stream's
// events with their timing). It never holds a request header: Redacted
// names the credentials that were sent and left out. A fleet vendor
// replays it (Config.Replay) as the agent.
type Recording struct {
	// Agent is the agent's base URL.
	Agent string `json:"agent"`
	// RecordedAt is when the recording began.
	RecordedAt time.Time `json:"recordedAt"`
	// Redacted names the headers that carried secrets and were not
	// recorded: the request's credentials, the answer's Set-Cookie.
	Redacted []string `json:"redacted,omitempty"`
	// Card is the agent's card as last fetched.
	Card json.RawMessage `json:"card,omitempty"`
	// Exchanges are the forwarded calls, in the order they ended.
	Exchanges []Exchange `json:"exchanges"`
	// Stopped says why the recording stopped before the end (a bound);
	// "" when it did not.
	Stopped string `json:"stopped,omitempty"`
}

// Exchange is one forwarded call and the agent's answer.
type Exchange struct {
	// Method is the JSON-RPC method; TaskID the task a task method named.
	Method string `json:"method"`
	TaskID string `json:"taskId,omitempty"`
	// Params are the params the agent got.
	Params json.RawMessage `json:"params,omitempty"`
	// Status, ContentType and A2AVersion are the answer's.
	Status      int    `json:"status"`
	ContentType string `json:"contentType,omitempty"`
	A2AVersion  string `json:"a2aVersion,omitempty"`
	// Body is a plain answer's body (a JSON-RPC response).
	Body json.RawMessage `json:"body,omitempty"`
	// Events are a stream's events, each a JSON-RPC response with the
	// time since the one before (the first: since the answer's header).
	Events []Event `json:"events,omitempty"`
}

// Event is one event of a recorded stream.
type Event struct {
	AfterMs int64           `json:"afterMs"`
	Data    json.RawMessage `json:"data"`
}

// Bounds of a recording: past them it stops and says so.
const (
	MaxRecordedExchanges = 1000
	MaxRecordingBytes    = 16 << 20
)

// Recorder writes a Recording to a file as exchanges end (atomically: a
// crash leaves the last complete file). It is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	path  string
	rec   Recording
	bytes int
}

// NewRecorder records the agent at agent into path.
func NewRecorder(path, agent string) *Recorder {
	return &Recorder{path: path, rec: Recording{Agent: agent, RecordedAt: time.Now().UTC(), Exchanges: []Exchange{}}}
}

// Path is the recording's file.
func (r *Recorder) Path() string { return r.path }

// redact names secret headers that were left out.
func (r *Recorder) redact(names ...string) {
	for _, n := range names {
		if !slices.Contains(r.rec.Redacted, n) {
			r.rec.Redacted = append(r.rec.Redacted, n)
		}
	}
	slices.Sort(r.rec.Redacted)
}

// card keeps the agent's card.
func (r *Recorder) card(body []byte, redacted []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rec.Card = append(json.RawMessage(nil), body...)
	r.redact(redacted...)
	r.writeLocked()
}

// add keeps one finished exchange.
func (r *Recorder) add(x Exchange, redacted []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.redact(redacted...)
	if r.rec.Stopped != "" {
		return
	}
	size := len(x.Body) + len(x.Params)
	for _, e := range x.Events {
		size += len(e.Data)
	}
	switch {
	case len(r.rec.Exchanges) >= MaxRecordedExchanges:
		r.rec.Stopped = "the recording holds its maximum of exchanges"
	case r.bytes+size > MaxRecordingBytes:
		r.rec.Stopped = "the recording reached its maximum size"
	default:
		r.rec.Exchanges = append(r.rec.Exchanges, x)
		r.bytes += size
	}
	r.writeLocked()
}

// Flush writes the recording as it is now.
func (r *Recorder) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writeLocked()
}

func (r *Recorder) writeLocked() error {
	b, err := json.MarshalIndent(r.rec, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(r.path), ".recording-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), r.path)
}

// secretHeaders are the credentials a request or an answer may carry,
// never recorded.
var secretHeaders = []string{"Authorization", "Cookie", "X-Api-Key", "Api-Key", "Proxy-Authorization"}

// sentSecrets names the secret headers (and configured credentials) a
// request carried.
func sentSecrets(r *http.Request, resp *http.Response) []string {
	var out []string
	for k := range r.Header {
		if slices.Contains(secretHeaders, k) || strings.Contains(strings.ToLower(k), "token") || strings.Contains(strings.ToLower(k), "key") {
			out = append(out, k)
		}
	}
	if resp != nil && len(resp.Header.Values("Set-Cookie")) > 0 {
		out = append(out, "Set-Cookie")
	}
	return out
}

// exchangeOf is the recorded form of call and the agent's answer header.
func exchangeOf(call Call, resp *http.Response) Exchange {
	return Exchange{
		Method: call.Method, TaskID: taskIDOf(call.Params), Params: compact(call.Params),
		Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), A2AVersion: resp.Header.Get("A2A-Version"),
	}
}

// taskIDOf is the task a task method's params name: 0.3 id, 1.0 id or
// name tasks/{id} ("" when none).
func taskIDOf(params json.RawMessage) string {
	var p struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	if p.ID != "" {
		return p.ID
	}
	id, _ := strings.CutPrefix(p.Name, "tasks/")
	return id
}

func compact(b []byte) json.RawMessage {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return append(json.RawMessage(nil), b...)
	}
	return out.Bytes()
}
