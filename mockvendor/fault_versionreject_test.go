package mockvendor

import (
	"testing"
)

func init() {
	tAddFaultCase("version-reject", tFaultVersionReject)
}

// tFaultVersionReject is the version-reject case of TestFaults.
func tFaultVersionReject(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("version-reject", nil))
	tWantCode(t, "0.3 header", e.send(t, Dialect03, "x", ""), -32009)
	r := tRPC(t, e.c, e.rpc, "", "message/send", tSendParams(Dialect03, "x", ""))
	tWantCode(t, "no header", r, -32009)
	if tPath(r.Err(), "data", "requested") != "0.3" {
		t.Errorf("data %v", tPath(r.Err(), "data"))
	}
	tWantState(t, "1.0", e.send(t, Dialect10, "x", ""), "completed")
	r = tRPC(t, e.c, e.rpc, "2.0", "SendMessage", tSendParams(Dialect10, "x", ""))
	tWantCode(t, "2.0 header", r, -32009)
	if tPath(r.Err(), "data", 0, "reason") != "VERSION_NOT_SUPPORTED" {
		t.Errorf("1.0 data %v", tPath(r.Err(), "data"))
	}
	e.remove(t, id)
	e.add(t, "x", Spec("version-reject", VersionReject{Accepted: []string{"0.3", "1.0"}}))
	tWantState(t, "0.3 accepted", e.send(t, Dialect03, "x", ""), "completed")
	tWantState(t, "no header accepted as 0.3", e.send(t, Dialect01, "x", ""), "completed")
}
