package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs for XCARD-001 and XCARD-002 (the extended card): each
// check fails a run that breaks it, passes one that keeps it, and is
// NOT_EXERCISED where the orchestrator never reached the extended card;
// there the grades that need the extended card fetched do not apply
// (tExemptIn), so a client that never fetches one is not judged by them.

// tACall is a 1.0 call to A's endpoint presenting creds.
func tACall(op mockvendor.Op, method, skill string, creds ...mockvendor.Presented) mockvendor.Event {
	return mockvendor.Event{Vendor: "a", Host: mockvendor.HostVendorA, Path: mockvendor.VendorARPCPath, HTTPMethod: "POST", Op: op, Method: method,
		Skill: skill, Status: 200, A2AVersion: "1.0", HasA2AVersion: true, Credentials: creds, Authorization: len(creds) > 0}
}

var tBearerA = mockvendor.Presented{Owner: "a", Via: viaBearer}

// tExtCard is a call for A's extended card answered status.
func tExtCard(status int, creds ...mockvendor.Presented) mockvendor.Event {
	e := tACall(mockvendor.OpExtendedCard, "GetExtendedAgentCard", "", creds...)
	e.Status = status
	return e
}

// tAuditTask is a real task for ledger-audit at A, completed.
func tAuditTask(id string) mockvendor.Event {
	e := tACall(mockvendor.OpSend, "SendMessage", skillAudit, tBearerA)
	e.TaskID, e.State = id, "completed"
	return e
}

func tCardA(creds ...mockvendor.Presented) mockvendor.Event {
	e := tCard("a", mockvendor.HostVendorA, "", "", "")
	e.Credentials, e.Authorization = creds, len(creds) > 0
	return e
}

func tAuditDone(task string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: "https://" + mockvendor.HostVendorA + mockvendor.VendorARPCPath, Skill: skillAudit, TaskID: task}
}

func tXRefused(reason string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: reason}
}

// tExemptIn checks that check id does not apply in profile p to run r.
func tExemptIn(t *testing.T, id string, p Profile, r *Run) {
	t.Helper()
	_, c := Find(id)
	if c == nil {
		t.Fatalf("%s is not in the catalog", id)
	}
	if _, exempt := c.Evaluate(r); exempt[p] == "" {
		t.Errorf("%s applies in %s to a run that never received the extended card", id, p)
	}
}

func TestExtendedCardAuth(t *testing.T) {
	other := mockvendor.Presented{Owner: "a", Via: "header:X-Other"}
	never := tOne(tAuditDone("t-1"), tCardA(), tAuditTask("t-1"))
	tStreamCases(t, "XCARD-001.AUTH", []tStreamCase{
		{"asked without the token", tOne(tAuditDone("t-1"), tCardA(), tExtCard(401), tAuditTask("t-1")), Fail},
		{"token in a header of its own", tOne(tAuditDone("t-1"), tCardA(), tExtCard(401, other), tAuditTask("t-1")), Fail},
		{"token as bearer and another way", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA, other), tAuditTask("t-1")), Fail},
		{"bearer token", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA), tAuditTask("t-1")), Pass},
		{"never asked for the extended card", never, NotExercised},
	})
	tExemptIn(t, "XCARD-001.AUTH", Core, never)
}

func TestExtendedCardReplace(t *testing.T) {
	never := tOne(tXRefused(contract.ReasonSkillUnavailable), tCardA())
	tStreamCases(t, "XCARD-001.REPLACE", []tStreamCase{
		{"kept the public card and refused the skill", tOne(tXRefused(contract.ReasonSkillUnavailable), tCardA(), tExtCard(200, tBearerA)), Fail},
		{"reported completed with no task on the wire", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA)), Fail},
		{"sent the skill before asking for the extended card", tOne(tAuditDone("t-1"), tCardA(), tAuditTask("t-1"), tExtCard(200, tBearerA)), Fail},
		{"used the extended card", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA), tAuditTask("t-1")), Pass},
		{"asked, refused with 401", tOne(tAuditDone("t-1"), tCardA(), tExtCard(401), tAuditTask("t-1")), NotExercised},
		{"never asked, refused the skill", never, NotExercised},
	})
	tExemptIn(t, "XCARD-001.REPLACE", Core, never)
}

func TestExtendedCardNoCardCredential(t *testing.T) {
	tStreamCases(t, "XCARD-001.NO-CARD-CREDENTIAL", []tStreamCase{
		{"token on the card fetch", tOne(tAuditDone("t-1"), tCardA(tBearerA), tExtCard(200, tBearerA), tAuditTask("t-1")), Fail},
		{"card fetched without it", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA), tAuditTask("t-1")), Pass},
		{"never fetched the extended card either", tOne(tAuditDone("t-1"), tCardA(), tAuditTask("t-1")), Pass},
		{"never fetched A's card", tOne(tXRefused(contract.ReasonOther)), NotExercised},
	})
}

func TestExtendedCardNotUsed(t *testing.T) {
	never := tOne(tAuditDone("t-1"), tCardA(), tAuditTask("t-1"))
	probe := tACall(mockvendor.OpSend, "SendMessage", skillAudit, tBearerA)
	probe.Probe = true
	tStreamCases(t, "XCARD-002.NOT-USED", []tStreamCase{
		{"sent the skill after the bad extended card", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA), tAuditTask("t-1")), Fail},
		{"claimed the skill completed with nothing sent", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA)), Fail},
		{"refused on the signature", tOne(tXRefused(contract.ReasonSignatureInvalid), tCardA(), tExtCard(200, tBearerA)), Pass},
		{"probed only, then refused", tOne(tXRefused(contract.ReasonSignatureInvalid), tCardA(), tExtCard(200, tBearerA), probe), Pass},
		{"never received the extended card", never, NotExercised},
	})
	tExemptIn(t, "XCARD-002.NOT-USED", Safety, never)
	tExemptIn(t, "XCARD-002.NOT-USED", Core, never)
}

func TestExtendedCardRefused(t *testing.T) {
	never := tOne(tAuditDone("t-1"), tCardA(), tAuditTask("t-1"))
	tStreamCases(t, "XCARD-002.REFUSED", []tStreamCase{
		{"completed the skill", tOne(tAuditDone("t-1"), tCardA(), tExtCard(200, tBearerA), tAuditTask("t-1")), Fail},
		{"refused, reason other", tOne(tXRefused(contract.ReasonOther), tCardA(), tExtCard(200, tBearerA)), Fail},
		{"refused, signature-invalid", tOne(tXRefused(contract.ReasonSignatureInvalid), tCardA(), tExtCard(200, tBearerA)), Pass},
		{"refused, skill-unavailable", tOne(tXRefused(contract.ReasonSkillUnavailable), tCardA(), tExtCard(200, tBearerA)), Pass},
		{"never received the extended card", never, NotExercised},
	})
	tExemptIn(t, "XCARD-002.REFUSED", Safety, never)
}
