package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("unknown-role", tFaultUnknownRole)
}

// tFaultUnknownRole is the unknown-role case of TestFaults: a completed
// task's status gets a message from the agent in the unknown role (1.0
// spelling, and 0.3's lowercased), the caller's message keeps its role,
// the state stays completed; a stream's working status carries the
// message too; a probe is left alone; a role clients know is refused.
func tFaultUnknownRole(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("unknown-role", UnknownRole{Role: "ROLE_AUDITOR", Note: "noted"}))
	for _, tc := range []struct {
		d          Dialect
		role, user string
	}{{Dialect10, "ROLE_AUDITOR", "ROLE_USER"}, {Dialect03, "auditor", "user"}} {
		seq := e.f.Trace().Seq()
		r := e.send(t, tc.d, "roles", "alpha")
		tWantState(t, "send "+string(tc.d), r, "completed")
		task := tTask(r)
		if tPath(task, "status", "message", "role") != tc.role || tPath(task, "status", "message", "parts", 0, "text") != "noted" || tPath(task, "history", 0, "role") != tc.user {
			t.Errorf("%s task %v", tc.d, task)
		}
		if ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend }); !slices.Contains(ev.Faults, "unknown-role") {
			t.Errorf("%s: trace faults %v", tc.d, ev.Faults)
		}
	}
	dc := tDialectOf(t, Dialect10)
	evs := tReadSSE(t, tStream(t, e.c, e.rpc, dc.Version, dc.Stream, tSendParams(Dialect10, "stream", "alpha")).Body)
	if len(evs) < 2 || tPath(evs[1], "result", "statusUpdate", "status", "message", "role") != "ROLE_AUDITOR" || tPath(evs[0], "result", "task", "status", "message") != nil {
		t.Errorf("stream events %v", evs)
	}
	probe := tRPC(t, e.c, e.rpc, "1.0", "SendMessage", map[string]any{"message": tMessage(Dialect10, "__probe__", nil)})
	if tPath(tTask(probe), "status", "message") != nil {
		t.Errorf("probe's status got a message: %v", tTask(probe))
	}
	if _, err := e.f.AddFault("x", Spec("unknown-role", UnknownRole{Role: "ROLE_AGENT"})); err == nil {
		t.Error("a known role was accepted")
	}
}
