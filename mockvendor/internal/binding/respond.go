package binding

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Respond writes the outcome of a request as its binding encodes it, over
// HTTP (the JSON-RPC and HTTP+JSON bindings). What every binding shares,
// whatever its wire, is in the functions it calls: AnswerHeader (the
// response's A2A-Version, the extensions activated, the header hooks),
// TraceCall and TraceError (the faults' record, the error), Settle (the
// task and state the answer carries, the answer hooks, a held or lost
// answer) and StreamEvents (a stream's events, waits and end).
func Respond(w http.ResponseWriter, r *http.Request, q *Request, res ops.Result, err error, ev *trace.Event) {
	hdr := w.Header()
	AnswerHeader(hdr, q)
	TraceCall(q, ev)
	b := q.Binding
	if err != nil {
		rpcErr, status := TraceError(err, ev)
		if !b.Answers() {
			writeNoAnswer(w, ev)
			return
		}
		ChallengeHeader(hdr, err)
		status, body, asEvent := b.ErrorAnswer(rpcErr, status)
		if asEvent {
			writeErrorEvent(w, body, ev)
			return
		}
		WriteJSON(w, status, body, ev)
		return
	}
	if !b.Answers() {
		writeNoAnswer(w, ev)
		return
	}
	switch Settle(r.Context(), q, &res, ev) {
	case Dropped:
		dropAnswer(w, ev)
		return
	case Gone:
		return
	}
	if res.Stream != nil || res.Live != nil {
		writeSSE(w, r, q, res, ev)
		return
	}
	WriteJSON(w, http.StatusOK, b.Answer(res), ev)
	trace.KeepResults(ev, res.Results)
}

// AnswerHeader sets the headers every answer of q carries, whatever its
// binding: the A2A-Version an honest vendor answers with, the extensions
// the request activated (extensions.go), then what the faults' header
// hooks make of them. The gRPC binding sends them as header metadata.
func AnswerHeader(hdr http.Header, q *Request) {
	rv := q.Host.ResponseVersion(q.Version, q.Dialect)
	if q.Upstream != nil {
		rv = q.Upstream.A2AVersion // a forwarded answer carries the agent's
	}
	if rv != "" {
		hdr[A2AVersionKey] = []string{rv} // hdr.Set("A2A-Version", rv)
	}
	echoExtensions(hdr, q)
	q.Host.RunHeaderHooks(hdr)
}

// TraceCall records in ev what the faults did to the call: the parts
// they coerced and the faults that acted.
func TraceCall(q *Request, ev *trace.Event) {
	if c := q.Call; c != nil {
		ev.Coercions = c.Coercions
		ev.Faults = c.Faults
	}
	ev.Upstream = q.Upstream
}

// TraceError maps err to the A2A error and HTTP status that answer it
// (WireError) and records the error in ev.
func TraceError(err error, ev *trace.Event) (*a2a.Error, int) {
	rpcErr, status := WireError(err)
	ev.ErrorCode, ev.ErrorMessage = rpcErr.Code, rpcErr.Message
	traceErrorData(ev, rpcErr)
	return rpcErr, status
}

// Settled is what is left to do with a successful answer once Settle
// has run.
type Settled int

const (
	// Write: write the answer (res as Settle left it).
	Write Settled = iota
	// Dropped: the answer is lost (lost-answer): the operation ran, its
	// task is marked undelivered, and the binding ends the exchange
	// without answering (HTTP: the connection closed; gRPC: the stream
	// reset).
	Dropped
	// Gone: nothing is to be written: the client left while the answer
	// was held, or the fleet is closing (the trace says so).
	Gone
)

// Settle does what every binding does with a successful answer before
// writing it: it records the task, the webhook and a resend in ev, drops
// a lost answer, holds a long task's blocking answer until ctx (the
// client) or the task ends (holdAnswer), lets the answer faults rewrite
// it, and records the state and message reply it carries.
func Settle(ctx context.Context, q *Request, res *ops.Result, ev *trace.Event) Settled {
	if ev.TaskID == "" {
		ev.TaskID = res.TaskID
	}
	ev.Webhook = res.Webhook
	if res.Resent {
		ev.Note = "a resend of an earlier message (same messageId): answered with its task, no new one"
	}
	if q.Call != nil && q.Call.DropAnswer {
		if res.Task != nil {
			res.Task.MarkUndelivered()
		}
		return Dropped
	}
	if res.HoldAnswer && !holdAnswer(ctx, q, res, ev) {
		return Gone
	}
	if rw := q.Host.AnswerHook(q.Call); rw != nil {
		rewriteAnswer(res, rw)
		ev.Faults = q.Call.Faults // the answer faults name themselves too
	}
	ev.State = a2a.NormalState(a2a.StateName(res.State, q.Dialect)) // as the wire said it
	ev.MessageReply = res.Message
	return Write
}

// rewriteAnswer lets the answer faults (fault.AnswerHook) change an
// answer before it is encoded: each event of a stream, or the result
// object, a send's task rendered to its map first (the fast encoder is
// then skipped).
func rewriteAnswer(res *ops.Result, rw func(map[string]any)) {
	if res.Live != nil {
		res.Live.Rewrite(rw)
		return
	}
	if res.Stream != nil {
		for _, item := range res.Stream {
			if m, ok := item.(map[string]any); ok {
				rw(m)
			}
		}
		return
	}
	v := res.ResultValue()
	if m, ok := v.(map[string]any); ok {
		rw(m)
	}
	res.Value, res.Sent = v, ops.SentTask{}
}

