package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs for EXT-001 and EXT-002 (a card that requires an
// extension): each check fails a run that breaks it, passes one that
// keeps it, and is NOT_EXERCISED where the orchestrator never met the
// situation.

// tExt is a 1.0 call to D (op, method) with the extension headers a2a
// (A2A-Extensions) and x (X-A2A-Extensions), answered code.
func tExt(op mockvendor.Op, method, a2a, x string, code int) mockvendor.Event {
	e := tOp(op, method)
	e.Dialect, e.A2AExtensions, e.XA2AExtensions, e.ErrorCode = "1.0", a2a, x, code
	return e
}

// tExt03 is the 0.3 form of tExt.
func tExt03(op mockvendor.Op, method, a2a, x string, code int) mockvendor.Event {
	e := tExt(op, method, a2a, x, code)
	e.Dialect, e.A2AVersion = "0.3", "0.3"
	return e
}

// tExtSend is a completed 1.0 send of task t-1 with the headers.
func tExtSend(a2a, x string) mockvendor.Event {
	e := tExt(mockvendor.OpSend, "SendMessage", a2a, x, 0)
	e.TaskID, e.State = "t-1", "completed"
	return e
}

func tRejected(reason, detail string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: reason, Detail: detail}
}

func TestExtensionImplemented(t *testing.T) {
	probe := tExt(mockvendor.OpSend, "SendMessage", extRequired, "", 0)
	probe.Probe = true
	bare := tExt(mockvendor.OpSend, "SendMessage", "", "", -32008)
	legacy := tExt(mockvendor.OpSend, "SendMessage", "", extRequired, -32008)
	get := tExt(mockvendor.OpGet, "GetTask", "", "", -32008)
	send03 := tExt03(mockvendor.OpSend, "message/send", "", extRequired, 0)
	send03.TaskID, send03.State = "t-1", "completed"
	tStreamCases(t, "EXT-001.ACTIVATED", []tStreamCase{
		{"no header", tOne(tFailed(contract.ReasonOther, nil), tCardD(), bare), Fail},
		{"the 0.3 name on a 1.0 request", tOne(tFailed(contract.ReasonOther, nil), tCardD(), legacy), Fail},
		{"the send, not the get", tOne(tDone("t-1"), tCardD(), tExtSend(extRequired, ""), get), Fail},
		{"a retry with the header after -32008", tOne(tDone("t-1"), tCardD(), bare, tExtSend(extRequired, "")), Fail},
		{"every request", tOne(tDone("t-1"), tCardD(), probe, tExtSend("urn:x, "+extRequired, "")), Pass},
		{"a 0.3 client, X-A2A-Extensions", tOne(tDone("t-1"), tCardD(), send03), Pass},
		{"never called D", tOne(tRejected(contract.ReasonOther, ""), tCardD()), NotExercised},
	})
	tStreamCases(t, "EXT-001.HEADER", []tStreamCase{
		{"X-A2A-Extensions on a 1.0 request", tOne(tFailed(contract.ReasonOther, nil), tCardD(), legacy), Fail},
		{"A2A-Extensions on a 1.0 request", tOne(tDone("t-1"), tCardD(), tExtSend(extRequired, "")), Pass},
		{"both names on a 1.0 request", tOne(tDone("t-1"), tCardD(), tExtSend(extRequired, extRequired)), Pass},
		{"no extension named at all", tOne(tFailed(contract.ReasonOther, nil), tCardD(), bare), NotExercised},
		{"a 0.3 client only", tOne(tDone("t-1"), tCardD(), send03), NotExercised},
	})
	tStreamCases(t, "EXT-001.DONE", []tStreamCase{
		{"refused by the agent", tOne(tFailed(contract.ReasonExtensionUnsupported, nil), tCardD(), bare), Fail},
		{"refused it from the card", tOne(tRejected(contract.ReasonExtensionUnsupported, extRequired), tCardD()), Fail},
		{"completed", tOne(tDone("t-1"), tCardD(), tExtSend(extRequired, "")), Pass},
		{"never fetched the card", tOne(tFailed(contract.ReasonOther, nil)), NotExercised},
	})
}

func TestExtensionNotImplemented(t *testing.T) {
	bare := tExt(mockvendor.OpSend, "SendMessage", "", "", -32008)
	claimed := tExtSend(extRequired, "")
	claimed03 := tExt03(mockvendor.OpSend, "message/send", "", extRequired, 0)
	other := tExt(mockvendor.OpSend, "SendMessage", extOther, "", -32008)
	unsupported := tRejected(contract.ReasonExtensionUnsupported, "the card requires "+extRequired)
	tStreamCases(t, "EXT-002.REFUSED", []tStreamCase{
		{"sent, then reported the -32008", tOne(tFailed(contract.ReasonExtensionUnsupported, nil), tCardD(), bare), Fail},
		{"refused without naming the extension", tOne(tRejected(contract.ReasonOther, "no"), tCardD()), Fail},
		{"reported completed", tOne(tDone("t-1"), tCardD()), Fail},
		{"refused from the card, extension-unsupported", tOne(unsupported, tCardD()), Pass},
		{"refused from the card, the URI in detail", tOne(tRejected(contract.ReasonOther, "needs "+extRequired), tCardD()), Pass},
		{"never fetched the card", tOne(tRejected(contract.ReasonOther, "")), NotExercised},
	})
	tStreamCases(t, "EXT-002.NOT-ACTIVATED", []tStreamCase{
		{"activated it in A2A-Extensions", tOne(tDone("t-1"), tCardD(), claimed), Fail},
		{"activated it in X-A2A-Extensions", tOne(tDone("t-1"), tCardD(), claimed03), Fail},
		{"activated only what the caller implements", tOne(tFailed(contract.ReasonExtensionUnsupported, nil), tCardD(), other), Pass},
		{"refused from the card", tOne(unsupported, tCardD()), Pass},
		{"never fetched the card", tOne(tRejected(contract.ReasonOther, "")), NotExercised},
	})
	loop := []mockvendor.Event{tCardD(), bare, bare, bare}
	tStreamCases(t, "EXT-002.NO-LOOP", []tStreamCase{
		{"three refusals", tOne(tFailed(contract.ReasonExtensionUnsupported, nil), loop...), Fail},
		{"-32008 reported as completed", tOne(tDone("t-1"), tCardD(), bare), Fail},
		{"no outcome", tOne(nil, tCardD(), bare), Fail},
		{"one refusal, reported", tOne(tFailed(contract.ReasonExtensionUnsupported, nil), tCardD(), bare), Pass},
		{"refused from the card", tOne(unsupported, tCardD()), Pass},
		{"never fetched the card", tOne(tFailed(contract.ReasonOther, nil)), NotExercised},
	})
}
