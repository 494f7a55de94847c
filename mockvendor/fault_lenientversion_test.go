package mockvendor

import (
	"testing"
)

func init() {
	tAddFaultCase("lenient-version", tFaultLenientVersion)
}

// tFaultLenientVersion is the lenient-version case of TestFaults: the
// seeds' mix (0.1 names with A2A-Version: 1.0, 1.0 names without a header)
// is refused by an honest vendor and answered in the method's own dialect
// under the fault.
func tFaultLenientVersion(t *testing.T, e *tFaultEnv) {
	mix := func() *tResp { return tRPC(t, e.c, e.rpc, "1.0", "tasks/send", tSendParams(Dialect01, "x", "")) }
	tWantCode(t, "0.1 name with 1.0, honest", mix(), -32601)
	tWantCode(t, "1.0 name without header, honest", tRPC(t, e.c, e.rpc, "", "SendMessage", tSendParams(Dialect10, "x", "")), -32601)
	e.add(t, "x", Spec("lenient-version", nil))
	r := mix()
	tWantState(t, "0.1 name with 1.0, lenient", r, "completed")
	if tPath(r.Result(), "sessionId") == nil {
		t.Errorf("lenient answer is not in 0.1 shapes: %s", r.Body)
	}
	tWantState(t, "1.0 name without header, lenient", tRPC(t, e.c, e.rpc, "", "SendMessage", tSendParams(Dialect10, "x", "")), "completed")
}
