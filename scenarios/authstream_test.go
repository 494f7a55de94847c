package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

func TestAuthStreamChecks(t *testing.T) {
	rpcD := mockvendor.HostRPCD
	stream := func(seq int64, creds ...mockvendor.Presented) mockvendor.Event {
		e := tCred(seq, "d", rpcD, 200, creds...)
		e.Op, e.Method, e.TaskID, e.State, e.Skill = mockvendor.OpStream, "SendStreamingMessage", "t1", "working", skillS
		return e
	}
	sub := func(seq int64, status int, creds ...mockvendor.Presented) mockvendor.Event {
		e := tCred(seq, "d", rpcD, status, creds...)
		e.Op, e.Method, e.TaskID = mockvendor.OpSubscribe, "SubscribeToTask", "t1"
		if status == 200 {
			e.State = "completed"
		}
		return e
	}
	run := func(outcome string, evs ...mockvendor.Event) *Run {
		for i := range evs {
			evs[i].Path = mockvendor.DefaultRPCPath
		}
		r := &Run{Events: evs, VendorHosts: map[string][]string{"d": {mockvendor.HostCardD, rpcD}}}
		o := &contract.DelegationOutcome{Contract: 1, Outcome: outcome, Agent: "https://" + rpcD + "/a2a/v1", TaskID: "t1", Skill: skillS}
		if outcome != contract.OutcomeCompleted {
			o.Reason = contract.ReasonAuthRejected
		}
		r.Delegations = []Delegation{{FirstSeq: 1, LastSeq: int64(len(evs) + 1), Outcome: o}}
		return r
	}
	plain := tCred(1, "d", rpcD, 200, dBearer)
	plain.TaskID, plain.State, plain.Skill = "t1", "completed", skillS
	cases := []struct {
		name, check string
		run         *Run
		want        Outcome
	}{
		{"attach: stream and subscription with the token", "AUTH-007.ATTACH", run(contract.OutcomeCompleted, stream(1, dBearer), sub(2, 200, dBearer)), Pass},
		{"attach: the stream without it", "AUTH-007.ATTACH", run(contract.OutcomeFailed, stream(1)), Fail},
		{"attach: the subscription without it", "AUTH-007.ATTACH", run(contract.OutcomeCompleted, stream(1, dBearer), sub(2, 401)), Fail},
		{"attach: chose not to stream", "AUTH-007.ATTACH", run(contract.OutcomeCompleted, plain), NotApplicable},
		{"attach: never called D", "AUTH-007.ATTACH", run(contract.OutcomeFailed), NotExercised},
		{"done: followed to completion", "AUTH-007.DONE", run(contract.OutcomeCompleted, stream(1, dBearer), sub(2, 200, dBearer)), Pass},
		{"done: not completed after the stream's 401", "AUTH-007.DONE", run(contract.OutcomeFailed, stream(1)), Fail},
		{"done: chose not to stream", "AUTH-007.DONE", run(contract.OutcomeCompleted, plain), NotApplicable},
		{"done: never called D", "AUTH-007.DONE", run(contract.OutcomeFailed), NotExercised},
		{"done: failed with no 401, after a broken stream", "AUTH-007.DONE", func() *Run {
			r := run(contract.OutcomeFailed, stream(1, dBearer))
			r.Delegations[0].Outcome.Reason = contract.ReasonOther
			return r
		}(), NotExercised},
		{"done: auth-rejected with no 401 seen", "AUTH-007.DONE", run(contract.OutcomeFailed, stream(1, dBearer)), Fail},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if v := tJudge(t, c.check, c.run); v.Outcome != c.want {
				t.Fatalf("%s = %s (%s), want %s", c.check, v.Outcome, v.Detail, c.want)
			}
		})
	}
}
