package binding

import (
	"errors"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/upstream"
)

// streamLive sends an upstream's stream (ops.LiveStream) to sink as its
// events come, each encoded by the request's binding, and applies the
// stream faults of the call on the way as StreamEvents does on the
// fleet's own streams: the cut after StreamCut events (cleanly, or broken
// off with StreamAbort) and the error end after StreamErrorAfter. The
// agent's own error event ends the stream with that error; an agent
// whose stream stalls or breaks off gets the client an error end
// (stalled, a gateway timeout) or a broken-off stream (broken).
func streamLive(q *Request, live *ops.LiveStream, ev *trace.Event, sink FrameSink) {
	c := q.Call
	for n := 0; ; n++ {
		if c != nil && c.StreamCut > 0 && n == c.StreamCut {
			endStream(q, ops.Result{Abort: c.StreamAbort}, ev, sink)
			return
		}
		if c != nil && c.StreamError != nil && n == c.StreamErrorAfter {
			endStream(q, ops.Result{EndError: c.StreamError}, ev, sink)
			return
		}
		item, err := live.Next()
		if err != nil {
			trace.KeepResults(ev, live.Results())
			endLive(q, err, ev, sink)
			return
		}
		if ev.TaskID == "" {
			ev.TaskID = ops.TaskID(item)
		}
		if !sendFrame(sink, q.Binding.Frame(item), item, ev) {
			return
		}
	}
}

// endLive ends a live stream as the agent's stream ended: plainly, with
// its error event, or (stalled, broken off) as a gateway would.
func endLive(q *Request, err error, ev *trace.Event, sink FrameSink) {
	var agentErr *a2a.Error
	var gateway *upstream.Error
	switch {
	case ops.IsEnd(err):
	case errors.As(err, &agentErr):
		endStream(q, ops.Result{EndError: agentErr}, ev, sink)
		ev.Note = "stream ended by the agent's error event"
	case errors.As(err, &gateway) && gateway.Timeout:
		endStream(q, ops.Result{EndError: gateway.A2A()}, ev, sink)
		ev.Note = "the agent's stream stalled: ended with a gateway timeout error"
	default:
		ev.Note = "the agent's stream broke off: broken off here too (" + err.Error() + ")"
		sink.Abort()
	}
}
