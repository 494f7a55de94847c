package fault

import (
	"cmp"
	"fmt"
	"sync"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// ServerError answers sends with an error in the server range
// (-32000..-32099), the range callers coded against -32603 do not handle [card
// as claim, not contract: Core Distinction]. A code A2A assigns used for
// another failure breaks A2A 1.0 §3.3.2 (servers MUST return appropriate
// errors): the default -32005 is ContentTypeNotSupportedError (A2A 1.0 §5.4,
// 0.3 §8.2), not the quota or upstream failure the source document's vendor
// reported with it.
type ServerError struct {
	// Code is the JSON-RPC code, -32000 to -32099. Zero means -32005.
	Code int `json:"code,omitempty" doc:"JSON-RPC code in -32000..-32099; 0 means -32005"`
	// Message is the error message. Empty means "server error".
	Message string `json:"message,omitempty" doc:"error message; empty means \"server error\""`
	// Data is the vendor's error data. Nil sends none.
	Data map[string]any `json:"data,omitempty" doc:"error data object; absent sends none"`
	// Times is how many sends fail. Zero means every send.
	Times int `json:"times,omitempty" doc:"how many sends fail; 0 means all"`
	// Probes makes probes fail too (and count). False lets probes through.
	Probes bool `json:"probes,omitempty" doc:"fail probes too; false lets them through"`

	mu     sync.Mutex
	failed int
}

func init() {
	Register("server-error", "sends fail with a server-range JSON-RPC error", func() any { return &ServerError{} })
}

func (s *ServerError) validate() error {
	if s.Code != 0 && (s.Code > -32000 || s.Code < -32099) {
		return fmt.Errorf("code %d is outside -32000..-32099", s.Code)
	}
	if s.Times < 0 {
		return fmt.Errorf("times must not be negative")
	}
	return nil
}

// OnCall answers sends and streams (the first Times of them; probes only
// with Probes) with the configured error (CallHook).
func (s *ServerError) OnCall(c *Call) *CallError {
	if (c.Op != trace.OpSend && c.Op != trace.OpStream) || (c.Probe && !s.Probes) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Times > 0 && s.failed >= s.Times {
		return nil
	}
	s.failed++
	code := s.Code
	if code == 0 {
		code = -32005
	}
	return &CallError{Code: code, Message: cmp.Or(s.Message, "server error"), Data: s.Data, Reason: "SERVER_ERROR"}
}
