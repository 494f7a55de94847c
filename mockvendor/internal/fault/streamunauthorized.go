package fault

import (
	"cmp"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// StreamUnauthorized refuses every real stream with HTTP 401 and a
// WWW-Authenticate challenge, while plain sends go through without a
// credential: the stream path sits behind an authenticating gateway the
// card says nothing of. The card declares no security scheme, so the
// caller holds nothing it could present: the vendor breaks its card (A2A
// 1.0 §4.4's securitySchemes and securityRequirements declare what a call
// needs; §3.3.2 has a server reject a call whose credentials are missing
// only where it requires them). Probes are left alone.
type StreamUnauthorized struct {
	// Challenge is the WWW-Authenticate header. Empty means
	// `Bearer realm="stream"`.
	Challenge string `json:"challenge,omitempty" doc:"WWW-Authenticate challenge; empty means Bearer realm=\"stream\""`
}

func init() {
	Register("stream-unauthorized", "stream methods answer HTTP 401 with a challenge; plain sends pass without a credential", func() any { return &StreamUnauthorized{} })
}

// OnCall refuses a real stream as unauthenticated (CallHook).
func (s *StreamUnauthorized) OnCall(c *Call) *CallError {
	if c.Op != trace.OpStream || c.Probe {
		return nil
	}
	c.Challenge = cmp.Or(s.Challenge, `Bearer realm="stream"`)
	return &CallError{Code: -32000, Message: "Unauthenticated: the stream needs a credential", Data: map[string]any{"scheme": "bearer"}, Reason: "UNAUTHENTICATED"}
}
