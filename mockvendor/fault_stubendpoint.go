package mockvendor

// StubEndpoint answers every JSON-RPC method with -32601: the card looks
// fine but the endpoint does not implement A2A [seed 000, Condition of
// Validity]. The vendor's card then breaks A2A 1.0 §8.3.1: each interface
// MUST accurately declare its transport protocol and URL.
type StubEndpoint struct{}

func init() {
	registerFault("stub-endpoint", "every JSON-RPC method answers -32601", func() any { return &StubEndpoint{} })
}

func (StubEndpoint) onCall(c *Call) *RPCError { return errMethodNotFound(c.Method) }
