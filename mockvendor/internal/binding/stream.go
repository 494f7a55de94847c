package binding

import (
	"context"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// FrameSink is where a stream's events go, in a binding's form: the
// HTTP bindings write server-sent events, the gRPC binding messages of a
// server stream. No method takes the trace event (StreamEvents records
// what each did).
type FrameSink interface {
	// Frame sends one event, b being its encoding by the request's
	// binding (Binding.Frame), and flushes it; false when the client is
	// gone.
	Frame(b []byte) bool
	// EndError ends the stream with the error e after its events
	// (stream-error-event); false when the client is gone.
	EndError(e *a2a.Error) bool
	// Abort breaks the stream off with no orderly end (stream-cut).
	Abort()
}

// StreamEvents sends the events of a stream to sink, each encoded by the
// request's binding, and ends it, for every binding alike. An event the
// dialect does not send (nil) is skipped; it counts all the same, so
// that every dialect and binding counts a stream's events alike
// (restFrom, stream-cut). The first event waits the call's
// FirstFrameDelay (slow-frame); the events after the first wait
// res.RestAfter (a subscription waits for the task's next change); a
// task cancelled meanwhile ends the stream with its canceled status
// instead (A2A 1.0 §3.5.2: every stream of a task gets its events). ctx
// is the client's: its end ends the stream. The trace records each state
// a frame delivered when the frame was sent (Event.Seen), so a stream the
// client left, or that broke off, before its final frame does not show
// the final state.
func StreamEvents(ctx context.Context, q *Request, res ops.Result, ev *trace.Event, sink FrameSink) {
	if res.Live != nil {
		defer res.Live.Close()
	}
	if !waitFirstFrame(ctx, q, ev) {
		return
	}
	if res.Live != nil {
		streamLive(q, res.Live, ev, sink)
		return
	}
	restFrom := max(res.RestFrom, 1)
	for i, item := range res.Stream {
		if i == restFrom && res.RestAfter > 0 {
			switch waitRest(ctx, q, res, ev) {
			case restCanceled:
				end := ops.StatusFrame(res.Task, q.Dialect, "canceled")
				sendFrame(sink, q.Binding.Frame(end), end, ev)
				return
			case restGone:
				return
			}
		}
		if item == nil {
			continue // an event the dialect does not send
		}
		if !sendFrame(sink, q.Binding.Frame(item), item, ev) {
			return
		}
		if i == res.ResultsAt {
			trace.KeepResults(ev, res.Results) // every part of them is out
		}
	}
	endStream(q, res, ev, sink)
}

// endStream ends a stream whose events are out: with an error
// (stream-error-event), broken off (stream-cut's abort), or plainly.
func endStream(q *Request, res ops.Result, ev *trace.Event, sink FrameSink) {
	switch {
	case res.EndError != nil:
		e := res.EndError
		if !sink.EndError(e) {
			ev.Note = "client left mid-stream"
			return
		}
		ev.ErrorCode, ev.ErrorMessage = e.Code, e.Message
		traceErrorData(ev, e)
		ev.Note = "stream ended by an error event (stream-error-event)"
	case res.Abort:
		ev.Note = "stream broken off mid-way, the task still running (stream-cut)"
		sink.Abort()
	case len(ev.Faults) > 0 && slices.Contains(ev.Faults, "stream-cut"):
		ev.Note = "stream ended cleanly, the task still running (stream-cut)"
	}
}

// waitFirstFrame waits the call's FirstFrameDelay (none: no wait); false
// when the client left or the fleet closed meanwhile.
func waitFirstFrame(ctx context.Context, q *Request, ev *trace.Event) bool {
	d := q.Call.FirstFrameDelay
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		ev.Note = "client left before the first frame"
	case <-q.Host.Closing():
	}
	return false
}

// sendFrame sends one stream event item, encoded as b, recording the
// state it announces (if any) as seen now; false when the client is gone.
func sendFrame(sink FrameSink, b []byte, item any, ev *trace.Event) bool {
	if !sink.Frame(b) {
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
func waitRest(ctx context.Context, q *Request, res ops.Result, ev *trace.Event) restWait {
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
	case <-ctx.Done():
		ev.Note = "client left mid-stream"
	case <-q.Host.Closing():
	}
	return restGone
}
