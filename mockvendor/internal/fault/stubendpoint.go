package fault

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// StubEndpoint answers every JSON-RPC method with one protocol error,
// -32601 (method not found) or -32602 (invalid params): the card looks fine
// but the endpoint does not implement A2A [card as claim, not contract:
// Condition of Validity; the reference code of its Operational Effect reads
// both codes as "no task lifecycle"]. The vendor's card then breaks A2A 1.0
// §8.3.1: each interface MUST accurately declare its transport protocol and
// URL.
type StubEndpoint struct {
	// Code is the JSON-RPC error every method gets: -32601 or -32602. Zero
	// means -32601.
	Code int `json:"code,omitempty" doc:"error code answered, -32601 or -32602; 0 means -32601"`
}

func init() {
	Register("stub-endpoint", "every JSON-RPC method answers -32601 (or -32602)", func() any { return &StubEndpoint{} })
}

func (s *StubEndpoint) validate() error {
	if s.Code != 0 && s.Code != -32601 && s.Code != -32602 {
		return fmt.Errorf("code %d is neither -32601 nor -32602", s.Code)
	}
	return nil
}

// OnCall answers every call with -32601 (or -32602) (CallHook).
func (s *StubEndpoint) OnCall(c *Call) *CallError {
	if s.Code == -32602 {
		return a2a.InvalidParams("the endpoint takes no parameters for " + c.Method)
	}
	return a2a.MethodNotFound(c.Method)
}
