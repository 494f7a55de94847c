package fault

import (
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// StreamContentTypeLie answers stream methods with a single application/json
// response although the card claims streaming [card as claim, not contract:
// Condition of Validity]. It breaks A2A 1.0 §3.1.2 (the stream operation MUST
// establish a streaming connection) and §9.4.2 (a JSON-RPC stream answers
// text/event-stream).
type StreamContentTypeLie struct{}

func init() {
	Register("stream-content-type-lie", "stream methods answer application/json instead of text/event-stream", func() any { return &StreamContentTypeLie{} })
}

// OnCall has a stream answered as plain JSON (CallHook).
func (StreamContentTypeLie) OnCall(c *Call) *CallError {
	if c.Op == trace.OpStream {
		c.StreamAsJSON = true
		c.Faults = append(c.Faults, "stream-content-type-lie")
	}
	return nil
}
