package mockvendor

import (
	"net/http"
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("stream-unauthorized", tFaultStreamUnauthorized)
}

// tFaultStreamUnauthorized is the stream-unauthorized case of TestFaults:
// a stream is refused with HTTP 401, a WWW-Authenticate challenge and the
// JSON-RPC error; a plain send, without any credential, completes.
func tFaultStreamUnauthorized(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("stream-unauthorized", StreamUnauthorized{Challenge: `Bearer realm="x-stream"`}))
	seq := e.f.Trace().Seq()
	r := tRPC(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "stream", ""))
	if r.Status != http.StatusUnauthorized || r.Header.Get("WWW-Authenticate") != `Bearer realm="x-stream"` || r.Code() != -32000 {
		t.Errorf("stream answered %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
	ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpStream })
	if ev.Status != http.StatusUnauthorized || !slices.Contains(ev.Faults, "stream-unauthorized") || ev.TaskID != "" {
		t.Errorf("trace %+v", ev)
	}
	tWantState(t, "plain send", e.send(t, Dialect10, "plain", ""), "completed")
}

// TestStreamUnauthorizedREST: over HTTP+JSON the stream is refused with
// 401 UNAUTHENTICATED and the challenge; the plain send goes through.
func TestStreamUnauthorizedREST(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	if _, err := f.AddFault("d", Spec("stream-unauthorized", nil)); err != nil {
		t.Fatal(err)
	}
	r := tREST(t, c, "POST", "/message:stream", tRESTMsg, nil)
	if r.Status != http.StatusUnauthorized || r.Header.Get("WWW-Authenticate") != `Bearer realm="stream"` || tPath(r.JSON, "error", "status") != "UNAUTHENTICATED" {
		t.Errorf("REST stream answered %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
	if s := tREST(t, c, "POST", "/message:send", tRESTMsg, nil); s.Status != http.StatusOK {
		t.Errorf("REST plain send: %d %s", s.Status, s.Body)
	}
}
