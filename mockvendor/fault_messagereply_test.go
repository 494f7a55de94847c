package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("message-reply", tFaultMessageReply)
}

// tFaultMessageReply is the message-reply case of TestFaults: a send and a
// stream answer one agent Message in the dialect's shape, no task is made
// (a get of any id is -32001), the trace marks the reply, and a 0.1 send
// still gets its task.
func tFaultMessageReply(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("message-reply", nil))
	for _, d := range []tDialectCase{tDialects[1], tDialects[2]} {
		seq := e.f.Trace().Seq()
		r := e.send(t, d.D, "hello", "")
		msg := r.Result()
		if d.D == Dialect10 {
			msg, _ = msg["message"].(map[string]any)
		}
		role := map[Dialect]string{Dialect03: "agent", Dialect10: "ROLE_AGENT"}[d.D]
		if msg["role"] != role || msg["messageId"] == nil || msg["id"] != nil || msg["status"] != nil {
			t.Errorf("%s: result %s, want a bare agent message", d.Send, r.Body)
		}
		if d.D == Dialect03 && msg["kind"] != "message" {
			t.Errorf("%s: kind %v", d.Send, msg["kind"])
		}
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
		if !ev.MessageReply || ev.TaskID != "" || ev.State != "" || !slices.Contains(ev.Faults, "message-reply") {
			t.Errorf("%s: trace %+v", d.Send, ev)
		}
		resp := tStream(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "hello", ""))
		evs := tReadSSE(t, resp.Body)
		if len(evs) != 1 {
			t.Errorf("%s: %d events, want the one message: %v", d.Stream, len(evs), evs)
		}
		tWantCode(t, d.Get+" of a made-up id", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": "t-made-up"}), -32001)
	}
	tWantCode(t, "unknown skill", e.send(t, Dialect10, "hello", "no-such-skill"), -32004)
	tWantState(t, "0.1 send", e.send(t, Dialect01, "hello", ""), "completed")
}
