package mockvendor

import (
	"testing"
)

func init() {
	tAddFaultCase("stream-content-type-lie", tFaultStreamContentTypeLie)
}

// tFaultStreamContentTypeLie is the stream-content-type-lie case of TestFaults.
func tFaultStreamContentTypeLie(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("stream-content-type-lie", nil))
	for _, d := range tDialects {
		r := tRPC(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "s", ""))
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: content type %q", d.Stream, ct)
		}
		tWantState(t, d.Stream, r, "completed")
		_, wrapped := r.Result()["task"]
		if wrapped != (d.D == Dialect10) {
			t.Errorf("%s: result %v", d.Stream, r.Result())
		}
	}
	tWantState(t, "send unaffected", e.send(t, Dialect03, "x", ""), "completed")
}