// dropAnswer closes the connection of a request whose operation ran (its
// task created) without answering it (lost-answer): the client reads an
// unexpected end of the connection. No status is recorded.
func dropAnswer(w http.ResponseWriter, ev *trace.Event) {
	ev.Note = "answer lost: the task was created, then the connection was closed before the answer (lost-answer)"
	breakOff(w)
}

// breakOff ends w's exchange with no orderly end: it closes the
// connection when it can take it over (HTTP/1.1), else it resets the
// request's stream (HTTP/2) by panicking with http.ErrAbortHandler.
func breakOff(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		_ = conn.Close()
		return
	}
	panic(http.ErrAbortHandler) // net/http resets what it cannot hand over
}

// holdAnswer waits, for a blocking send of a long task (res.HoldAnswer),
// until the task ends, is cancelled, or the client leaves or the fleet
// closes, and brings res up to the task's state then. False means nothing
// is to be written: the client left (the trace says so) or the fleet is
// closing.
func holdAnswer(ctx context.Context, q *Request, res *ops.Result, ev *trace.Event) bool {
	t := res.Task
	work := q.Host.Vendor().WorkTime()
	timer := time.NewTimer(max(time.Until(t.DoneAt(work)), 0))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-t.CanceledC():
	case <-ctx.Done():
		t.MarkUndelivered()
		ev.Note = "client left before the answer: a blocking send held while its task worked"
		return false
	case <-q.Host.Closing():
		ev.Note = "fleet closed while a blocking send was held"
		return false
	}
	now := time.Now()
	res.State = t.State(now, work)
	res.Sent.Now = now
	return true
}

// writeNoAnswer ends the exchange of a request that gets no answer, not
// even an error (a JSON-RPC notification): 204 and no body.
func writeNoAnswer(w http.ResponseWriter, ev *trace.Event) {
	w.WriteHeader(http.StatusNoContent)
	ev.Status, ev.Note = http.StatusNoContent, "notification: not answered"
}

// writeErrorEvent writes an error body as the one event of a stream
// (Binding.ErrorAnswer says when).
func writeErrorEvent(w http.ResponseWriter, body []byte, ev *trace.Event) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(append([]byte("data: "), body...), "\n\n"...))
	ev.Status, ev.ContentType = http.StatusOK, "text/event-stream"
}

// traceErrorData keeps the error's data in the event, when there is some
// and it is at most MaxTracedErrorData bytes of JSON, nested at most
// MaxTracedDepth deep (a fault's configured data may be anything).
func traceErrorData(ev *trace.Event, rpcErr *a2a.Error) {
	if len(rpcErr.Data) == 0 {
		return
	}
	b, err := json.Marshal(rpcErr.Data)
	switch {
	case err != nil:
		return
	case len(b) > trace.MaxTracedErrorData || trace.NestedDeeper(b, trace.MaxTracedDepth):
		ev.Clipped = trace.AppendOnce(ev.Clipped, "errorData")
	default:
		ev.ErrorData = b
	}
}

// jsonContentTypeHeader is the Content-Type header value of every JSON answer,
// shared (net/http only reads it; Header.Set and Add replace or copy).
var jsonContentTypeHeader = []string{"application/json"}

// WriteJSON writes a JSON response body.
func WriteJSON(w http.ResponseWriter, status int, body []byte, ev *trace.Event) {
	w.Header()["Content-Type"] = jsonContentTypeHeader
	w.WriteHeader(status)
	_, _ = w.Write(body)
	ev.Status, ev.ContentType = status, "application/json"
}

// writeSSE sends the events of a stream as server-sent events (both
// HTTP bindings stream so: A2A 1.0 §9.4.2, §11.7), each encoded by the
// request's binding (StreamEvents drives them).
func writeSSE(w http.ResponseWriter, r *http.Request, q *Request, res ops.Result, ev *trace.Event) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ev.Status, ev.ContentType, ev.State = http.StatusOK, "text/event-stream", ""
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	StreamEvents(r.Context(), q, res, ev, &sseSink{w: w, rc: rc, q: q})
}

// sseSink writes a stream's events as server-sent events.
type sseSink struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	q   *Request
	buf bytes.Buffer
}

// Frame writes one event's data and flushes it.
func (s *sseSink) Frame(b []byte) bool {
	s.buf.Reset()
	s.buf.WriteString("data: ")
	s.buf.Write(b)
	s.buf.WriteString("\n\n")
	if _, err := s.w.Write(s.buf.Bytes()); err != nil {
		return false
	}
	return s.rc.Flush() == nil
}

// EndError writes e as the stream's last event, the error as the
// request's binding renders it (a JSON-RPC error response; an HTTP+JSON
// google.rpc.Status object).
func (s *sseSink) EndError(e *a2a.Error) bool {
	_, body, _ := s.q.Binding.ErrorAnswer(e, http.StatusOK)
	return s.Frame(body)
}

// Abort closes the connection without the closing chunk: the client
// reads an unexpected EOF (HTTP/2: the stream is reset, breakOff).
func (s *sseSink) Abort() { breakOff(s.w) }
