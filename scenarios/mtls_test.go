package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

var dCert = mockvendor.Presented{Owner: "d", Via: mockvendor.ViaClientCert}

// tMTLSRun is AUTH-010's two delegations: the events of the one to D,
// then those of the one to C, with D's certificate held for D's endpoint.
func tMTLSRun(toD, toC []mockvendor.Event, outcomes ...*contract.DelegationOutcome) *Run {
	t := &tRun{}
	t.deleg()
	for _, e := range toD {
		t.ev(e)
	}
	t.deleg()
	for _, e := range toC {
		t.ev(e)
	}
	r := t.run(outcomes...)
	r.CredentialHosts = map[string][]string{"d": {mockvendor.HostRPCD}}
	return r
}

// tAt is a completed send of task to host, presenting creds.
func tAt(vendor, host, task string, status int, creds ...mockvendor.Presented) mockvendor.Event {
	e := tSendTo(vendor, host, skillS, false, 0, task)
	e.Status, e.Credentials = status, creds
	if status != 200 {
		e.State, e.TaskID = "", ""
	}
	return e
}

func TestMTLSChecks(t *testing.T) {
	rpcD, c := mockvendor.HostRPCD, mockvendor.HostC
	cardD, cardC := tCard("d", mockvendor.HostCardD, "", "", ""), tCard("c", c, "", "", "")
	okD := []mockvendor.Event{cardD, tAt("d", rpcD, "t-1", 200, dCert)}
	okC := []mockvendor.Event{cardC, tAt("c", c, "t-2", 200)}
	doneD, doneC := tCompleted(rpcD, skillS, "t-1"), tCompleted(c, skillS, "t-2")
	cases := []struct {
		name, check string
		run         *Run
		want        Outcome
	}{
		{"present: every call over a connection with D's certificate", "AUTH-010.PRESENT", tMTLSRun(okD, okC, doneD, doneC), Pass},
		{"present: a call without it", "AUTH-010.PRESENT", tMTLSRun([]mockvendor.Event{cardD, tAt("d", rpcD, "", 401)}, okC), Fail},
		{"present: another certificate", "AUTH-010.PRESENT", tMTLSRun([]mockvendor.Event{cardD, tAt("d", rpcD, "", 401, mockvendor.Presented{Owner: mockvendor.CredentialUnknown, Via: mockvendor.ViaClientCert})}, okC), Fail},
		{"present: the second call without it", "AUTH-010.PRESENT", tMTLSRun(append(okD, tAt("d", rpcD, "", 401)), okC), Fail},
		{"present: D never called", "AUTH-010.PRESENT", tMTLSRun([]mockvendor.Event{cardD}, okC), NotExercised},
		{"done: completed at D", "AUTH-010.DONE", tMTLSRun(okD, okC, doneD, doneC), Pass},
		{"done: reported completed after a 401", "AUTH-010.DONE", tMTLSRun([]mockvendor.Event{cardD, tAt("d", rpcD, "", 401)}, okC, doneD, doneC), Fail},
		{"done: D never called", "AUTH-010.DONE", tMTLSRun([]mockvendor.Event{cardD}, okC), NotExercised},
		{"only origin: C got none", "AUTH-010.ONLY-ORIGIN", tMTLSRun(okD, okC, doneD, doneC), Pass},
		{"only origin: D's certificate at C", "AUTH-010.ONLY-ORIGIN", tMTLSRun(okD, []mockvendor.Event{cardC, tAt("c", c, "t-2", 200, dCert)}, doneD, doneC), Fail},
		{"only origin: D's certificate with C's card", "AUTH-010.ONLY-ORIGIN", tMTLSRun(okD, []mockvendor.Event{{Vendor: "c", Host: c, HTTPMethod: "GET", Path: mockvendor.CardPath, Op: mockvendor.OpCardFetch, Credentials: []mockvendor.Presented{dCert}}}), Fail},
		{"only origin: never presented the certificate", "AUTH-010.ONLY-ORIGIN", tMTLSRun([]mockvendor.Event{cardD, tAt("d", rpcD, "", 401)}, okC), NotExercised},
		{"only origin: C never reached", "AUTH-010.ONLY-ORIGIN", tMTLSRun(okD, nil, doneD), NotExercised},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if v := tJudge(t, tc.check, tc.run); v.Outcome != tc.want {
				t.Fatalf("%s = %s (%s), want %s", tc.check, v.Outcome, v.Detail, tc.want)
			}
		})
	}
}

// TestMTLSCertificateIsACredential: D's certificate at C fails
// G-CREDENTIAL-SCOPE too, and at D's endpoint passes it.
func TestMTLSCertificateIsACredential(t *testing.T) {
	rpcD, c := mockvendor.HostRPCD, mockvendor.HostC
	home := tMTLSRun([]mockvendor.Event{tAt("d", rpcD, "t-1", 200, dCert)}, nil)
	away := tMTLSRun([]mockvendor.Event{tAt("d", rpcD, "t-1", 200, dCert)}, []mockvendor.Event{tAt("c", c, "t-2", 200, dCert)})
	if v, _ := credentialScopeCheck().Evaluate(home); v.Outcome != Pass {
		t.Errorf("at D's endpoint: %s (%s)", v.Outcome, v.Detail)
	}
	if v, _ := credentialScopeCheck().Evaluate(away); v.Outcome != Fail {
		t.Errorf("at C: %s (%s)", v.Outcome, v.Detail)
	}
}

func TestMTLSNoBorrow(t *testing.T) {
	rpcD, c := mockvendor.HostRPCD, mockvendor.HostC
	aCert := mockvendor.Presented{Owner: "a", Via: mockvendor.ViaClientCert}
	cardD := tCard("d", mockvendor.HostCardD, "", "", "")
	one := func(o *contract.DelegationOutcome, evs ...mockvendor.Event) *Run {
		r := tOne(o, evs...)
		r.CredentialHosts = map[string][]string{"a": {mockvendor.HostVendorA}}
		return r
	}
	refused := func(reason string) *contract.DelegationOutcome {
		return &contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: reason}
	}
	doneC := tCompleted(c, skillS, "t-2")
	cases := []struct {
		name string
		run  *Run
		want Outcome
	}{
		{"skipped D, completed at C", one(doneC, cardD, tAt("c", c, "t-2", 200)), Pass},
		{"refused with no-credential", one(refused(contract.ReasonNoCredential), cardD), Pass},
		{"auth-rejected after D's 401 without a certificate", one(&contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: contract.ReasonAuthRejected}, cardD, tAt("d", rpcD, "", 401)), Pass},
		{"A's certificate at D", one(doneC, cardD, tAt("d", rpcD, "", 401, aCert), tAt("c", c, "t-2", 200)), Fail},
		{"gave up for another reason, no certificate borrowed", one(refused(contract.ReasonOther), cardD), Pass},
		{"reported completed at C with nothing there", one(doneC, cardD), Fail},
		{"D's card never fetched", one(doneC, tAt("c", c, "t-2", 200)), NotExercised},
	}
	for _, tc := range cases {
		tEvaluate(t, "AUTH-011.NO-BORROW", tc.name, tc.run, tc.want)
	}
}
