package fault

import (
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// SlowFirstFrame holds a stream open before its first event, past the
// first-frame timeout the card declares [card as claim, not contract:
// Condition of Validity]. It breaks A2A 1.0 §3.1.2 (a stream MUST provide
// immediate feedback on progress) and the vendor's own card.
type SlowFirstFrame struct {
	// DelayMs is the wait before the first SSE event, in milliseconds. Zero
	// means 10,000.
	DelayMs int `json:"delayMs,omitempty" doc:"milliseconds before the first SSE event; 0 means 10000"`
}

func init() {
	Register("slow-first-frame", "a stream waits before its first event", func() any { return &SlowFirstFrame{} })
}

func (s *SlowFirstFrame) validate() error {
	if s.DelayMs < 0 {
		return fmt.Errorf("delayMs must not be negative")
	}
	return nil
}

// OnCall delays a stream's first event (CallHook).
func (s *SlowFirstFrame) OnCall(c *Call) *CallError {
	if c.Op == trace.OpStream {
		d := s.DelayMs
		if d == 0 {
			d = 10_000
		}
		c.FirstFrameDelay = time.Duration(d) * time.Millisecond
		c.Faults = append(c.Faults, "slow-first-frame")
	}
	return nil
}
