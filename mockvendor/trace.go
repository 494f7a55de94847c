package mockvendor

import (
	"encoding/json"
	"sort"
	"sync"
	"time"
)

// Op is the normalized operation a request performed, whatever its dialect.
type Op string

// The normalized operations of the catalog's wire trace.
const (
	OpCardFetch Op = "card-fetch"
	OpJWKSFetch Op = "jwks-fetch"
	OpSend      Op = "send"
	OpStream    Op = "stream"
	OpGet       Op = "get"
	OpCancel    Op = "cancel"
	OpOther     Op = "other"
	// OpRefused is a proxy refusal: a connection attempt to a host outside
	// the fleet.
	OpRefused Op = "proxy-refused"
)

// Coercion records a part the vendor silently changed.
type Coercion struct {
	// Part is the index of the part in the message.
	Part int `json:"part"`
	// From and To are the part kinds before and after ("text" -> "data").
	From string `json:"from"`
	To   string `json:"to"`
}

// Event is one request as the fleet saw and answered it.
type Event struct {
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	// DurationMs is how long the answer took, in milliseconds.
	DurationMs float64 `json:"durationMs"`
	// Vendor is the id of the vendor that owns the host ("" for refusals).
	Vendor string `json:"vendor,omitempty"`
	// Host is the fleet host name the request reached ("rpc.agent-b.example",
	// or "127.0.0.1:PORT" for a bare-IP host; the refused target for
	// refusals).
	Host string `json:"host"`
	// ServerName is the TLS SNI the client sent ("" when none or plain HTTP).
	ServerName string `json:"serverName,omitempty"`
	HTTPMethod string `json:"httpMethod,omitempty"`
	Path       string `json:"path,omitempty"`
	Op         Op     `json:"op"`
	// Method is the raw JSON-RPC method; Dialect is "0.1", "0.3" or "1.0".
	Method  string `json:"method,omitempty"`
	Dialect string `json:"dialect,omitempty"`
	// RPCID is the JSON-RPC id as sent (absent for notifications).
	RPCID json.RawMessage `json:"rpcId,omitempty"`
	// Headers that matter to the checks.
	A2AVersion    string `json:"a2aVersion,omitempty"`
	HasA2AVersion bool   `json:"hasA2aVersion,omitempty"`
	CacheControl  string `json:"cacheControl,omitempty"`
	Pragma        string `json:"pragma,omitempty"`
	IfNoneMatch   string `json:"ifNoneMatch,omitempty"`
	Authorization bool   `json:"authorization,omitempty"`
	// Request is the JSON-RPC request as received, when it parsed as JSON
	// (capped at 64 KiB).
	Request json.RawMessage `json:"request,omitempty"`
	// Skill is the skill id the message was for ("" = the default skill).
	Skill string `json:"skill,omitempty"`
	// Probe is true for a send whose only text is __probe__ or whose metadata
	// has a2a_probe: true.
	Probe bool `json:"probe,omitempty"`
	// TaskID is the task issued (send/stream) or referenced (get/cancel).
	TaskID string `json:"taskId,omitempty"`
	// Status is the HTTP status answered; ContentType its content type.
	Status      int    `json:"status"`
	ContentType string `json:"contentType,omitempty"`
	// State is the task state answered, normalized to the 0.3 spelling.
	State string `json:"state,omitempty"`
	// ErrorCode and ErrorMessage are set when a JSON-RPC error was answered.
	ErrorCode    int    `json:"errorCode,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Served says which copy of a card answered: "cdn", "origin" or
	// "not-modified"; for a JWKS, the fetch number.
	Served string `json:"served,omitempty"`
	// Coercions applied to the message's parts.
	Coercions []Coercion `json:"coercions,omitempty"`
	// Faults names the faults that changed the answer.
	Faults []string `json:"faults,omitempty"`
	// Note is free text (why a request was refused, for one).
	Note string `json:"note,omitempty"`
}

// Trace records every request to every host in arrival order. It is safe for
// concurrent use. Past its cap it drops the oldest events.
type Trace struct {
	mu      sync.Mutex
	events  []Event
	seq     int64
	max     int
	dropped int64
	subs    map[chan Event]struct{}
}

func newTrace(max int) *Trace {
	return &Trace{max: max, subs: map[chan Event]struct{}{}}
}

// begin records the arrival of a request and returns its sequence number;
// finish completes the event once it has been answered. Events keep their
// arrival order even when a slow answer (a stream) finishes after later ones.
func (t *Trace) begin(e Event) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	e.Seq = t.seq
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if len(t.events) >= t.max {
		n := max(len(t.events)/10, 1)
		t.events = append(t.events[:0], t.events[n:]...)
		t.dropped += int64(n)
	}
	t.events = append(t.events, e)
	return e.Seq
}

// finish applies fill to the event seq (if it is still kept) and hands the
// completed event to the subscribers.
func (t *Trace) finish(seq int64, fill func(*Event)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := sort.Search(len(t.events), func(i int) bool { return t.events[i].Seq >= seq })
	if i == len(t.events) || t.events[i].Seq != seq {
		return
	}
	e := &t.events[i]
	fill(e)
	e.DurationMs = float64(time.Since(e.Time).Microseconds()) / 1000
	for ch := range t.subs {
		select {
		case ch <- *e:
		default: // a slow subscriber loses events rather than stalling the fleet
		}
	}
}

// add records an event that is complete on arrival (a proxy refusal).
func (t *Trace) add(e Event) {
	t.finish(t.begin(e), func(*Event) {})
}

// Events returns a copy of the recorded events in arrival order.
func (t *Trace) Events() []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Event(nil), t.events...)
}

// Since returns the events with a sequence number greater than seq.
func (t *Trace) Since(seq int64) []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, e := range t.events {
		if e.Seq > seq {
			return append([]Event(nil), t.events[i:]...)
		}
	}
	return nil
}

// Seq returns the sequence number of the newest event (0 when empty).
func (t *Trace) Seq() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq
}

// Dropped counts the events dropped past the cap.
func (t *Trace) Dropped() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dropped
}

// Reset forgets every event.
func (t *Trace) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = nil
}

// Subscribe returns a channel that receives each new event (buffered; a
// reader that falls behind misses events) and a function that ends the
// subscription.
func (t *Trace) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, 256)
	t.mu.Lock()
	t.subs[ch] = struct{}{}
	t.mu.Unlock()
	return ch, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if _, ok := t.subs[ch]; ok {
			delete(t.subs, ch)
			close(ch)
		}
	}
}

// MarshalJSON exports the events as a JSON array.
func (t *Trace) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.Events())
}
