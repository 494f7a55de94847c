package fault

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// StreamErrorEvent ends a real stream with an A2A error sent as an SSE
// event, after its first events (the task and its working status): over
// JSON-RPC a JSON-RPC error response, over HTTP+JSON a google.rpc.Status
// object ({"error": {...}}), each carrying the ErrorInfo reason in 1.0.
// The task has failed by then (a get shows it). With Sends, a real plain
// send is answered with the same error at once, so that a scenario can
// set the two side by side. A2A 1.0 defines no error event for a stream
// that has begun (a2aproject/A2A issue 1262 asks for one); SDKs send the
// binding's error object as an event (a2aproject/a2a-go issue 318,
// a2aproject/a2a-js issue 712), and clients have lost the error's type
// there. It breaks no clause. Probes are left alone.
type StreamErrorEvent struct {
	// Code is the JSON-RPC code of the error. Zero means -32001
	// (TaskNotFoundError).
	Code int `json:"code,omitempty" doc:"JSON-RPC error code; 0 means -32001 (task not found)"`
	// Message is the error message. Empty means "task lost".
	Message string `json:"message,omitempty" doc:"error message; empty means \"task lost\""`
	// Reason is the 1.0 ErrorInfo reason. Empty means the spec's reason
	// for Code (TASK_NOT_FOUND for -32001), else SERVER_ERROR.
	Reason string `json:"reason,omitempty" doc:"ErrorInfo reason; empty means the spec's reason for code, else SERVER_ERROR"`
	// AfterEvents is how many events the stream sends before the error.
	// Zero means 2 (the task and its working status).
	AfterEvents int `json:"afterEvents,omitempty" doc:"events before the error event; 0 means 2 (the task and its working status)"`
	// Sends answers real plain sends with the same error. False lets
	// them through.
	Sends bool `json:"sends,omitempty" doc:"answer real plain sends with the same error too; false lets them through"`
}

func init() {
	Register("stream-error-event", "a stream ends with an A2A error event after its first events; the task fails", func() any { return &StreamErrorEvent{} })
}

func (s *StreamErrorEvent) validate() error {
	if s.Code != 0 && (s.Code > -32000 || s.Code < -32768) {
		return &ConfigError{Field: "code", Msg: fmt.Sprintf("%d is not a JSON-RPC error code (-32768..-32000)", s.Code)}
	}
	if s.AfterEvents < 0 {
		return &ConfigError{Field: "afterEvents", Msg: "must not be negative"}
	}
	return nil
}

// OnCall ends a real stream with the error event, or answers a real
// plain send with it (Sends) (CallHook).
func (s *StreamErrorEvent) OnCall(c *Call) *CallError {
	if c.Probe {
		return nil
	}
	e := typedError(s.Code, s.Message, s.Reason, a2a.CodeTaskNotFound, "task lost")
	switch {
	case c.Op == trace.OpSend && s.Sends:
		return e
	case c.Op != trace.OpStream:
		return nil
	}
	c.StreamError, c.StreamErrorAfter = e, s.AfterEvents
	if c.StreamErrorAfter == 0 {
		c.StreamErrorAfter = 2
	}
	c.EndState, c.WorkFor = "failed", 0
	c.Faults = append(c.Faults, "stream-error-event")
	return nil
}
