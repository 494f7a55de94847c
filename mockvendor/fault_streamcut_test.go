package mockvendor

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("stream-cut", tFaultStreamCut)
}

// tFaultStreamCut is the stream-cut case of TestFaults: a clean end after
// the task and its working status (the trace says working, and the task,
// completed already, refuses a resubscription), then a break-off that the
// client reads as an error, then a cut stream of long work that a
// subscription follows to its end.
func tFaultStreamCut(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("stream-cut", nil))
	for _, d := range []tDialectCase{tDialects[1], tDialects[2]} {
		seq := e.f.Trace().Seq()
		resp := tStream(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "cut", ""))
		evs := tReadSSE(t, resp.Body)
		if len(evs) != 2 || tEventState(evs[1]) != "working" {
			t.Errorf("%s: events %v, want the task and working", d.Stream, evs)
		}
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpStream })
		if ev.State != "working" || !slices.Contains(ev.Faults, "stream-cut") || !strings.Contains(ev.Note, "ended cleanly") {
			t.Errorf("%s: trace %+v", d.Stream, ev)
		}
		tid := tTaskIDOf(evs[0])
		sub := map[Dialect]string{Dialect03: "tasks/resubscribe", Dialect10: "SubscribeToTask"}[d.D]
		if d.D == Dialect10 {
			tWantCode(t, sub+" of the completed task", tRPC(t, e.c, e.rpc, d.Version, sub, map[string]any{"id": tid}), -32004)
		}
		tWantState(t, d.Get+" after the cut", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": tid}), "completed")
	}
	tWantState(t, "plain send", e.send(t, Dialect10, "not a stream", ""), "completed")
	e.remove(t, id)

	// Broken off: the client's read fails.
	id = e.add(t, "x", Spec("stream-cut", StreamCut{Abort: true}))
	seq := e.f.Trace().Seq()
	resp := tStream(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "break", ""))
	sr := tNewSSE(resp.Body)
	n := 0
	var err error
	for {
		if _, err = sr.Next(); err != nil {
			break
		}
		n++
	}
	resp.Body.Close()
	if n != 2 || err == nil || errors.Is(err, io.EOF) {
		t.Errorf("aborted stream: %d events then %v, want 2 then a read error", n, err)
	}
	ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpStream })
	if ev.State != "working" || !strings.Contains(ev.Note, "broken off") {
		t.Errorf("aborted stream trace %+v", ev)
	}
	e.remove(t, id)

	// Long work, cut: a subscription gives the task, then its end.
	e.add(t, "x", Spec("stream-cut", nil))
	e.add(t, "x", Spec("task-outcome", TaskOutcome{WorkingMs: 300}))
	resp = tStream(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "long", ""))
	evs := tReadSSE(t, resp.Body)
	if len(evs) != 2 {
		t.Fatalf("long cut stream: events %v", evs)
	}
	start := time.Now()
	seq = e.f.Trace().Seq()
	resp = tStream(t, e.c, e.rpc, "1.0", "SubscribeToTask", map[string]any{"id": tTaskIDOf(evs[0])})
	sevs := tReadSSE(t, resp.Body)
	if len(sevs) < 2 || tEventState(sevs[0]) != "working" || tEventState(sevs[len(sevs)-1]) != "completed" || time.Since(start) < 200*time.Millisecond {
		t.Errorf("subscription: %v after %v", sevs, time.Since(start))
	}
	if ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Method == "SubscribeToTask" }); ev.State != "completed" {
		t.Errorf("subscription trace state %q", ev.State)
	}
}

// tTaskIDOf is the task id of a stream's first event.
func tTaskIDOf(ev map[string]any) string {
	res, _ := ev["result"].(map[string]any)
	if inner, ok := res["task"].(map[string]any); ok {
		res = inner
	}
	id, _ := res["id"].(string)
	return id
}

