package mockvendor

import (
	"testing"
)

func init() {
	tAddFaultCase("reseller-gateway", tFaultResellerGateway)
}

// tFaultResellerGateway is the reseller-gateway case of TestFaults.
func tFaultResellerGateway(t *testing.T, e *tFaultEnv) {
	tWantCode(t, "unknown skill without the fault", e.send(t, Dialect03, "x", "anything"), -32004)
	e.add(t, "x", Spec("reseller-gateway", ResellerGateway{RefusedTools: []string{"ledger-write"}}))
	tWantState(t, "any skill", e.send(t, Dialect03, "x", "anything"), "completed")
	tWantState(t, "any skill 1.0", e.send(t, Dialect10, "x", "anything"), "completed")
	r := e.send(t, Dialect03, "x", "ledger-write")
	tWantCode(t, "refused tool", r, -32601)
	if tPath(r.Err(), "data", "tool") != "ledger-write" {
		t.Errorf("data %v", tPath(r.Err(), "data"))
	}
	p := map[string]any{"message": tMessage(Dialect03, "x", map[string]any{"tool": "ledger-write"}), "metadata": map[string]any{"skillId": "alpha"}}
	tWantCode(t, "refused tool in message metadata", tRPC(t, e.c, e.rpc, "0.3", "message/send", p), -32601)
}
