package scenarios

import (
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// slowCheck is the check id of the SLOW catalog at harness scale.
func slowCheck(t *testing.T, id string) Check {
	t.Helper()
	_, c := FindAt(0.1, id)
	if c == nil {
		t.Fatalf("no check %s", id)
	}
	return *c
}

// tSend is a real send to D (id the messageId), creating task (or not).
func tSend(seq int64, at time.Time, msgID, task string, faults ...string) mockvendor.Event {
	return mockvendor.Event{Seq: seq, Time: at, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1", Op: mockvendor.OpSend, Method: "SendMessage", TaskID: task, Skill: skillS, Faults: faults,
		Request: []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"` + msgID + `","parts":[{"text":"x"}]}}}`)}
}

func tOutcome(o string, task string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: o, Agent: "https://rpc.agent-d.example/a2a/v1", TaskID: task, Skill: skillS, Reason: contract.ReasonOK}
}

// TestSlowChecks: each SLOW check fails, passes, passes by another
// strategy, and is NOT_EXERCISED when not reached, on synthetic runs.
func TestSlowChecks(t *testing.T) {
	t0 := time.Now()
	completed := func(e mockvendor.Event) mockvendor.Event { e.State = "completed"; return e }
	working := func(e mockvendor.Event) mockvendor.Event { e.State = "working"; return e }
	returnAtOnce := working(tSend(1, t0, "m-1", "t-1"))
	returnAtOnce.Request = []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m-1","parts":[{"text":"x"}]},"configuration":{"returnImmediately":true}}}`)
	get := mockvendor.Event{Seq: 2, Time: t0.Add(time.Second), Vendor: "d", Op: mockvendor.OpGet, Method: "GetTask", TaskID: "t-1", State: "completed"}
	stream := mockvendor.Event{Seq: 1, Time: t0, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1", Op: mockvendor.OpStream, Method: "SendStreamingMessage", TaskID: "t-1", Skill: skillS,
		Seen: []mockvendor.SeenState{{State: "working", Time: t0}, {State: "completed", Time: t0.Add(4 * time.Second)}}, State: "completed"}
	lost := tSend(1, t0, "m-1", "t-1", "lost-answer")
	lost.State = "completed"
	cases := []struct {
		check   string
		name    string
		events  []mockvendor.Event
		outcome *contract.DelegationOutcome
		want    Outcome
	}{
		{"SLOW-001.DONE", "held send waited for", []mockvendor.Event{completed(tSend(1, t0, "m-1", "t-1"))}, tOutcome("completed", "t-1"), Pass},
		{"SLOW-001.DONE", "returnImmediately and polled", []mockvendor.Event{returnAtOnce, get}, tOutcome("completed", "t-1"), Pass},
		{"SLOW-001.DONE", "streamed", []mockvendor.Event{stream}, tOutcome("completed", "t-1"), Pass},
		{"SLOW-001.DONE", "timed out and resent", []mockvendor.Event{tSend(1, t0, "m-1", "t-1"), tSend(2, t0.Add(time.Second), "m-2", "t-2")}, &contract.DelegationOutcome{Outcome: "failed", Reason: contract.ReasonDeadline}, Fail},
		{"SLOW-001.DONE", "no send", nil, &contract.DelegationOutcome{Outcome: "failed", Reason: contract.ReasonOther}, NotExercised},
		{"SLOW-002.SAME-MESSAGE-ID", "retried with the same messageId", []mockvendor.Event{lost, completed(tSend(2, t0, "m-1", "t-1"))}, tOutcome("completed", "t-1"), Pass},
		{"SLOW-002.SAME-MESSAGE-ID", "retried with a new messageId", []mockvendor.Event{lost, completed(tSend(2, t0, "m-2", "t-2"))}, tOutcome("completed", "t-2"), Fail},
		{"SLOW-002.SAME-MESSAGE-ID", "not retried", []mockvendor.Event{lost}, &contract.DelegationOutcome{Outcome: "failed", Reason: contract.ReasonOther}, NotApplicable},
		{"SLOW-002.SAME-MESSAGE-ID", "no send", nil, &contract.DelegationOutcome{Outcome: "failed", Reason: contract.ReasonOther}, NotExercised},
		{"SLOW-002.REPORTED", "completed from the retry", []mockvendor.Event{lost, completed(tSend(2, t0, "m-1", "t-1"))}, tOutcome("completed", "t-1"), Pass},
		{"SLOW-002.REPORTED", "not retried, failed", []mockvendor.Event{lost}, &contract.DelegationOutcome{Outcome: "failed", Reason: contract.ReasonOther}, Pass},
		{"SLOW-002.REPORTED", "completion assumed", []mockvendor.Event{lost}, &contract.DelegationOutcome{Outcome: "completed", Agent: "https://rpc.agent-d.example/a2a/v1", Skill: skillS}, Fail},
		{"SLOW-002.REPORTED", "no send", nil, &contract.DelegationOutcome{Outcome: "failed", Reason: contract.ReasonOther}, NotExercised},
	}
	for _, c := range cases {
		chk := slowCheck(t, c.check)
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: c.outcome, FirstSeq: 1, LastSeq: 9, Request: contract.DelegationRequest{DeadlineMs: 6000}}}}
		r.Corroborate()
		if v, _ := chk.Evaluate(r); v.Outcome != c.want {
			t.Errorf("%s, %s: %s (%s), want %s", c.check, c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestSlowStopJudgesHeldSends: SLOW-003.STOP fails a blocking send held
// past the deadline and passes one closed at it, as it does a stream.
func TestSlowStopJudgesHeldSends(t *testing.T) {
	t0 := time.Now()
	const deadline = 2500
	held := func(ms int) mockvendor.Event {
		e := tSend(1, t0, "m-1", "t-1", "long-task")
		e.DurationMs = float64(ms)
		e.Note = "client left before the answer"
		return e
	}
	failed := &contract.DelegationOutcome{Outcome: "failed", Reason: contract.ReasonDeadline}
	cases := []struct {
		name   string
		events []mockvendor.Event
		out    *contract.DelegationOutcome
		want   Outcome
	}{
		{"send closed at the deadline", []mockvendor.Event{held(deadline - 250)}, failed, Pass},
		{"send held past the deadline", []mockvendor.Event{held(deadline + 900)}, failed, Fail},
		{"polled past the deadline", []mockvendor.Event{held(100), {Seq: 2, Time: t0.Add(3 * time.Second), Vendor: "d", Op: mockvendor.OpGet, TaskID: "t-1", State: "working"}}, failed, Fail},
		{"no send", nil, failed, NotExercised},
	}
	chk := slowCheck(t, "SLOW-003.STOP")
	for _, c := range cases {
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: c.out, FirstSeq: 1, LastSeq: 9, ElapsedMs: deadline, Request: contract.DelegationRequest{DeadlineMs: deadline}}}}
		if v, _ := chk.Evaluate(r); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestSlowTimings: SLOW-001 holds 40 s at real time within a 60 s
// deadline, longer than a 30 s client timeout; at any scale the hold
// keeps its floor and the deadline leaves room past it.
func TestSlowTimings(t *testing.T) {
	for _, ts := range []TimeScale{RealTime, 0.1, 0.001} {
		st := slowTimings(ts)
		if st.holdMs < slowHoldFloorMs || st.deadlineMs < st.holdMs+slowRoomMs {
			t.Errorf("scale %s: hold %d ms, deadline %d ms", ts, st.holdMs, st.deadlineMs)
		}
	}
	if st := slowTimings(RealTime); st.holdMs != 40_000 || st.deadlineMs != 60_000 {
		t.Errorf("real time: hold %d, deadline %d", st.holdMs, st.deadlineMs)
	}
	if s, _ := Find("SLOW-001"); s == nil || !s.HasLabel("slow") {
		t.Error("SLOW-001 must carry the label slow")
	}
	for _, id := range []string{"SLOW-002", "SLOW-003"} {
		if s, _ := Find(id); s == nil || s.HasLabel("slow") || s.Area == "slow" {
			t.Errorf("%s must run by default", id)
		}
	}
}
