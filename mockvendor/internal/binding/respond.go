package binding

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Respond writes the outcome of a request as its binding encodes it.
// What every binding shares is here: the response's A2A-Version, the
// header hooks, the authentication challenge, the no-answer of a
// notification, and the trace event's completion (the faults' record, the
// error, the task and state the answer carries).
func Respond(w http.ResponseWriter, r *http.Request, q *Request, res ops.Result, err error, ev *trace.Event) {
	hdr := w.Header()
	if rv := q.Host.ResponseVersion(q.Version, q.Dialect); rv != "" {
		hdr[A2AVersionKey] = []string{rv} // hdr.Set("A2A-Version", rv)
	}
	echoExtensions(hdr, q)
	q.Host.RunHeaderHooks(hdr)
	if c := q.Call; c != nil {
		ev.Coercions = c.Coercions
		ev.Faults = c.Faults
	}
	b := q.Binding
	if err != nil {
		rpcErr, status := WireError(err)
		ev.ErrorCode, ev.ErrorMessage = rpcErr.Code, rpcErr.Message
		traceErrorData(ev, rpcErr)
		if !b.Answers() {
			writeNoAnswer(w, ev)
			return
		}
		challengeHeader(hdr, err)
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
		dropAnswer(w, ev)
		return
	}
	if res.HoldAnswer && !holdAnswer(r, q, &res, ev) {
		return
	}
	if rw := q.Host.AnswerHook(q.Call); rw != nil {
		rewriteAnswer(&res, rw)
		ev.Faults = q.Call.Faults // the answer faults name themselves too
	}
	ev.State = a2a.NormalState(a2a.StateName(res.State, q.Dialect)) // as the wire said it
	ev.MessageReply = res.Message
	if res.Stream != nil {
		writeSSE(w, r, q, res, ev)
		return
	}
	WriteJSON(w, http.StatusOK, b.Answer(res), ev)
	trace.KeepResults(ev, res.Results)
}

// rewriteAnswer lets the answer faults (fault.AnswerHook) change an
// answer before it is encoded: each event of a stream, or the result
// object, a send's task rendered to its map first (the fast encoder is
// then skipped).
func rewriteAnswer(res *ops.Result, rw func(map[string]any)) {
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
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		_ = conn.Close()
		return
	}
	panic(http.ErrAbortHandler) // a connection that cannot be taken over is reset
}

// holdAnswer waits, for a blocking send of a long task (res.HoldAnswer),
// until the task ends, is cancelled, or the client leaves or the fleet
// closes, and brings res up to the task's state then. False means nothing
// is to be written: the client left (the trace says so) or the fleet is
// closing.
func holdAnswer(r *http.Request, q *Request, res *ops.Result, ev *trace.Event) bool {
	t := res.Task
	work := q.Host.Vendor().WorkTime()
	timer := time.NewTimer(max(time.Until(t.DoneAt(work)), 0))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-t.CanceledC():
	case <-r.Context().Done():
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
// bindings stream so: A2A 1.0 §9.4.2, §11.7), each encoded by the
// request's binding, and closes the stream. An event the dialect does not
// send (nil) is skipped; it counts all the same, so that every dialect
// and binding counts a stream's events alike (restFrom, stream-cut). The
// events after the first wait res.RestAfter (a subscription waits for the
// task's next change); a task cancelled meanwhile ends the stream with its
// canceled status instead (A2A 1.0 §3.5.2: every stream of a task gets its
// events). The trace records each state a frame delivered when the frame
// was written (Event.Seen), so a stream the client left, or that broke
// off, before its final frame does not show the final state.
func writeSSE(w http.ResponseWriter, r *http.Request, q *Request, res ops.Result, ev *trace.Event) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ev.Status, ev.ContentType, ev.State = http.StatusOK, "text/event-stream", ""
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	if d := q.Call.FirstFrameDelay; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			ev.Note = "client left before the first frame"
			return
		case <-q.Host.Closing():
			return
		}
	}
	var buf bytes.Buffer
	restFrom := max(res.RestFrom, 1)
	for i, item := range res.Stream {
		if i == restFrom && res.RestAfter > 0 {
			switch waitRest(r, q, res, ev) {
			case restCanceled:
				end := ops.StatusFrame(res.Task, q.Dialect, "canceled")
				writeFrame(w, rc, &buf, q.Binding.Frame(end), end, ev)
				return
			case restGone:
				return
			}
		}
		if item == nil {
			continue // an event the dialect does not send
		}
		if !writeFrame(w, rc, &buf, q.Binding.Frame(item), item, ev) {
			return
		}
		if i == res.ResultsAt {
			trace.KeepResults(ev, res.Results) // every part of them is out
		}
	}
	if res.EndError != nil {
		writeEndError(w, rc, &buf, q, res.EndError, ev)
		return
	}
	if res.Abort {
		ev.Note = "stream broken off mid-way, the task still running (stream-cut)"
		if conn, _, err := rc.Hijack(); err == nil {
			_ = conn.Close() // no closing chunk: the client reads an unexpected EOF
		}
		return
	}
	if len(ev.Faults) > 0 && slices.Contains(ev.Faults, "stream-cut") {
		ev.Note = "stream ended cleanly, the task still running (stream-cut)"
	}
}

