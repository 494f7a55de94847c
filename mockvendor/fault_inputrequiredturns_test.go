package mockvendor

import (
	"slices"
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("input-required-turns", tFaultInputRequiredTurns)
}

// tQuestion is the text of the status message of a task view (a send's
// or get's result, or a stream event's), "" when it has none.
func tQuestion(v map[string]any) string {
	for _, k := range []string{"statusUpdate", "task"} {
		if inner, ok := v[k].(map[string]any); ok {
			v = inner
		}
	}
	parts := tAsList(tPath(v, "status", "message", "parts"))
	if len(parts) == 0 {
		return ""
	}
	p, _ := parts[0].(map[string]any)
	s, _ := p["text"].(string)
	return s
}

// tFaultInputRequiredTurns is the input-required-turns case of
// TestFaults: in 0.3 and 1.0, a task asks twice (its question in the
// status message), takes one answer with taskId and contextId and one with
// taskId only, then completes with its artifact; a further message is
// refused; probes and continuations are left alone; with endsMeanwhile the
// last answer finds the task ended and is refused.
func tFaultInputRequiredTurns(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("input-required-turns", InputRequiredTurns{Turns: 2, Question: "Which ledger?"}))
	for _, d := range tDialects[1:] {
		r := e.send(t, d.D, "work", "")
		tWantState(t, string(d.D)+" send", r, "input-required")
		task := tTask(r)
		tid, ctx := task["id"].(string), task["contextId"].(string)
		if q := tQuestion(task); !strings.HasPrefix(q, "Which ledger?") || !strings.Contains(q, "1 of 2") {
			t.Errorf("%s: first question %q", d.D, q)
		}
		r = tRPC(t, e.c, e.rpc, d.Version, d.Send, tFollowUp(d.D, tid, ctx))
		tWantState(t, string(d.D)+" first answer", r, "input-required")
		if q := tQuestion(tTask(r)); !strings.Contains(q, "2 of 2") || tTask(r)["id"] != tid {
			t.Errorf("%s: second question %q of task %v", d.D, q, tTask(r)["id"])
		}
		r = tRPC(t, e.c, e.rpc, d.Version, d.Send, tFollowUp(d.D, tid, ""))
		tWantState(t, string(d.D)+" second answer", r, "completed")
		if len(tAsList(tTask(r)["artifacts"])) != 1 || tQuestion(tTask(r)) != "" || len(tAsList(tTask(r)["history"])) != 3 {
			t.Errorf("%s: completed task %s", d.D, r.Body)
		}
		tWantCode(t, string(d.D)+" message to the completed task", tRPC(t, e.c, e.rpc, d.Version, d.Send, tFollowUp(d.D, tid, ctx)), -32004)
	}
	tWantState(t, "probe", e.send(t, Dialect10, ProbeText, ""), "completed")
	e.remove(t, id)

	e.add(t, "x", Spec("input-required-turns", InputRequiredTurns{EndsMeanwhile: "failed"}))
	for _, d := range tDialects[1:] {
		seq := e.f.Trace().Seq()
		r := e.send(t, d.D, "work", "")
		tWantState(t, string(d.D)+" send", r, "input-required")
		tid := tTask(r)["id"].(string)
		tWantCode(t, string(d.D)+" the late answer", tRPC(t, e.c, e.rpc, d.Version, d.Send, tFollowUp(d.D, tid, "")), -32004)
		tWantState(t, string(d.D)+" get after it", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": tid}), "failed")
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
		if !slices.Contains(ev.Faults, "input-required-turns") {
			t.Errorf("%s: trace faults %v", d.D, ev.Faults)
		}
	}
}

