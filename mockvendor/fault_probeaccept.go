package mockvendor

// ProbeAccept makes a probe create a task that stays working until it is
// cancelled, as a real agent that takes the probe for work would [seed 000,
// Decision Boundary: an accepted probe must be cancelled].
type ProbeAccept struct{}

func init() {
	registerFault("probe-accept", "a probe returns a task that stays working until cancelled", func() any { return &ProbeAccept{} })
}

func (ProbeAccept) onCall(c *Call) *CallError {
	if c.Probe && (c.Op == OpSend || c.Op == OpStream) {
		c.Hold = true
		c.Faults = append(c.Faults, "probe-accept")
	}
	return nil
}
