package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs for CAP-001 (the card honestly says streaming: false):
// each check fails a run that breaks it, passes one that keeps it (and
// the fallback client where it should), and is NOT_EXERCISED where the
// orchestrator never sent D anything.

func TestCapabilityRespected(t *testing.T) {
	send := tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")
	refusedStream := tOp(mockvendor.OpStream, "SendStreamingMessage")
	refusedStream.ErrorCode = -32004
	probe := tOp(mockvendor.OpSend, "SendMessage")
	probe.Probe = true
	sub := tDTask(mockvendor.OpSubscribe, "SubscribeToTask", "t-1", "")
	sub.ErrorCode = -32004
	stream03 := refusedStream
	stream03.Method, stream03.Dialect, stream03.A2AVersion = "message/stream", "0.3", "0.3"
	tStreamCases(t, "CAP-001.NO-STREAM", []tStreamCase{
		{"streamed anyway, then fell back", tOne(tDone("t-1"), tCardD(), refusedStream, send), Fail},
		{"streamed by its 0.3 name", tOne(tFailed(contract.ReasonOther, nil), tCardD(), stream03), Fail},
		{"sent plainly, then subscribed to follow", tOne(tDone("t-1"), tCardD(), send, sub), Fail},
		{"sent plainly", tOne(tDone("t-1"), tCardD(), probe, send), Pass},
		{"sent plainly, failed for another reason", tOne(tFailed(contract.ReasonOther, nil), tCardD(), send), Pass},
		{"never sent D anything", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
	tStreamCases(t, "CAP-001.DONE", []tStreamCase{
		{"gave up for want of streaming", tOne(tFailed(contract.ReasonOther, nil), tCardD(), probe), Fail},
		{"took the -32004 for a missing skill", tOne(&contract.DelegationOutcome{Outcome: contract.OutcomeRejected, Reason: contract.ReasonSkillUnavailable}, tCardD(), refusedStream), Fail},
		{"reported completed with no task on the wire", tOne(tDone("t-1"), tCardD(), refusedStream), Fail},
		{"sent plainly and completed", tOne(tDone("t-1"), tCardD(), send), Pass},
		{"streamed, fell back and completed", tOne(tDone("t-1"), tCardD(), refusedStream, send), Pass},
		{"never sent D anything", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
}
