package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// tCred is a request event at host of vendor presenting the credentials.
func tCred(seq int64, vendor, host string, status int, creds ...mockvendor.Presented) mockvendor.Event {
	return mockvendor.Event{Seq: seq, Vendor: vendor, Host: host, Op: mockvendor.OpSend, Method: "SendMessage", Status: status, Credentials: creds}
}

var (
	dBearer = mockvendor.Presented{Owner: "d", Via: "bearer"}
	aBearer = mockvendor.Presented{Owner: "a", Via: "bearer"}
)

func TestCredentialScope(t *testing.T) {
	held := map[string][]string{"d": {mockvendor.HostRPCD}, "a": {mockvendor.HostVendorA}}
	cases := []struct {
		name      string
		held      map[string][]string
		untrusted []string
		events    []mockvendor.Event
		want      Outcome
	}{
		{"nothing handed out", nil, nil, []mockvendor.Event{tCred(1, "d", mockvendor.HostRPCD, 200)}, NotApplicable},
		{"at its own origin", held, nil, []mockvendor.Event{tCred(1, "d", mockvendor.HostRPCD, 200, dBearer)}, Pass},
		// An orchestrator that never presents a credential it was handed
		// has not shown where it would send one: no credit.
		{"none presented", held, nil, []mockvendor.Event{tCred(1, "d", mockvendor.HostRPCD, 401)}, NotExercised},
		{"only a credential the fleet did not issue", held, nil, []mockvendor.Event{tCred(1, "d", mockvendor.HostRPCD, 401, mockvendor.Presented{Owner: mockvendor.CredentialUnknown, Via: "bearer"})}, NotExercised},
		{"ours at its origin and an unknown one", held, nil, []mockvendor.Event{tCred(1, "d", mockvendor.HostRPCD, 200, dBearer), tCred(2, "d", mockvendor.HostRPCD, 401, mockvendor.Presented{Owner: mockvendor.CredentialUnknown, Via: "bearer"})}, Pass},
		{"A's at the gateway", held, nil, []mockvendor.Event{tCred(1, "b", mockvendor.HostResellerB, 401, aBearer)}, Fail},
		{"D's at D's card host", held, nil, []mockvendor.Event{{Seq: 1, Vendor: "d", Host: mockvendor.HostCardD, Op: mockvendor.OpCardFetch, Credentials: []mockvendor.Presented{dBearer}}}, Fail},
		{"over an unverified connection", held, []string{mockvendor.HostRPCD}, []mockvendor.Event{tCred(1, "d", mockvendor.HostRPCD, 200, dBearer)}, Fail},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, _ := credentialScopeCheck().Evaluate(&Run{Events: c.events, CredentialHosts: c.held, UntrustedHosts: c.untrusted})
			if v.Outcome != c.want {
				t.Fatalf("%s (%s), want %s", v.Outcome, v.Detail, c.want)
			}
			if v.Outcome == Fail && v.Seq == 0 {
				t.Error("a failure without the request that shows it")
			}
		})
	}
}

// tJudge finds a catalog check and evaluates it over a run.
func tJudge(t *testing.T, id string, r *Run) Verdict {
	t.Helper()
	_, c := Find(id)
	if c == nil {
		t.Fatalf("no check %s", id)
	}
	v, _ := c.Evaluate(r)
	return v
}

