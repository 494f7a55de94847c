package mockvendor

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("stream-error-json", tFaultStreamErrorJSON)
}

// tFaultStreamErrorJSON is the stream-error-json case of TestFaults: a 1.0
// stream is answered with a JSON-RPC error as plain application/json (HTTP
// 200, no event stream), traced with the fault; a plain send completes.
func tFaultStreamErrorJSON(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("stream-error-json", nil))
	seq := e.f.Trace().Seq()
	r := tRPC(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "stream", ""))
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") || r.Code() != -32603 {
		t.Errorf("stream answered %d %s %s, want 200 application/json -32603", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	if tPath(r.Err(), "data", 0, "reason") != "INTERNAL" {
		t.Errorf("error data %v, want an ErrorInfo INTERNAL", tPath(r.Err(), "data"))
	}
	ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpStream })
	if ev.ErrorCode != -32603 || !slices.Contains(ev.Faults, "stream-error-json") || ev.ContentType != "application/json" {
		t.Errorf("trace %+v", ev)
	}
	tWantState(t, "plain send", e.send(t, Dialect10, "plain", ""), "completed")
}

// TestStreamErrorJSONREST: over HTTP+JSON the stream is answered with the
// google.rpc.Status of the error and its HTTP status (500 INTERNAL for
// -32603, 404 NOT_FOUND for -32001), as application/json.
func TestStreamErrorJSONREST(t *testing.T) {
	for _, tc := range []struct {
		config any
		status int
		name   string
		reason string
	}{
		{nil, http.StatusInternalServerError, "INTERNAL", "INTERNAL"},
		{StreamErrorJSON{Code: -32001}, http.StatusNotFound, "NOT_FOUND", "TASK_NOT_FOUND"},
	} {
		f := tDefault(t)
		c := tClient(t, f, tViaProxy)
		if _, err := f.AddFault("d", Spec("stream-error-json", tc.config)); err != nil {
			t.Fatal(err)
		}
		r := tREST(t, c, "POST", "/message:stream", tRESTMsg, nil)
		if r.Status != tc.status || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") ||
			tPath(r.JSON, "error", "status") != tc.name || tPath(r.JSON, "error", "details", 0, "reason") != tc.reason {
			t.Errorf("REST stream answered %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		if s := tREST(t, c, "POST", "/message:send", tRESTMsg, nil); s.Status != http.StatusOK {
			t.Errorf("REST plain send: %d %s", s.Status, s.Body)
		}
	}
}
