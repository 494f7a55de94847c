package mockvendor

// StreamContentTypeLie answers stream methods with a single
// application/json response although the card claims streaming [seed 000,
// Condition of Validity]. It breaks A2A 1.0 §3.1.2 (the stream operation
// MUST establish a streaming connection) and §9.4.2 (a JSON-RPC stream
// answers text/event-stream).
type StreamContentTypeLie struct{}

func init() {
	registerFault("stream-content-type-lie", "stream methods answer application/json instead of text/event-stream", func() any { return &StreamContentTypeLie{} })
}

func (StreamContentTypeLie) onCall(c *Call) *CallError {
	if c.Op == OpStream {
		c.StreamAsJSON = true
		c.Faults = append(c.Faults, "stream-content-type-lie")
	}
	return nil
}