// TestStreamCutREST: over the HTTP+JSON binding a cut stream ends the
// same way, a message reply is a SendMessageResponse holding the Message,
// and task-outcome's states are spelled TASK_STATE_*.
func TestStreamCutREST(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	if _, err := f.AddFault("d", Spec("stream-cut", nil)); err != nil {
		t.Fatal(err)
	}
	r := tREST(t, c, "POST", "/message:stream", tRESTMsg, nil)
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/event-stream") || strings.Count(string(r.Body), "data: ") != 2 || !strings.Contains(string(r.Body), "TASK_STATE_WORKING") || strings.Contains(string(r.Body), "TASK_STATE_COMPLETED") {
		t.Errorf("REST cut stream: %s %s", r.Header.Get("Content-Type"), r.Body)
	}
	if _, err := f.AddFault("d", Spec("message-reply", nil)); err != nil {
		t.Fatal(err)
	}
	r = tREST(t, c, "POST", "/message:send", tRESTMsg, nil)
	if m, _ := r.JSON["message"].(map[string]any); m["role"] != "ROLE_AGENT" {
		t.Errorf("REST message reply: %s", r.Body)
	}
	// task-outcome's states, as the binding spells them, by send and get.
	for _, x := range []string{"message-reply", "stream-cut"} {
		fs, _ := f.Faults("d")
		for _, a := range fs {
			if a.Type == x {
				if err := f.RemoveFault("d", a.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if _, err := f.AddFault("d", Spec("task-outcome", TaskOutcome{State: "rejected"})); err != nil {
		t.Fatal(err)
	}
	r = tREST(t, c, "POST", "/message:send", tRESTMsg, nil)
	task, _ := r.JSON["task"].(map[string]any)
	id, _ := task["id"].(string)
	if tPath(task, "status", "state") != "TASK_STATE_REJECTED" || id == "" {
		t.Fatalf("REST send of a rejected task: %s", r.Body)
	}
	if g := tREST(t, c, "GET", "/tasks/"+id, "", nil); tPath(g.JSON, "status", "state") != "TASK_STATE_REJECTED" {
		t.Errorf("REST get of a rejected task: %s", g.Body)
	}
}

// TestStreamEvents01: a 0.1 stream sends no task event (it starts with
// the working status) yet counts events as every dialect does: the
// default cut (2: the task and its working status) leaves it the working
// status alone, an explicit cut of 3 the artifact too; a stream of long
// work sends its working status at once and the rest when the work is
// done; a 0.1 subscription of that work gives the status now, then the
// artifact and the end.
func TestStreamEvents01(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	u := "https://" + HostRPCD + DefaultRPCPath
	params := func(text string) map[string]any {
		p := tSendParams(Dialect01, text, "")
		p["id"] = "t01-" + text
		return p
	}
	for _, tc := range []struct {
		name  string
		cut   StreamCut
		want  []string
		fault bool
	}{
		{"default cut", StreamCut{}, []string{"working"}, true},
		{"cut after 3", StreamCut{AfterEvents: 3}, []string{"working", ""}, true},
		{"no cut", StreamCut{}, []string{"working", "", "completed"}, false},
	} {
		var id string
		if tc.fault {
			var err error
			if id, err = f.AddFault("d", Spec("stream-cut", tc.cut)); err != nil {
				t.Fatal(err)
			}
		}
		resp := tStream(t, c, u, "", "tasks/sendSubscribe", params(strings.ReplaceAll(tc.name, " ", "-")))
		evs := tReadSSE(t, resp.Body)
		var got []string
		for _, ev := range evs {
			got = append(got, tEventState(ev))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: frame states %q, want %q (events %v)", tc.name, got, tc.want, evs)
		}
		if tc.fault {
			if err := f.RemoveFault("d", id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := f.AddFault("d", Spec("task-outcome", TaskOutcome{WorkingMs: 300})); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	resp := tStream(t, c, u, "", "tasks/sendSubscribe", params("long"))
	sr := tNewSSE(resp.Body)
	first, err := sr.Next()
	if err != nil || tEventState(first) != "working" || time.Since(start) > 250*time.Millisecond {
		t.Fatalf("long 0.1 stream: first event %v (%v) after %v, want working at once", first, err, time.Since(start))
	}
	sub := tStream(t, c, u, "", "tasks/resubscribe", map[string]any{"id": "t01-long"})
	sevs := tReadSSE(t, sub.Body)
	rest := tReadSSE(t, resp.Body)
	if len(rest) != 2 || tEventState(rest[1]) != "completed" || time.Since(start) < 250*time.Millisecond {
		t.Errorf("long 0.1 stream: then %v after %v, want the artifact and completed after the work", rest, time.Since(start))
	}
	if len(sevs) != 3 || tEventState(sevs[0]) != "working" || tEventState(sevs[2]) != "completed" {
		t.Errorf("0.1 subscription: %v, want working, the artifact, completed", sevs)
	}
}
