package mockvendor

import (
	"testing"
)

func init() {
	tAddFaultCase("server-error", tFaultServerError)
}

// tFaultServerError is the server-error case of TestFaults.
func tFaultServerError(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("server-error", ServerError{Code: -32042, Message: "busy", Data: map[string]any{"retryAfter": 1.0}, Times: 2}))
	tWantState(t, "probe passes", e.send(t, Dialect03, ProbeText, ""), "completed")
	r := e.send(t, Dialect03, "x", "")
	tWantCode(t, "first send", r, -32042)
	if tPath(r.Err(), "message") != "busy" || tPath(r.Err(), "data", "retryAfter") != 1.0 {
		t.Errorf("error %v", r.Err())
	}
	r = e.send(t, Dialect10, "x", "")
	tWantCode(t, "second send", r, -32042)
	if tPath(r.Err(), "data", 1, "retryAfter") != 1.0 {
		t.Errorf("1.0 error data %v", tPath(r.Err(), "data"))
	}
	tWantState(t, "third send", e.send(t, Dialect03, "x", ""), "completed")
	e.remove(t, id)
	e.add(t, "x", Spec("server-error", ServerError{Probes: true}))
	for i := 0; i < 3; i++ {
		r := e.send(t, Dialect03, "x", "")
		tWantCode(t, "default server error", r, -32005)
		if tPath(r.Err(), "message") != "server error" {
			t.Errorf("message %v", tPath(r.Err(), "message"))
		}
	}
	tWantCode(t, "probe with probes:true", e.send(t, Dialect03, ProbeText, ""), -32005)
	if r := tGet(t, e.c, "https://"+tHostX+CardPath, nil); r.Status != 200 {
		t.Errorf("card fetch under server-error: %d", r.Status)
	}
}
