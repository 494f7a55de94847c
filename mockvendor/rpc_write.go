package mockvendor

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// writeAnswer renders the answer (or the error) in the request's dialect
// and completes the trace event.
func (h *host) writeAnswer(w http.ResponseWriter, r *http.Request, q *rpcRequest, res rpcResult, err error, ev *Event) {
	hdr := w.Header()
	if rv := h.vendor.responseVersion(q.version, q.dialect); rv != "" {
		hdr[a2aVersionKey] = []string{rv} // hdr.Set("A2A-Version", rv)
	}
	h.vendor.runHeaderHooks(h.sanName(), hdr)
	if c := q.call; c != nil {
		ev.Coercions = c.Coercions
		ev.Faults = c.Faults
	}
	if q.notification {
		// A JSON-RPC notification (no id member) gets no answer, not even
		// an error: the HTTP exchange ends with 204 and no body.
		if err != nil {
			rpcErr, _ := rpcFailure(err)
			ev.ErrorCode, ev.ErrorMessage = rpcErr.Code, rpcErr.Message
			traceErrorData(ev, rpcErr)
		}
		w.WriteHeader(http.StatusNoContent)
		ev.Status, ev.Note = http.StatusNoContent, "notification: not answered"
		return
	}
	if err != nil {
		rpcErr, status := rpcFailure(err)
		ev.ErrorCode, ev.ErrorMessage = rpcErr.Code, rpcErr.Message
		traceErrorData(ev, rpcErr)
		challengeHeader(hdr, err)
		if q.rest {
			writeRESTError(w, rpcErr, status, h.vendor.errorDomain(), ev)
			return
		}
		h.writeError(w, q, rpcErr, status, ev)
		return
	}
	if ev.TaskID == "" {
		ev.TaskID = res.taskID
	}
	ev.State = a2a.NormalState(a2a.StateName(res.state, q.dialect)) // as the wire said it
	ev.MessageReply = res.message
	if res.stream != nil {
		h.writeStream(w, r, q, res, ev)
		return
	}
	body := res.body
	switch {
	case q.rest:
		body = encodeAnswer(res.value, false) // the binding's answer is the bare result
	case body == nil:
		body = encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "result": res.value}, q.fast)
	}
	writeJSON(w, http.StatusOK, body, ev)
}

// traceErrorData keeps the error's data in the event, when there is some
// and it is at most MaxTracedErrorData bytes of JSON, nested at most
// MaxTracedDepth deep (a fault's configured data may be anything).
func traceErrorData(ev *Event, rpcErr *RPCError) {
	if len(rpcErr.Data) == 0 {
		return
	}
	b, err := json.Marshal(rpcErr.Data)
	switch {
	case err != nil:
		return
	case len(b) > MaxTracedErrorData || trace.NestedDeeper(b, MaxTracedDepth):
		ev.Clipped = trace.AppendOnce(ev.Clipped, "errorData")
	default:
		ev.ErrorData = b
	}
}

// writeRESTError writes an HTTP+JSON error: the HTTP status of the error
// (status when the JSON-RPC path would not answer 200: an over-limit body)
// and a google.rpc.Status body; domain is the vendor's ErrorInfo domain.
func writeRESTError(w http.ResponseWriter, rpcErr *RPCError, status int, domain string, ev *Event) {
	name := "INVALID_ARGUMENT"
	if status == http.StatusUnauthorized {
		name = "UNAUTHENTICATED"
	}
	if status == http.StatusOK {
		status, name = restStatus(rpcErr.Code)
	}
	writeJSON(w, status, encodeAnswer(rpcErr.rest(status, name, domain), false), ev)
}

// writeError writes a JSON-RPC error response.
func (h *host) writeError(w http.ResponseWriter, q *rpcRequest, rpcErr *RPCError, status int, ev *Event) {
	b := encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "error": rpcErr.wire(q.dialect, h.vendor.errorDomain())}, q.fast)
	if c := q.call; status == http.StatusOK && c != nil && (q.dialect != Dialect01 && c.Op == OpStream && !c.StreamAsJSON || q.dialect == Dialect03 && q.info.task == taskSubscribe) {
		// A 0.3 or 1.0 stream's answer is an SSE stream of JSON-RPC responses,
		// which includes the error response: a2a-go v0.3.3 reads only "data: "
		// lines and sees an application/json error body as an empty stream,
		// and @a2a-js/sdk refuses any stream answer that is not
		// text/event-stream before it looks at the error; so the error
		// travels as the stream's one event (as a2a-go's own server sends it).
		// So does a 0.3 tasks/resubscribe error (a2a-go's ResubscribeToTask
		// would see none otherwise); a 1.0 SubscribeToTask error stays plain
		// JSON, which the official TCK reads (STREAM-SUB-004).
		hdr := w.Header()
		hdr.Set("Content-Type", "text/event-stream")
		hdr.Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(append(append([]byte("data: "), b...), "\n\n"...))
		ev.Status, ev.ContentType = http.StatusOK, "text/event-stream"
		return
	}
	writeJSON(w, status, b, ev)
}

