package mockvendor

import (
	"slices"
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("stream-error-event", tFaultStreamErrorEvent)
}

// tFaultStreamErrorEvent is the stream-error-event case of TestFaults: a
// 1.0 stream sends the task and its working status, then a JSON-RPC error
// event with the ErrorInfo reason, and ends; the trace records the error
// on the stream, the task is failed; with sends, a plain send gets the
// same error.
func tFaultStreamErrorEvent(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("stream-error-event", StreamErrorEvent{Code: -32050, Reason: "UPSTREAM_TASK_LOST", Sends: true}))
	seq := e.f.Trace().Seq()
	evs := tReadSSE(t, tStream(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "lost", "")).Body)
	if len(evs) != 3 || tEventState(evs[1]) != "working" {
		t.Fatalf("events %v, want the task, working, an error", evs)
	}
	if tPath(evs[2], "error", "code") != float64(-32050) || tPath(evs[2], "error", "data", 0, "reason") != "UPSTREAM_TASK_LOST" {
		t.Errorf("error event %v", evs[2])
	}
	ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpStream && !ev.Pending })
	if ev.ErrorCode != -32050 || ev.State != "working" || !slices.Contains(ev.Faults, "stream-error-event") || !strings.Contains(ev.Note, "error event") {
		t.Errorf("trace %+v", ev)
	}
	tWantState(t, "get of the task", tRPC(t, e.c, e.rpc, "1.0", "GetTask", map[string]any{"id": tTaskIDOf(evs[0])}), "failed")
	tWantCode(t, "plain send", e.send(t, Dialect10, "plain", ""), -32050)
}

// TestStreamErrorEventREST: over HTTP+JSON the error event is a
// google.rpc.Status object with the ErrorInfo reason in its details.
func TestStreamErrorEventREST(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	if _, err := f.AddFault("d", Spec("stream-error-event", nil)); err != nil {
		t.Fatal(err)
	}
	evs := tReadSSE(t, tRESTStream(t, c, "/message:stream", []byte(tRESTMsg)).Body)
	if len(evs) != 3 || tPath(evs[2], "error", "status") != "NOT_FOUND" || tPath(evs[2], "error", "details", 0, "reason") != "TASK_NOT_FOUND" {
		t.Errorf("REST stream events %v", evs)
	}
}
