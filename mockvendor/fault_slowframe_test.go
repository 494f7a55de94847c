package mockvendor

import (
	"testing"
	"time"
)

func init() {
	tAddFaultCase("slow-first-frame", tFaultSlowFirstFrame)
}

// tFaultSlowFirstFrame is the slow-first-frame case of TestFaults.
func tFaultSlowFirstFrame(t *testing.T, e *tFaultEnv) {
	const delay = 300 * time.Millisecond
	e.add(t, "x", Spec("slow-first-frame", SlowFirstFrame{DelayMs: int(delay / time.Millisecond)}))
	for _, d := range []tDialectCase{tDialects[1], tDialects[2]} {
		start := time.Now()
		resp := tStream(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "slow", ""))
		headers := time.Since(start)
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("%s: content type %q", d.Stream, ct)
		}
		sr := tNewSSE(resp.Body)
		first, err := sr.Next()
		firstAt := time.Since(start)
		if err != nil {
			t.Fatalf("%s: first event: %v", d.Stream, err)
		}
		if firstAt < delay {
			t.Errorf("%s: first event after %v, want >= %v", d.Stream, firstAt, delay)
		}
		if headers >= delay {
			t.Errorf("%s: headers took %v; they should come before the delay", d.Stream, headers)
		}
		if first["result"] == nil {
			t.Errorf("%s: first event %v", d.Stream, first)
		}
		rest := tReadSSE(t, resp.Body)
		if len(rest) != 3 {
			t.Errorf("%s: %d more events, want 3", d.Stream, len(rest))
		}
	}
	start := time.Now()
	tWantState(t, "send unaffected", e.send(t, Dialect03, "x", ""), "completed")
	if d := time.Since(start); d >= delay {
		t.Errorf("a plain send took %v", d)
	}
}
