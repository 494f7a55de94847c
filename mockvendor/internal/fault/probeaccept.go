package fault

import (
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// ProbeAccept makes a probe create a task that stays working until it is
// cancelled, as a real agent that takes the probe for work would [card as
// claim, not contract: Decision Boundary: an accepted probe must be
// cancelled].
type ProbeAccept struct{}

func init() {
	Register("probe-accept", "a probe returns a task that stays working until cancelled", func() any { return &ProbeAccept{} })
}

// OnCall holds the task a probe send or stream creates (CallHook).
func (ProbeAccept) OnCall(c *Call) *CallError {
	if c.Probe && (c.Op == trace.OpSend || c.Op == trace.OpStream) {
		c.Hold = true
		c.Faults = append(c.Faults, "probe-accept")
	}
	return nil
}