// writeEndError ends a stream with an error event (stream-error-event):
// the error as the request's binding renders it (a JSON-RPC error
// response; an HTTP+JSON google.rpc.Status object), as one more SSE
// event, recorded as the error the stream answered.
func writeEndError(w http.ResponseWriter, rc *http.ResponseController, buf *bytes.Buffer, q *Request, e *a2a.Error, ev *trace.Event) {
	_, body, _ := q.Binding.ErrorAnswer(e, http.StatusOK)
	buf.Reset()
	buf.WriteString("data: ")
	buf.Write(body)
	buf.WriteString("\n\n")
	if _, err := w.Write(buf.Bytes()); err != nil || rc.Flush() != nil {
		ev.Note = "client left mid-stream"
		return
	}
	ev.ErrorCode, ev.ErrorMessage = e.Code, e.Message
	traceErrorData(ev, e)
	ev.Note = "stream ended by an error event (stream-error-event)"
}

// writeFrame writes one stream event item, encoded as b, and flushes it,
// recording the state it announces (if any) as seen now; false when the
// client is gone.
func writeFrame(w http.ResponseWriter, rc *http.ResponseController, buf *bytes.Buffer, b []byte, item any, ev *trace.Event) bool {
	buf.Reset()
	buf.WriteString("data: ")
	buf.Write(b)
	buf.WriteString("\n\n")
	if _, err := w.Write(buf.Bytes()); err != nil {
		ev.Note = "client left mid-stream"
		return false
	}
	if rc.Flush() != nil {
		ev.Note = "client left mid-stream"
		return false
	}
	if st := frameState(item); st != "" {
		ev.State = st
		if len(ev.Seen) < trace.MaxTracedSeen {
			ev.Seen = append(ev.Seen, trace.SeenState{State: st, Time: time.Now()})
		} else {
			ev.Clipped = trace.AppendOnce(ev.Clipped, "seen")
		}
	}
	return true
}

// frameState is the task state a stream event announces, in the 0.3
// spelling ("" for a Message or an artifact update): a Task's status or a
// status update's, in each dialect's shape.
func frameState(item any) string {
	m, ok := item.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range []string{"task", "statusUpdate"} { // 1.0 wraps them
		if inner, ok := m[k].(map[string]any); ok {
			m = inner
			break
		}
	}
	status, _ := m["status"].(map[string]any)
	st, _ := status["state"].(string)
	if st == "" {
		return ""
	}
	return a2a.NormalState(st)
}

// restWait is how a stream's wait for the rest of its events ended.
type restWait int

const (
	restDue      restWait = iota // the wait ran out: the rest is due
	restCanceled                 // the task was cancelled meanwhile
	restGone                     // the client left or the fleet closed
)

// waitRest waits res.RestAfter for the rest of a stream's events, unless
// the task is cancelled, the client leaves or the fleet closes first.
func waitRest(r *http.Request, q *Request, res ops.Result, ev *trace.Event) restWait {
	t := time.NewTimer(res.RestAfter)
	defer t.Stop()
	var canceled <-chan struct{}
	if res.Task != nil {
		canceled = res.Task.CanceledC()
	}
	select {
	case <-t.C:
		return restDue
	case <-canceled:
		return restCanceled
	case <-r.Context().Done():
		ev.Note = "client left mid-stream"
	case <-q.Host.Closing():
	}
	return restGone
}