// jsonContentTypeHeader is the Content-Type header value of every JSON answer,
// shared (net/http only reads it; Header.Set and Add replace or copy).
var jsonContentTypeHeader = []string{"application/json"}

// writeJSON writes a JSON response body.
func writeJSON(w http.ResponseWriter, status int, body []byte, ev *Event) {
	w.Header()["Content-Type"] = jsonContentTypeHeader
	w.WriteHeader(status)
	_, _ = w.Write(body)
	ev.Status, ev.ContentType = status, "application/json"
}

// writeStream sends the events as server-sent events and closes the stream.
// The events after the first wait res.restAfter (a subscription waits for
// the task's next change); a task cancelled meanwhile ends the stream with
// its canceled status instead (A2A 1.0 §3.5.2: every stream of a task gets
// its events). The trace records each state a frame delivered when the
// frame was written (Event.Seen), so a stream the client left, or that
// broke off, before its final frame does not show the final state.
func (h *host) writeStream(w http.ResponseWriter, r *http.Request, q *rpcRequest, res rpcResult, ev *Event) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ev.Status, ev.ContentType, ev.State = http.StatusOK, "text/event-stream", ""
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	if d := q.call.FirstFrameDelay; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			ev.Note = "client left before the first frame"
			return
		case <-h.vendor.fleet.closing:
			return
		}
	}
	var buf bytes.Buffer
	restFrom := max(res.restFrom, 1)
	for i, item := range res.stream {
		if i == restFrom && res.restAfter > 0 {
			switch h.waitRest(r, res, ev) {
			case restCanceled:
				h.writeFrame(w, rc, &buf, q, statusFrame(res.task, q.dialect, "canceled"), ev)
				return
			case restGone:
				return
			}
		}
		if !h.writeFrame(w, rc, &buf, q, item, ev) {
			return
		}
	}
	if res.abort {
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

// writeFrame writes one stream event and flushes it, recording the state
// it announces (if any) as seen now; false when the client is gone.
func (h *host) writeFrame(w http.ResponseWriter, rc *http.ResponseController, buf *bytes.Buffer, q *rpcRequest, item any, ev *Event) bool {
	buf.Reset()
	var b []byte
	if q.rest {
		b = encodeAnswer(item, false) // §11.7: the bare StreamResponse
	} else {
		b = encodeAnswer(map[string]any{"jsonrpc": "2.0", "id": idOrNull(q.id), "result": item}, q.fast)
	}
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
		if len(ev.Seen) < MaxTracedSeen {
			ev.Seen = append(ev.Seen, SeenState{State: st, Time: time.Now()})
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

// statusFrame is the final status update of task t in state (0.3
// spelling), as a stream in dialect d sends it.
func statusFrame(t *task, d Dialect, state string) any {
	status := map[string]any{"state": a2a.StateName(state, d), "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
	switch d {
	case Dialect01:
		return map[string]any{"id": t.ID, "status": status, "final": true}
	case Dialect03:
		return map[string]any{"kind": "status-update", "taskId": t.ID, "contextId": t.ContextID, "status": status, "final": true}
	}
	return map[string]any{"statusUpdate": map[string]any{"taskId": t.ID, "contextId": t.ContextID, "status": status}}
}

// restWait is how a stream's wait for the rest of its events ended.
type restWait int

const (
	restDue      restWait = iota // the wait ran out: the rest is due
	restCanceled                 // the task was cancelled meanwhile
	restGone                     // the client left or the fleet closed
)

// waitRest waits res.restAfter for the rest of a stream's events, unless
// the task is cancelled, the client leaves or the fleet closes first.
func (h *host) waitRest(r *http.Request, res rpcResult, ev *Event) restWait {
	t := time.NewTimer(res.restAfter)
	defer t.Stop()
	var canceled <-chan struct{}
	if res.task != nil {
		canceled = res.task.CanceledC()
	}
	select {
	case <-t.C:
		return restDue
	case <-canceled:
		return restCanceled
	case <-r.Context().Done():
		ev.Note = "client left mid-stream"
	case <-h.vendor.fleet.closing:
	}
	return restGone
}
