package mockvendor

import (
	"slices"
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("state-unknown", tFaultStateUnknown)
}

// tFaultStateUnknown is the state-unknown case of TestFaults: a 1.0 stream
// announces TASK_STATE_UNSPECIFIED after working and then completes, a 0.3
// stream says unknown; the trace records the unknown state among those the
// stream delivered. A plain send is left alone.
func tFaultStateUnknown(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("state-unknown", nil))
	for _, tc := range []struct {
		d     tDialectCase
		state string
		seen  string
	}{{tDialects[2], "unspecified", "unspecified"}, {tDialects[1], "unknown", "unknown"}} {
		seq := e.f.Trace().Seq()
		evs := tReadSSE(t, tStream(t, e.c, e.rpc, tc.d.Version, tc.d.Stream, tSendParams(tc.d.D, "odd", "")).Body)
		var states []string
		for _, ev := range evs {
			if st := tEventState(ev); st != "" {
				states = append(states, st)
			}
		}
		if len(states) < 4 || states[2] != tc.state || !strings.HasSuffix(strings.ToLower(states[len(states)-1]), "completed") {
			t.Errorf("%s: states %v, want ..., working, %s (normalized), ..., completed", tc.d.Stream, states, tc.state)
		}
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpStream && !ev.Pending })
		if got := tSeenStates(ev); !slices.Contains(got, tc.seen) || ev.State != "completed" || !slices.Contains(ev.Faults, "state-unknown") {
			t.Errorf("%s: trace seen %v, state %q, faults %v", tc.d.Stream, got, ev.State, ev.Faults)
		}
	}
	tWantState(t, "plain send", e.send(t, Dialect10, "plain", ""), "completed")
}

// TestStateUnknownREST: over HTTP+JSON, with the task working a while, the
// unknown state goes out with the working status at once and the
// completion after the work.
func TestStateUnknownREST(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	for _, s := range []FaultSpec{Spec("task-outcome", TaskOutcome{WorkingMs: 300}), Spec("state-unknown", StateUnknown{State: "TASK_STATE_PAUSED"})} {
		if _, err := f.AddFault("d", s); err != nil {
			t.Fatal(err)
		}
	}
	resp := tRESTStream(t, c, "/message:stream", []byte(tRESTMsg))
	sr := tNewSSE(resp.Body)
	var states []any
	for i := 0; i < 5; i++ {
		ev, err := sr.Next()
		if err != nil {
			break
		}
		states = append(states, tPath(ev, "statusUpdate", "status", "state"))
	}
	if len(states) < 4 || states[2] != "TASK_STATE_PAUSED" || states[len(states)-1] != "TASK_STATE_COMPLETED" {
		t.Errorf("REST stream states %v", states)
	}
}
