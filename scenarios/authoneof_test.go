package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

func TestAuthOneofChecks(t *testing.T) {
	rpcD := mockvendor.HostRPCD
	card := mockvendor.Event{Seq: 1, Vendor: "d", Host: mockvendor.HostCardD, Op: mockvendor.OpCardFetch, Status: 200}
	send := func(status int, p ...mockvendor.Presented) mockvendor.Event {
		e := tCred(2, "d", rpcD, status, p...)
		e.Path = mockvendor.DefaultRPCPath
		if status == 200 {
			e.TaskID, e.State, e.Skill = "t1", "completed", skillS
		}
		return e
	}
	run := func(o *contract.DelegationOutcome, evs ...mockvendor.Event) *Run {
		return &Run{Events: evs, VendorHosts: map[string][]string{"d": {mockvendor.HostCardD, rpcD}},
			Delegations: []Delegation{{FirstSeq: 1, LastSeq: 3, Outcome: o}}}
	}
	done := &contract.DelegationOutcome{Contract: 1, Outcome: contract.OutcomeCompleted, Agent: "https://" + rpcD + mockvendor.DefaultRPCPath, TaskID: "t1", Skill: skillS}
	refused := &contract.DelegationOutcome{Contract: 1, Outcome: contract.OutcomeFailed, Reason: contract.ReasonOther, Detail: "card parsing failed"}
	cases := []struct {
		name, check string
		run         *Run
		want        Outcome
	}{
		{"attach: the token", "AUTH-009.ATTACH", run(done, card, send(200, dBearer)), Pass},
		{"attach: none", "AUTH-009.ATTACH", run(refused, card, send(401)), Fail},
		{"attach: card refused, D never called", "AUTH-009.ATTACH", run(refused, card), NotExercised},
		{"done: completed", "AUTH-009.DONE", run(done, card, send(200, dBearer)), Pass},
		{"done: card refused", "AUTH-009.DONE", run(refused, card), Fail},
		{"done: card never fetched", "AUTH-009.DONE", run(refused), NotExercised},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if v := tJudge(t, c.check, c.run); v.Outcome != c.want {
				t.Fatalf("%s = %s (%s), want %s", c.check, v.Outcome, v.Detail, c.want)
			}
		})
	}
}
