package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

func TestOAuthChecks(t *testing.T) {
	rpcD := mockvendor.HostRPCD
	tok := func(n int) mockvendor.Presented { return mockvendor.Presented{Owner: "d", Via: "bearer", Token: n} }
	secret := mockvendor.Presented{Owner: "d", Via: "secret:bearer"}
	token := func(seq int64) mockvendor.Event {
		return mockvendor.Event{Seq: seq, Vendor: "d", Host: mockvendor.HostAuthD, Path: mockvendor.DefaultTokenPath, HTTPMethod: "POST", Op: mockvendor.OpToken, Status: 200}
	}
	send := func(seq int64, status int, p ...mockvendor.Presented) mockvendor.Event {
		e := tCred(seq, "d", rpcD, status, p...)
		e.Path = mockvendor.DefaultRPCPath
		if status == 200 {
			e.TaskID, e.State, e.Skill = "t1", "completed", skillS
		}
		return e
	}
	run := func(outcome string, evs ...mockvendor.Event) *Run {
		r := &Run{Events: evs, VendorHosts: map[string][]string{"d": {mockvendor.HostCardD, rpcD, mockvendor.HostAuthD}}}
		o := &contract.DelegationOutcome{Contract: 1, Outcome: outcome, Agent: "https://" + rpcD + mockvendor.DefaultRPCPath, TaskID: "t1", Skill: skillS}
		if outcome != contract.OutcomeCompleted {
			o.Reason = contract.ReasonAuthRejected
		}
		r.Delegations = []Delegation{{FirstSeq: 1, LastSeq: int64(len(evs) + 1), Outcome: o}}
		return r
	}
	good := run(contract.OutcomeCompleted, token(1), send(2, 401, tok(1)), token(3), send(4, 200, tok(2)))
	cases := []struct {
		name, check string
		run         *Run
		want        Outcome
	}{
		{"secret: only at the token endpoint", "AUTH-008.SECRET", good, Pass},
		{"secret: as the bearer token", "AUTH-008.SECRET", run(contract.OutcomeFailed, send(1, 401, secret)), Fail},
		{"secret: in the body after a token", "AUTH-008.SECRET", run(contract.OutcomeFailed, token(1), send(2, 401, mockvendor.Presented{Owner: "d", Via: "secret:body"})), Fail},
		{"secret: nothing asked, nothing sent", "AUTH-008.SECRET", run(contract.OutcomeFailed), NotExercised},
		{"presented: tokens on every call", "AUTH-008.PRESENTED", good, Pass},
		{"presented: the secret instead", "AUTH-008.PRESENTED", run(contract.OutcomeFailed, send(1, 401, secret)), Fail},
		{"presented: never called D", "AUTH-008.PRESENTED", run(contract.OutcomeFailed, token(1)), NotExercised},
		{"refresh: new token, one retry, completed", "AUTH-008.REFRESH", good, Pass},
		{"refresh: gave up after the 401", "AUTH-008.REFRESH", run(contract.OutcomeFailed, token(1), send(2, 401, tok(1))), Fail},
		{"refresh: a new token, never used", "AUTH-008.REFRESH", run(contract.OutcomeFailed, token(1), send(2, 401, tok(1)), token(3)), Fail},
		{"no loop: renewed once", "AUTH-008.NO-LOOP", good, Pass},
		{"no loop: never presented the first token", "AUTH-008.NO-LOOP", run(contract.OutcomeFailed, send(1, 401, secret)), NotExercised},
		{"no loop: the refused token again and again", "AUTH-008.NO-LOOP", run(contract.OutcomeFailed, token(1), send(2, 401, tok(1)), send(3, 401, tok(1)), send(4, 401, tok(1))), Fail},
		{"no loop: token endpoint in a loop", "AUTH-008.NO-LOOP", run(contract.OutcomeCompleted, token(1), send(2, 401, tok(1)), token(3), token(4), token(5), token(6), token(7), send(8, 200, tok(6))), Fail},
		{"no loop: a token per call is no loop", "AUTH-008.NO-LOOP", run(contract.OutcomeCompleted, token(1), send(2, 401, tok(1)), token(3), send(4, 200, tok(2)), token(5), send(6, 200, tok(3))), Pass},
		{"refresh: never presented the first token", "AUTH-008.REFRESH", run(contract.OutcomeFailed, send(1, 401, secret)), NotExercised},
	}
	card := mockvendor.Event{Seq: 1, Vendor: "d", Host: mockvendor.HostCardD, Op: mockvendor.OpCardFetch, Status: 200}
	foreign := mockvendor.Event{Seq: 2, Vendor: "x", Host: mockvendor.HostSSOX, Path: mockvendor.DefaultTokenPath, HTTPMethod: "POST", Op: mockvendor.OpToken, Status: 400,
		Credentials: []mockvendor.Presented{{Owner: "d", Via: "secret:basic"}}}
	noCred := func(evs ...mockvendor.Event) *Run {
		r := run(contract.OutcomeRejected, evs...)
		r.Delegations[0].Outcome.Reason = contract.ReasonNoCredential
		return r
	}
	cases = append(cases, []struct {
		name, check string
		run         *Run
		want        Outcome
	}{
		{"elsewhere: refused with no-credential", "AUTH-012.NO-SECRET", noCred(card), Pass},
		{"elsewhere: token at the caller's endpoint, completed", "AUTH-012.NO-SECRET", run(contract.OutcomeCompleted, card, token(2), send(3, 200, tok(1))), Pass},
		{"elsewhere: the secret to the card's endpoint", "AUTH-012.NO-SECRET", noCred(card, foreign), Fail},
		{"elsewhere: failed for another reason", "AUTH-012.NO-SECRET", func() *Run {
			r := run(contract.OutcomeFailed, card)
			r.Delegations[0].Outcome.Reason = contract.ReasonOther
			return r
		}(), NotExercised},
		{"elsewhere: card never fetched", "AUTH-012.NO-SECRET", noCred(), NotExercised},
	}...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if v := tJudge(t, c.check, c.run); v.Outcome != c.want {
				t.Fatalf("%s = %s (%s), want %s", c.check, v.Outcome, v.Detail, c.want)
			}
		})
	}
}
