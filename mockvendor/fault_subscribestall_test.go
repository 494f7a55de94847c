package mockvendor

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("subscribe-stall", tFaultSubscribeStall)
}

// tFaultSubscribeStall is the subscribe-stall case of TestFaults: the
// stream of a long task, cut, is followed by a subscription that answers
// 200 text/event-stream and then nothing; the client leaves it, the trace
// says so, and a get shows the task completed meanwhile.
func tFaultSubscribeStall(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("stream-cut", nil))
	e.add(t, "x", Spec("task-outcome", TaskOutcome{WorkingMs: 200}))
	e.add(t, "x", Spec("subscribe-stall", nil))
	evs := tReadSSE(t, tStream(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "long", "")).Body)
	if len(evs) != 2 {
		t.Fatalf("cut stream: %v", evs)
	}
	id := tTaskIDOf(evs[0])
	seq := e.f.Trace().Seq()
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.rpc, strings.NewReader(string(tEnvelope("SubscribeToTask", map[string]any{"id": id}))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := e.c.Do(req)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Errorf("subscription answered %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if ev, err := tNewSSE(resp.Body).Next(); err == nil {
		t.Errorf("the stalled subscription sent %v", ev)
	}
	resp.Body.Close()
	ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSubscribe && !ev.Pending })
	if !slices.Contains(ev.Faults, "subscribe-stall") || !strings.Contains(ev.Note, "before the first frame") || len(ev.Seen) != 0 {
		t.Errorf("trace %+v", ev)
	}
	tWantState(t, "get after the stall", tRPC(t, e.c, e.rpc, "1.0", "GetTask", map[string]any{"id": id}), "completed")
}

// TestSubscribeStallDelayREST: with a delay, the HTTP+JSON subscription's
// first event (the task) comes after it.
func TestSubscribeStallDelayREST(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	for _, s := range []FaultSpec{Spec("task-outcome", TaskOutcome{WorkingMs: 800}), Spec("subscribe-stall", SubscribeStall{DelayMs: 300})} {
		if _, err := f.AddFault("d", s); err != nil {
			t.Fatal(err)
		}
	}
	r := tREST(t, c, "POST", "/message:send", tRESTMsg, nil)
	id, _ := tPath(r.JSON, "task", "id").(string)
	start := time.Now()
	req, err := http.NewRequest(http.MethodGet, tRESTD+"/tasks/"+id+":subscribe", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("A2A-Version", "1.0")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first, err := tNewSSE(resp.Body).Next()
	if err != nil || tPath(first, "task", "id") != id || time.Since(start) < 250*time.Millisecond {
		t.Errorf("first event %v (%v) after %v", first, err, time.Since(start))
	}
}
