package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	// Card is the agent's card as first fetched.
	Card json.RawMessage `json:"card,omitempty"`
	// CardChanges are the cards the agent served after it, each when it
	// first differed from the one before (the partner's card moving on
	// while a CDN holds the old one); nil when the card never changed.
	CardChanges []CardChange `json:"cardChanges,omitempty"`
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

// CardChange is a card the agent served once AfterExchanges exchanges
// had ended; a replay serves it from that many calls on.
type CardChange struct {
	AfterExchanges int             `json:"afterExchanges"`
	Card           json.RawMessage `json:"card"`
}

// Event is one event of a recorded stream.
type Event struct {
	AfterMs int64           `json:"afterMs"`
	Data    json.RawMessage `json:"data"`
}

// LoadRecording reads a recording file (Recorder wrote it).
func LoadRecording(path string) (*Recording, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("upstream replay: %w", err)
	}
	var rec Recording
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("upstream replay %s: not a recording: %w", path, err)
	}
	if len(rec.Card) == 0 {
		return nil, fmt.Errorf("upstream replay %s: the recording holds no card", path)
	}
	return &rec, nil
}

// Bounds of a recording: past them it stops and says so. A card change
// counts as an exchange.
const (
	MaxRecordedExchanges = 1000
	MaxRecordingBytes    = 16 << 20
)

// WriteInterval is the least time between two writes of a recording's
// file: what came in between is written together, so that a busy agent
// costs one rewrite of the file per interval (its recorded data bounded
// by MaxRecordingBytes), not one per exchange.
const WriteInterval = time.Second

// Recorder writes a Recording to a file as exchanges end (atomically: a
// crash leaves the last complete file, at most WriteInterval behind).
// It is safe for concurrent use.
type Recorder struct {
	mu      sync.Mutex
	path    string
	rec     Recording
	bytes   int
	written time.Time   // the last write
	pending *time.Timer // the write of what came since, when one is due
	writes  int         // how many times the file was written
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

// card keeps the agent's card: the first one, then each that differs
// from the one before.
func (r *Recorder) card(body []byte, redacted []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.redact(redacted...)
	last := r.rec.Card
	if n := len(r.rec.CardChanges); n > 0 {
		last = r.rec.CardChanges[n-1].Card
	}
	card := compact(body)
	switch {
	case last == nil:
		r.rec.Card = card
		r.bytes += len(card)
	case bytes.Equal(card, last):
		return
	case r.keepLocked(len(card)):
		r.rec.CardChanges = append(r.rec.CardChanges, CardChange{AfterExchanges: len(r.rec.Exchanges), Card: card})
	}
	r.saveLocked()
}

// keepLocked reports whether an item of size bytes fits the recording's
// bounds, and counts it; past them the recording stops, saying why.
func (r *Recorder) keepLocked(size int) bool {
	switch {
	case r.rec.Stopped != "":
		return false
	case len(r.rec.Exchanges)+len(r.rec.CardChanges) >= MaxRecordedExchanges:
		r.rec.Stopped = "the recording holds its maximum of exchanges"
		return false
	case r.bytes+size > MaxRecordingBytes:
		r.rec.Stopped = "the recording reached its maximum size"
		return false
	}
	r.bytes += size
	return true
}

// add keeps one finished exchange.
func (r *Recorder) add(x Exchange, redacted []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.redact(redacted...)
	size := len(x.Body) + len(x.Params)
	for _, e := range x.Events {
		size += len(e.Data)
	}
	if r.keepLocked(size) {
		r.rec.Exchanges = append(r.rec.Exchanges, x)
	}
	r.saveLocked()
}

// saveLocked writes the file now when the last write is WriteInterval
// old, else makes sure a write follows when it is.
func (r *Recorder) saveLocked() {
	wait := WriteInterval - time.Since(r.written)
	switch {
	case r.pending != nil:
	case wait <= 0:
		_ = r.writeLocked() // a failing disk fails the next Flush too
	default:
		r.pending = time.AfterFunc(wait, func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.pending != nil {
				r.pending = nil
				_ = r.writeLocked()
			}
		})
	}
}

// Flush writes the recording as it is now, a write still due included.
func (r *Recorder) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending != nil {
		r.pending.Stop()
		r.pending = nil
	}
	return r.writeLocked()
}

func (r *Recorder) writeLocked() error {
	r.written = time.Now()
	r.writes++
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
