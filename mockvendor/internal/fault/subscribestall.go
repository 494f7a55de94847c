package fault

import (
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// SubscribeStall holds a subscription (SubscribeToTask,
// tasks/resubscribe, GET tasks/{id}:subscribe) open before its first
// event: by default the first event never comes, and the connection stays
// open until the client leaves or the fleet closes, as a subscription
// registered where no producer writes does (a2aproject/a2a-dotnet issue
// 340). The task itself runs on and can be read by GetTask. It breaks A2A
// 1.0 §3.1.6: a subscription MUST return the task as its first event.
// Subscriptions to a probe's task id are left alone.
type SubscribeStall struct {
	// DelayMs is how long the first event waits, in milliseconds. Zero
	// means it never comes.
	DelayMs int `json:"delayMs,omitempty" doc:"milliseconds before the first event; 0 means it never comes (held until the client leaves)"`
}

// stallForever stands for "never": the stream writer gives up waiting
// when the client leaves or the fleet closes, long before.
const stallForever = 24 * time.Hour

func init() {
	Register("subscribe-stall", "a subscription sends no first event (held open until the client leaves)", func() any { return &SubscribeStall{} })
}

func (s *SubscribeStall) validate() error {
	if s.DelayMs < 0 {
		return fmt.Errorf("delayMs must not be negative")
	}
	return nil
}

// OnCall delays a subscription's first event (CallHook).
func (s *SubscribeStall) OnCall(c *Call) *CallError {
	if c.Op != trace.OpSubscribe || c.Probe {
		return nil
	}
	c.FirstFrameDelay = stallForever
	if s.DelayMs > 0 {
		c.FirstFrameDelay = time.Duration(s.DelayMs) * time.Millisecond
	}
	c.Faults = append(c.Faults, "subscribe-stall")
	return nil
}
