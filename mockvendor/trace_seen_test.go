package mockvendor

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

// tSeenStates lists the states of an event's Seen.
func tSeenStates(e Event) []string {
	var out []string
	for _, s := range e.Seen {
		out = append(out, s.State)
	}
	return out
}

// TestTraceRecordsStatesWhenDelivered: a stream's trace event lists each
// state its frames delivered, when it was written, on both bindings, for
// a streamed send and a subscription. Read to its end, the stream shows
// working at once and completed after the work; left after the working
// frame, it shows no completion, although the task completes; a task
// cancelled while its stream waits ends the stream with canceled.
func TestTraceRecordsStatesWhenDelivered(t *testing.T) {
	const work = 400 * time.Millisecond
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	if _, err := f.AddFault("d", Spec("task-outcome", TaskOutcome{WorkingMs: int(work / time.Millisecond)})); err != nil {
		t.Fatal(err)
	}
	rpc := tURL(t, f, HostRPCD, DefaultRPCPath)
	stream := map[string]func() *http.Response{
		"JSON-RPC": func() *http.Response {
			return tStream(t, c, rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "work", ""))
		},
		"HTTP+JSON": func() *http.Response { return tRESTStream(t, c, "/message:stream", []byte(tRESTMsg)) },
	}
	for _, binding := range []string{"JSON-RPC", "HTTP+JSON"} {
		isStream := func(e Event) bool { return e.Op == OpStream && !e.Pending }
		// Read to the end.
		seq := f.Trace().Seq()
		start := time.Now()
		resp := stream[binding]()
		tReadSSE(t, resp.Body)
		ev := tWaitEvent(t, f, seq, isStream)
		if got := tSeenStates(ev); !slices.Equal(got, []string{"submitted", "working", "completed"}) || ev.State != "completed" {
			t.Errorf("%s stream read to its end: seen %v, state %q", binding, got, ev.State)
		} else if at := ev.Seen[2].Time.Sub(start); at < work-50*time.Millisecond || ev.Seen[1].Time.Sub(start) > work/2 {
			t.Errorf("%s stream: working seen at %v, completed at %v after the start; want working at once, completed after %v", binding, ev.Seen[1].Time.Sub(start), at, work)
		}

		// Left after the working frame: the completion is not seen.
		seq = f.Trace().Seq()
		resp = stream[binding]()
		sr := tNewSSE(resp.Body)
		var first map[string]any
		for i := 0; i < 2; i++ {
			m, err := sr.Next()
			if err != nil {
				t.Fatalf("%s: frame %d: %v", binding, i, err)
			}
			if i == 0 {
				first = m
			}
		}
		resp.Body.Close()
		ev = tWaitEvent(t, f, seq, isStream)
		if got := tSeenStates(ev); !slices.Equal(got, []string{"submitted", "working"}) || ev.State != "working" {
			t.Errorf("%s stream left at working: seen %v, state %q; want submitted, working and state working", binding, got, ev.State)
		}

		// A subscription to a task that then is cancelled: the task as it
		// is, then canceled, at the cancel.
		resp = stream[binding]()
		sr = tNewSSE(resp.Body)
		first, _ = sr.Next()
		tid := tTaskIDOf(first)
		if binding == "HTTP+JSON" {
			tid = tRESTTaskID(first)
		}
		seq = f.Trace().Seq()
		var sub *http.Response
		if binding == "JSON-RPC" {
			sub = tStream(t, c, rpc, "1.0", "SubscribeToTask", map[string]any{"id": tid})
		} else {
			sub = tRESTStream(t, c, "/tasks/"+tid+":subscribe", nil)
		}
		subr := tNewSSE(sub.Body)
		if _, err := subr.Next(); err != nil {
			t.Fatalf("%s subscription: %v", binding, err)
		}
		cancelAt := time.Now()
		tWantState(t, binding+" cancel", tRPC(t, c, rpc, "1.0", "CancelTask", map[string]any{"id": tid}), "canceled")
		tReadSSE(t, sub.Body)
		tReadSSE(t, resp.Body) // the stream of the send ends at the cancel too
		ev = tWaitEvent(t, f, seq, func(e Event) bool { return isSubscribe03or10(e) && !e.Pending })
		if got := tSeenStates(ev); !slices.Equal(got, []string{"working", "canceled"}) || ev.State != "canceled" || ev.Seen[1].Time.Before(cancelAt) {
			t.Errorf("%s subscription cancelled: seen %+v, state %q; want working, then canceled at the cancel", binding, ev.Seen, ev.State)
		}
		if took := time.Since(cancelAt); took > work/2 {
			t.Errorf("%s: the streams ended %v after the cancel, want at once", binding, took)
		}
	}
}

// isSubscribe03or10 reports whether e is a subscription (1.0 or 0.3).
func isSubscribe03or10(e Event) bool {
	return e.Method == "SubscribeToTask" || e.Method == "tasks/resubscribe"
}

// tRESTTaskID is the task id of an HTTP+JSON stream's first event (a bare
// StreamResponse).
func tRESTTaskID(ev map[string]any) string {
	task, _ := ev["task"].(map[string]any)
	id, _ := task["id"].(string)
	return id
}

// TestStreamsWork: with Config.StreamsWork a streamed task works
// Limits.WorkTime, its stream sending working at once and completed when
// the work ends; a blocking send is still answered completed.
func TestStreamsWork(t *testing.T) {
	cfg := DefaultConfig()
	cfg.StreamsWork = true
	cfg.Limits.WorkTime = 300 * time.Millisecond
	f := tStart(t, cfg)
	c := tClient(t, f, tViaProxy)
	rpc := tURL(t, f, HostRPCD, DefaultRPCPath)
	tWantState(t, "blocking send", tSend(t, c, rpc, Dialect10, "work", ""), "completed")
	seq := f.Trace().Seq()
	start := time.Now()
	tReadSSE(t, tStream(t, c, rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "work", "")).Body)
	ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Op == OpStream && !e.Pending })
	if got := tSeenStates(ev); !slices.Equal(got, []string{"submitted", "working", "completed"}) || ev.Seen[2].Time.Sub(start) < 250*time.Millisecond || ev.Seen[1].Time.Sub(start) > 150*time.Millisecond {
		t.Errorf("stream: seen %+v from %v", ev.Seen, start)
	}
}
