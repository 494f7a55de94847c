package fault

import (
	"cmp"
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// StreamErrorJSON answers a real stream (SendStreamingMessage,
// message/stream, POST message:stream) with an A2A error before any
// stream begins, as a plain application/json answer: over JSON-RPC an
// error response (HTTP 200, A2A 1.0 §9.5), over HTTP+JSON a
// google.rpc.Status with the error's HTTP status (§11.6). Plain sends and
// probes are left alone, so the same work goes by SendMessage. It breaks
// no clause: an error of the operation comes before its stream, and the
// bindings answer errors as JSON (§9.1: application/json responses;
// §11.6). Clients have taken such an answer for an empty stream
// (a2aproject/a2a-rs PR 146, topcheer/ggcode issue 446) or reported an
// SSE protocol error in its place (a2aproject/a2a-python issue 502).
type StreamErrorJSON struct {
	// Code is the JSON-RPC code of the error. Zero means -32603
	// (InternalError).
	Code int `json:"code,omitempty" doc:"JSON-RPC error code; 0 means -32603 (internal error)"`
	// Message is the error message. Empty means "streaming backend
	// unavailable".
	Message string `json:"message,omitempty" doc:"error message; empty means \"streaming backend unavailable\""`
	// Reason is the 1.0 ErrorInfo reason. Empty means the spec's reason
	// for Code (INTERNAL for -32603), else SERVER_ERROR.
	Reason string `json:"reason,omitempty" doc:"ErrorInfo reason; empty means the spec's reason for code (INTERNAL for -32603), else SERVER_ERROR"`
}

func init() {
	Register("stream-error-json", "stream methods answer an A2A error as plain JSON before any stream (plain sends pass)", func() any { return &StreamErrorJSON{} })
}

func (s *StreamErrorJSON) validate() error {
	if s.Code != 0 && (s.Code > -32000 || s.Code < -32768) {
		return &ConfigError{Field: "code", Msg: fmt.Sprintf("%d is not a JSON-RPC error code (-32768..-32000)", s.Code)}
	}
	return nil
}

// OnCall answers a real stream with the error, as plain JSON (CallHook).
func (s *StreamErrorJSON) OnCall(c *Call) *CallError {
	if c.Op != trace.OpStream || c.Probe {
		return nil
	}
	c.StreamAsJSON = true
	return typedError(s.Code, s.Message, s.Reason, a2a.CodeInternal, "streaming backend unavailable")
}

// typedError is the A2A error a fault configures by code, message and
// reason, each defaulted: code to defCode, message to defMsg, reason to the
// spec's reason of the code (INTERNAL for -32603), else SERVER_ERROR.
func typedError(code int, msg, reason string, defCode int, defMsg string) *CallError {
	code = cmp.Or(code, defCode)
	if reason == "" {
		reason = "SERVER_ERROR"
		if r, ok := a2a.CodeReason(code); ok {
			reason = r
		} else if code == a2a.CodeInternal {
			reason = "INTERNAL"
		}
	}
	return &CallError{Code: code, Message: cmp.Or(msg, defMsg), Reason: reason}
}