// TestConversationBindings: the continuation rules over both bindings,
// blocking and streaming, in 0.3 (JSON-RPC) and 1.0 (JSON-RPC and
// HTTP+JSON), on D with the input-required-turns fault: the task asks, the
// answer goes to the same task by send or by stream, and it completes; an
// unknown task is -32001, another context refused, a terminal task
// -32004; a contextId without taskId starts a new task in that context.
func TestConversationBindings(t *testing.T) {
	f := tStart(t, tHonestConfig())
	c := tClient(t, f, tViaProxy)
	if _, err := f.AddFault("d", Spec("input-required-turns", InputRequiredTurns{})); err != nil {
		t.Fatal(err)
	}
	for _, d := range []Dialect{Dialect03, Dialect10} {
		dc := tDialectOf(t, d)
		t.Run("jsonrpc-"+string(d), func(t *testing.T) {
			// Blocking: ask, answer by send.
			r := tSend(t, c, tRPCD, d, "work", "")
			tWantState(t, "send", r, "input-required")
			tid, ctx := tTask(r)["id"].(string), tTask(r)["contextId"].(string)
			tWantCode(t, "unknown task", tRPC(t, c, tRPCD, dc.Version, dc.Send, tFollowUp(d, "t-nope", "")), -32001)
			tWantCode(t, "other context", tRPC(t, c, tRPCD, dc.Version, dc.Send, tFollowUp(d, tid, "ctx-other")), -32602)
			tWantState(t, "still asking", tRPC(t, c, tRPCD, dc.Version, dc.Get, map[string]any{"id": tid}), "input-required")
			tWantState(t, "answer", tRPC(t, c, tRPCD, dc.Version, dc.Send, tFollowUp(d, tid, ctx)), "completed")
			tWantCode(t, "terminal task", tRPC(t, c, tRPCD, dc.Version, dc.Send, tFollowUp(d, tid, ctx)), -32004)

			// Streaming: ask, answer by stream.
			evs := tReadSSE(t, tStream(t, c, tRPCD, dc.Version, dc.Stream, tSendParams(d, "stream work", "")).Body)
			last := evs[len(evs)-1]
			if tEventState(last) != "input-required" || !strings.Contains(tQuestion(tPath(last, "result").(map[string]any)), "1 of 1") {
				t.Fatalf("stream ends %v, want input-required with the question", last)
			}
			sid := tConvTaskID(evs[0])
			evs = tReadSSE(t, tStream(t, c, tRPCD, dc.Version, dc.Stream, tFollowUp(d, sid, "")).Body)
			if got := tEventState(evs[len(evs)-1]); got != "completed" || tConvTaskID(evs[0]) != sid {
				t.Errorf("continuation stream ends %q for task %q, want completed for %s", got, tConvTaskID(evs[0]), sid)
			}

			// A contextId without taskId: a new task in that context.
			p := tSendParams(d, "more work", "")
			p["message"].(map[string]any)["contextId"] = ctx
			r = tRPC(t, c, tRPCD, dc.Version, dc.Send, p)
			if task := tTask(r); task["id"] == tid || task["contextId"] != ctx {
				t.Errorf("new task in context %s: %s", ctx, r.Body)
			}
		})
	}
	t.Run("http_json", func(t *testing.T) {
		r := tREST(t, c, "POST", "/message:send", `{"message":{"role":"ROLE_USER","messageId":"m1","parts":[{"text":"work"}]}}`, nil)
		task, _ := r.JSON["task"].(map[string]any)
		tid, _ := task["id"].(string)
		ctx, _ := task["contextId"].(string)
		if tPath(task, "status", "state") != "TASK_STATE_INPUT_REQUIRED" || tQuestion(task) == "" {
			t.Fatalf("send: %s", r.Body)
		}
		msg := func(id, taskID, ctxID string) string {
			s := `{"message":{"role":"ROLE_USER","messageId":"` + id + `","taskId":"` + taskID + `"`
			if ctxID != "" {
				s += `,"contextId":"` + ctxID + `"`
			}
			return s + `,"parts":[{"text":"the answer"}]}}`
		}
		tRESTError(t, "unknown task", tREST(t, c, "POST", "/message:send", msg("m2", "t-nope", ""), nil), 404, "TASK_NOT_FOUND")
		if r := tREST(t, c, "POST", "/message:send", msg("m3", tid, "ctx-other"), nil); r.Status != 400 {
			t.Errorf("other context: HTTP %d %s", r.Status, r.Body)
		}
		r = tREST(t, c, "POST", "/message:send", msg("m4", tid, ctx), nil)
		if tPath(r.JSON, "task", "status", "state") != "TASK_STATE_COMPLETED" || tPath(r.JSON, "task", "id") != tid {
			t.Errorf("answer: %s", r.Body)
		}
		tRESTError(t, "terminal task", tREST(t, c, "POST", "/message:send", msg("m5", tid, ctx), nil), 400, "UNSUPPORTED_OPERATION")

		evs := tReadSSE(t, tRESTStream(t, c, "/message:stream", []byte(`{"message":{"role":"ROLE_USER","messageId":"m6","parts":[{"text":"stream work"}]}}`)).Body)
		if tRESTEventState(evs[len(evs)-1]) != "TASK_STATE_INPUT_REQUIRED" {
			t.Fatalf("stream: %v", evs)
		}
		sid, _ := tPath(evs[0], "task", "id").(string)
		evs = tReadSSE(t, tRESTStream(t, c, "/message:stream", []byte(msg("m7", sid, ""))).Body)
		if got := tRESTEventState(evs[len(evs)-1]); got != "TASK_STATE_COMPLETED" || tPath(evs[0], "task", "id") != sid {
			t.Errorf("continuation stream ends %q: %v", got, evs)
		}
	})
}

// tConvTaskID is the task id of a JSON-RPC stream's first event (0.3: the
// task itself; 1.0: {"task": ...}).
func tConvTaskID(ev map[string]any) string {
	res, _ := ev["result"].(map[string]any)
	if inner, ok := res["task"].(map[string]any); ok {
		res = inner
	}
	s, _ := res["id"].(string)
	return s
}

// tRESTEventState is the state an HTTP+JSON stream event carries, as
// spelled.
func tRESTEventState(ev map[string]any) string {
	for _, k := range []string{"statusUpdate", "task"} {
		if s, ok := tPath(ev, k, "status", "state").(string); ok {
			return s
		}
	}
	return ""
}