func TestAuthChecks(t *testing.T) {
	one := func(evs ...mockvendor.Event) *Run {
		r := &Run{Events: evs, VendorHosts: map[string][]string{"a": {mockvendor.HostVendorA}, "d": {mockvendor.HostCardD, mockvendor.HostRPCD}}}
		r.Delegations = []Delegation{{FirstSeq: 1, LastSeq: int64(len(evs) + 1),
			Outcome: &contract.DelegationOutcome{Contract: 1, Outcome: contract.OutcomeRejected, Reason: contract.ReasonAuthRejected}}}
		return r
	}
	card := func(seq int64, vendor, host string) mockvendor.Event {
		return mockvendor.Event{Seq: seq, Vendor: vendor, Host: host, Op: mockvendor.OpCardFetch, Status: 200}
	}
	rpcD := mockvendor.HostRPCD
	untrusted := func(r *Run) *Run { r.UntrustedHosts = []string{rpcD}; return r }
	cases := []struct {
		name, check string
		run         *Run
		want        Outcome
	}{
		{"attach: every call bears D's token", "AUTH-001.ATTACH", one(tCred(1, "d", rpcD, 200, dBearer), tCred(2, "d", rpcD, 200, dBearer)), Pass},
		{"attach: one call without it", "AUTH-001.ATTACH", one(tCred(1, "d", rpcD, 200, dBearer), tCred(2, "d", rpcD, 401)), Fail},
		{"attach: the key as a bearer token", "AUTH-002.ATTACH", one(tCred(1, "d", rpcD, 401, dBearer)), Fail},
		{"attach: never called D", "AUTH-001.ATTACH", one(card(1, "d", mockvendor.HostCardD)), NotExercised},
		{"no retry: stops at the 401", "AUTH-003.NO-RETRY", one(tCred(1, "d", rpcD, 401, dBearer)), Pass},
		{"no retry: one more is no loop", "AUTH-003.NO-RETRY", one(tCred(1, "d", rpcD, 401, dBearer), tCred(2, "d", rpcD, 401, dBearer)), Pass},
		{"no retry: a loop", "AUTH-003.NO-RETRY", one(tCred(1, "d", rpcD, 401, dBearer), tCred(2, "d", rpcD, 401, dBearer), tCred(3, "d", rpcD, 401, dBearer)), Fail},
		{"no retry: never presented it", "AUTH-003.NO-RETRY", one(tCred(1, "d", rpcD, 401)), NotExercised},
		{"report: auth-rejected", "AUTH-003.REPORT", one(tCred(1, "d", rpcD, 401, dBearer)), Pass},
		{"no leak: A's stays home", "AUTH-004.NO-LEAK", one(card(1, "a", mockvendor.HostVendorA), tCred(2, "b", mockvendor.HostResellerB, 200, mockvendor.Presented{Owner: "b", Via: "bearer"})), Pass},
		{"no leak: A's at the gateway", "AUTH-004.NO-LEAK", one(card(1, "a", mockvendor.HostVendorA), tCred(2, "b", mockvendor.HostResellerB, 401, aBearer)), Fail},
		{"no leak: card never fetched", "AUTH-004.NO-LEAK", one(), NotExercised},
		{"no leak: gateway called with no credential at all", "AUTH-004.NO-LEAK", one(card(1, "a", mockvendor.HostVendorA), tCred(2, "b", mockvendor.HostResellerB, 401)), NotExercised},
		{"no unverified: refused before any request", "AUTH-005.NO-UNVERIFIED", untrusted(one(card(1, "d", mockvendor.HostCardD), mockvendor.Event{Seq: 2, Vendor: "d", Host: rpcD, Op: mockvendor.OpTLSFailed})), Pass},
		{"no unverified: the token over the bad connection", "AUTH-005.NO-UNVERIFIED", untrusted(one(card(1, "d", mockvendor.HostCardD), tCred(2, "d", rpcD, 200, dBearer))), Fail},
		{"no unverified: a request there with no credential at all", "AUTH-005.NO-UNVERIFIED", untrusted(one(card(1, "d", mockvendor.HostCardD), tCred(2, "d", rpcD, 401))), NotExercised},
		{"no leak: refused as signer-endpoint-mismatch", "AUTH-004.NO-LEAK", func() *Run {
			r := one(card(1, "a", mockvendor.HostVendorA))
			r.Delegations[0].Outcome.Reason = contract.ReasonSignerEndpointMismatch
			return r
		}(), Pass},
		{"no leak: refused for another reason", "AUTH-004.NO-LEAK", one(card(1, "a", mockvendor.HostVendorA)), NotExercised},
		{"no fit: A's token at D", "AUTH-006.NO-FIT", one(card(1, "d", mockvendor.HostCardD), tCred(2, "d", rpcD, 401, aBearer)), Fail},
		{"no fit: refused with auth-rejected after D's 401", "AUTH-006.NO-FIT", one(card(1, "d", mockvendor.HostCardD), tCred(2, "d", rpcD, 401)), Pass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if v := tJudge(t, c.check, c.run); v.Outcome != c.want {
				t.Fatalf("%s = %s (%s), want %s", c.check, v.Outcome, v.Detail, c.want)
			}
		})
	}
}

func TestCredentialRedacted(t *testing.T) {
	held := map[string][]string{"d": {mockvendor.HostRPCD}}
	cases := []struct {
		name string
		run  Run
		want Outcome
	}{
		{"nothing handed out", Run{}, NotApplicable},
		{"kept out", Run{CredentialHosts: held, Events: []mockvendor.Event{tCred(1, "d", mockvendor.HostRPCD, 200, dBearer)}, Delegations: []Delegation{{FirstSeq: 1, LastSeq: 2}}}, Pass},
		{"never presented, so never shown", Run{CredentialHosts: held, Delegations: []Delegation{{FirstSeq: 1, LastSeq: 2}}}, NotExercised},
		{"in the detail", Run{CredentialHosts: held, CredentialsReported: []string{"delegation 1's detail: vendor d's credential"}}, Fail},
	}
	for _, c := range cases {
		if v, _ := credentialRedactedCheck().Evaluate(&c.run); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}
