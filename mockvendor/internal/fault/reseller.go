package fault

import "slices"

// ResellerGateway makes a host behave as a gateway another party operates: it
// runs any skill under its own runtime and refuses the tools its own allowlist
// lacks with -32601, whatever the card that named it advertised [pin the
// signer's kid to the endpoint: What Was Observed]. That -32601 answers a
// method that exists: A2A 1.0 §9.5 (after JSON-RPC 2.0) keeps the code for a
// method that does not exist or is not available, and §3.3.2 has servers
// (MUST) return appropriate errors.
type ResellerGateway struct {
	// RefusedTools are the skill or tool ids the gateway's runtime refuses.
	RefusedTools []string `json:"refusedTools" doc:"skill ids (or metadata.tool values) refused with -32601"`
}

func init() {
	Register("reseller-gateway", "the host runs any skill under its own allowlist and refuses some tools with -32601", func() any { return &ResellerGateway{} })
}

// OnCall lets the call run any skill and refuses the refused tools with
// -32601 (CallHook).
func (g *ResellerGateway) OnCall(c *Call) *CallError {
	c.AnySkill = true
	if c.Message == nil {
		return nil
	}
	tool := c.Skill
	if t, ok := c.Message.Metadata["tool"].(string); ok {
		tool = t
	}
	if slices.Contains(g.RefusedTools, tool) {
		return &CallError{Code: -32601, Message: "tool not allowed by this runtime", Data: map[string]any{"tool": tool, "runtime": c.Vendor.ID()}, Reason: "TOOL_NOT_ALLOWED"}
	}
	return nil
}
