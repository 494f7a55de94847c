package mockvendor

import (
	"slices"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

func init() {
	tAddFaultCase("task-outcome", tFaultTaskOutcome)
}

// tWireState is the state a result carries as the wire spells it.
func tWireState(r *tResp) string {
	st, _ := tTask(r)["status"].(map[string]any)
	s, _ := st["state"].(string)
	return s
}

// tFaultTaskOutcome is the task-outcome case of TestFaults: every state in
// every dialect's spelling, the trace, a task that works a while first (by
// send, get and stream), an interrupted stream, and probes left alone.
// tOutcomeStates are the states the task-outcome fault takes (its
// taskOutcomeStates; TestTaskOutcomeConfig checks it takes each).
var tOutcomeStates = []string{"completed", "failed", "rejected", "canceled", "input-required", "auth-required"}

func tFaultTaskOutcome(t *testing.T, e *tFaultEnv) {
	spell := map[Dialect]map[string]string{
		Dialect01: {"failed": "failed", "rejected": "failed", "canceled": "canceled", "input-required": "input-required", "auth-required": "input-required", "completed": "completed"},
		Dialect03: {"failed": "failed", "rejected": "rejected", "canceled": "canceled", "input-required": "input-required", "auth-required": "auth-required", "completed": "completed"},
		Dialect10: {"failed": "TASK_STATE_FAILED", "rejected": "TASK_STATE_REJECTED", "canceled": "TASK_STATE_CANCELED", "input-required": "TASK_STATE_INPUT_REQUIRED", "auth-required": "TASK_STATE_AUTH_REQUIRED", "completed": "TASK_STATE_COMPLETED"},
	}
	for _, state := range tOutcomeStates {
		id := e.add(t, "x", Spec("task-outcome", TaskOutcome{State: state}))
		for _, d := range tDialects {
			seq := e.f.Trace().Seq()
			r := e.send(t, d.D, "work", "")
			if got, want := tWireState(r), spell[d.D][state]; got != want {
				t.Errorf("%s %s: send answered %q, want %q: %s", state, d.D, got, want, r.Body)
			}
			ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
			if ev.State != a2a.NormalState(spell[d.D][state]) || !slices.Contains(ev.Faults, "task-outcome") {
				t.Errorf("%s %s: trace state %q faults %v", state, d.D, ev.State, ev.Faults)
			}
			if _, has := tTask(r)["artifacts"]; has != (state == "completed") {
				t.Errorf("%s %s: artifacts %v", state, d.D, tTask(r)["artifacts"])
			}
			tid, _ := tTask(r)["id"].(string)
			if got := tWireState(tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": tid})); got != spell[d.D][state] {
				t.Errorf("%s %s: get answered %q", state, d.D, got)
			}
		}
		tWantState(t, state+" probe", e.send(t, Dialect10, ProbeText, ""), "completed")
		e.remove(t, id)
	}

	// Working a while, then failed: send, get, get after the work.
	const work = 300 * time.Millisecond
	id := e.add(t, "x", Spec("task-outcome", TaskOutcome{State: "failed", WorkingMs: int(work / time.Millisecond)}))
	for _, d := range tDialects {
		r := e.send(t, d.D, "long work", "")
		tWantState(t, string(d.D)+" send of long work", r, "working")
		tid, _ := tTask(r)["id"].(string)
		tWantState(t, string(d.D)+" get while working", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": tid}), "working")
		time.Sleep(work + 20*time.Millisecond)
		tWantState(t, string(d.D)+" get after the work", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": tid}), "failed")
	}
	// A stream of long work: task and working at once, the end after it.
	for _, d := range []tDialectCase{tDialects[1], tDialects[2]} {
		start := time.Now()
		resp := tStream(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "long stream", ""))
		evs := tReadSSE(t, resp.Body)
		if took := time.Since(start); took < work {
			t.Errorf("%s: the stream ended after %v, before the work (%v)", d.Stream, took, work)
		}
		if len(evs) != 3 || tEventState(evs[2]) != "failed" {
			t.Errorf("%s: events %v, want task, working, failed (no artifact)", d.Stream, evs)
		}
	}
	e.remove(t, id)

	// An interrupted task's stream closes at the interrupted state.
	e.add(t, "x", Spec("task-outcome", TaskOutcome{State: "auth-required"}))
	resp := tStream(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "needs auth", ""))
	evs := tReadSSE(t, resp.Body)
	if len(evs) != 3 || tEventState(evs[2]) != "auth-required" {
		t.Errorf("auth-required stream: events %v", evs)
	}
}

// tEventState is the (0.3-spelled) state a stream event announces.
func tEventState(ev map[string]any) string {
	res, _ := ev["result"].(map[string]any)
	for _, k := range []string{"statusUpdate", "task"} {
		if inner, ok := res[k].(map[string]any); ok {
			res = inner
		}
	}
	st, _ := res["status"].(map[string]any)
	s, _ := st["state"].(string)
	return a2a.NormalState(s)
}
