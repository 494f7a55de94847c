package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs for STREAM-006..011 (streams that answer with errors):
// each check fails a run that breaks it, passes one that keeps it, passes
// one that keeps it another way, and is NOT_EXERCISED (or NOT_APPLICABLE,
// with reason) where the run never met its situation.

const tAgentD = "https://" + mockvendor.HostRPCD + mockvendor.DefaultRPCPath

// tOp is a 1.0 JSON-RPC call to D's endpoint for skill S.
func tOp(op mockvendor.Op, method string) mockvendor.Event {
	return mockvendor.Event{Vendor: "d", Host: mockvendor.HostRPCD, Path: mockvendor.DefaultRPCPath, HTTPMethod: "POST", Op: op, Method: method,
		Skill: skillS, Status: 200, A2AVersion: "1.0", HasA2AVersion: true}
}

// tDStream is a real stream to D that fault acted on, changed by set.
func tDStream(fault string, set func(e *mockvendor.Event)) mockvendor.Event {
	e := tOp(mockvendor.OpStream, "SendStreamingMessage")
	if fault != "" {
		e.Faults = []string{fault}
	}
	if set != nil {
		set(&e)
	}
	return e
}

// tDTask is a get (or a plain send) of task id at D, answered state.
func tDTask(op mockvendor.Op, method, id, state string) mockvendor.Event {
	e := tOp(op, method)
	e.TaskID, e.State = id, state
	if op == mockvendor.OpGet {
		e.Skill = ""
	}
	return e
}

func tCardD() mockvendor.Event { return tCard("d", mockvendor.HostCardD, "", "", "") }

func tDone(task string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: tAgentD, Skill: skillS, TaskID: task}
}

func tFailed(reason string, e *contract.RemoteError) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: reason, Error: e}
}

// tOne is a one-delegation run of the events, with outcome o.
func tOne(o *contract.DelegationOutcome, evs ...mockvendor.Event) *Run {
	t := &tRun{}
	t.deleg()
	for _, e := range evs {
		t.ev(e)
	}
	return t.run(o)
}

type tStreamCase struct {
	name string
	run  *Run
	want Outcome
}

func tStreamCases(t *testing.T, id string, cases []tStreamCase) {
	t.Helper()
	for _, c := range cases {
		tEvaluate(t, id, c.name, c.run, c.want)
	}
}

func TestStreamErrorAsJSON(t *testing.T) {
	refused := tDStream("stream-error-json", func(e *mockvendor.Event) { e.ErrorCode, e.ContentType = -32603, "application/json" })
	tStreamCases(t, "STREAM-006.NO-EMPTY-SUCCESS", []tStreamCase{
		{"the error read as an empty success", tOne(&contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: tAgentD, Skill: skillS}, tCardD(), refused), Fail},
		{"no outcome", tOne(nil, tCardD(), refused), Fail},
		{"reported failed", tOne(tFailed(contract.ReasonOther, nil), tCardD(), refused), Pass},
		{"fell back to a plain send that completed", tOne(tDone("t-1"), tCardD(), refused, tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")), Pass},
		{"sent plainly from the start", tOne(tDone("t-1"), tCardD(), tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")), NotApplicable},
		{"never sent the task", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
}

func TestStreamUnauthorized(t *testing.T) {
	refused := tDStream("stream-unauthorized", func(e *mockvendor.Event) { e.Status, e.ErrorCode = 401, -32000 })
	tStreamCases(t, "STREAM-007.REFUSED", []tStreamCase{
		{"went round the 401 by a plain send", tOne(tDone("t-1"), tCardD(), refused, tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")), Fail},
		{"reported completed with nothing on the wire", tOne(tDone("t-1"), tCardD(), refused), Fail},
		{"reported auth-rejected", tOne(tFailed(contract.ReasonAuthRejected, nil), tCardD(), refused), Pass},
		{"escalated to the caller", tOne(&contract.DelegationOutcome{Outcome: contract.OutcomeEscalated, Reason: contract.ReasonOther}, tCardD(), refused), Pass},
		{"sent plainly from the start", tOne(tDone("t-1"), tCardD(), tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")), NotApplicable},
		{"never sent the task", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
}

// tStall is STREAM-008's trace: the stream of task t-1 cut at working,
// then what follows.
func tStall(o *contract.DelegationOutcome, after ...mockvendor.Event) *Run {
	cut := tDStream("stream-cut", func(e *mockvendor.Event) { e.TaskID, e.State = "t-1", "working" })
	return tOne(o, append([]mockvendor.Event{tCardD(), cut}, after...)...)
}

// tSub is a subscription to t-1 that the subscribe-stall fault held for ms
// (pending: still open).
func tSub(ms float64, pending bool) mockvendor.Event {
	e := tDTask(mockvendor.OpSubscribe, "SubscribeToTask", "t-1", "")
	e.Skill, e.Faults, e.DurationMs, e.Pending = "", []string{"subscribe-stall"}, ms, pending
	e.Note = "client left before the first frame"
	return e
}

func TestSubscriptionStall(t *testing.T) {
	timeout := slowFrameTimes(RealTime).timeoutMs
	got := tDTask(mockvendor.OpGet, "GetTask", "t-1", "completed")
	tStreamCases(t, "STREAM-008.TIMEOUT", []tStreamCase{
		{"waited on the silent subscription to the deadline", tStall(tFailed(contract.ReasonDeadline, nil), tSub(7800, false)), Fail},
		{"still open when the run ended", tStall(tFailed(contract.ReasonDeadline, nil), tSub(0, true)), Fail},
		{"left within the timeout", tStall(tDone("t-1"), tSub(float64(timeout)+50, false), got), Pass},
		{"polled without subscribing", tStall(tDone("t-1"), got), Pass},
		{"never asked about the task again", tStall(tFailed(contract.ReasonOther, nil)), NotExercised},
		{"sent plainly", tOne(tDone("t-1"), tCardD(), tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")), NotApplicable},
	})
	tStreamCases(t, "STREAM-008.POLL", []tStreamCase{
		{"left the subscription and reported failed", tStall(tFailed(contract.ReasonStreamTimeout, nil), tSub(float64(timeout)+50, false)), Fail},
		{"claimed completed without reading it", tStall(tDone("t-1"), tSub(float64(timeout)+50, false)), Fail},
		{"left the subscription and read the completion", tStall(tDone("t-1"), tSub(float64(timeout)+50, false), got), Pass},
		{"polled without subscribing", tStall(tDone("t-1"), got), Pass},
		{"never asked about the task again", tStall(tFailed(contract.ReasonOther, nil)), NotExercised},
	})
}

func TestMessageOnlyStream(t *testing.T) {
	msg := tDStream("message-reply", func(e *mockvendor.Event) { e.MessageReply = true })
	reply := &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: tAgentD, Skill: skillS}
	madeUp := tDTask(mockvendor.OpGet, "GetTask", "t-made-up", "")
	tStreamCases(t, "STREAM-009.DONE", []tStreamCase{
		{"the Message taken for a failure", tOne(tFailed(contract.ReasonOther, nil), tCardD(), msg), Fail},
		{"completed by the Message", tOne(reply, tCardD(), msg), Pass},
		{"completed by the Message, then a stray get", tOne(reply, tCardD(), msg, madeUp), Pass},
		{"sent plainly", tOne(reply, tCardD(), tDTask(mockvendor.OpSend, "SendMessage", "", "")), NotApplicable},
		{"never sent the task", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
	tStreamCases(t, "STREAM-009.NO-TASK-OP", []tStreamCase{
		{"a get of a made-up task", tOne(reply, tCardD(), msg, madeUp), Fail},
		{"a cancel of a made-up task", tOne(reply, tCardD(), msg, tDTask(mockvendor.OpCancel, "CancelTask", "t-x", "")), Fail},
		{"nothing after the Message", tOne(reply, tCardD(), msg), Pass},
		{"a fresh probe after it", tOne(reply, tCardD(), msg, tSendTo("d", mockvendor.HostRPCD, skillS, true, 0, "")), Pass},
		{"never streamed the task", tOne(tFailed(contract.ReasonOther, nil), tCardD()), NotExercised},
	})
}

func TestUnknownStateNotTerminal(t *testing.T) {
	seen := func(states ...string) func(e *mockvendor.Event) {
		return func(e *mockvendor.Event) {
			e.TaskID = "t-1"
			for _, s := range states {
				e.Seen = append(e.Seen, mockvendor.SeenState{State: s})
				e.State = s
			}
		}
	}
	readOn := tDStream("state-unknown", seen("submitted", "working", "unspecified", "completed"))
	left := tDStream("state-unknown", seen("submitted", "working", "unspecified"))
	tStreamCases(t, "STREAM-010.NOT-TERMINAL", []tStreamCase{
		{"the unknown state taken for a failure", tOne(tFailed(contract.ReasonOther, nil), tCardD(), left), Fail},
		{"the unknown state taken for a completion", tOne(tDone("t-1"), tCardD(), left), Fail},
		{"read on to the completion", tOne(tDone("t-1"), tCardD(), readOn), Pass},
		{"left the stream, then polled to the completion", tOne(tDone("t-1"), tCardD(), left, tDTask(mockvendor.OpGet, "GetTask", "t-1", "completed")), Pass},
		{"left before the unknown state", tOne(tFailed(contract.ReasonOther, nil), tCardD(), tDStream("state-unknown", seen("submitted"))), NotExercised},
		{"sent plainly", tOne(tDone("t-1"), tCardD(), tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")), NotApplicable},
	})
}

func TestStreamErrorNamed(t *testing.T) {
	lost := &contract.RemoteError{Code: lostTask.Code, Reason: lostTask.Reason}
	byReason := &contract.RemoteError{Reason: lostTask.Reason}
	other := &contract.RemoteError{Code: -32603, Reason: "INTERNAL"}
	byCode := &contract.RemoteError{Code: lostTask.Code}
	plainErr := tSendTo("d", mockvendor.HostRPCD, skillS, false, lostTask.Code, "")
	streamErr := tDStream("stream-error-event", func(e *mockvendor.Event) { e.TaskID, e.State, e.ErrorCode = "t-2", "working", lostTask.Code })
	two := func(o1, o2 *contract.DelegationOutcome, second ...mockvendor.Event) *Run {
		t := &tRun{}
		t.deleg()
		t.ev(tCardD())
		t.ev(plainErr)
		t.deleg()
		for _, e := range second {
			t.ev(e)
		}
		return t.run(o1, o2)
	}
	tStreamCases(t, "STREAM-011.NAMED", []tStreamCase{
		{"named on the plain send, lost on the stream", two(tFailed("other", lost), tFailed("other", nil), streamErr), Fail},
		{"another error named on the stream", two(tFailed("other", lost), tFailed("other", other), streamErr), Fail},
		{"the stream reported completed", two(tFailed("other", lost), tDone("t-2"), streamErr), Fail},
		{"named alike", two(tFailed("other", lost), tFailed("other", lost), streamErr), Pass},
		{"named by its reason alone", two(tFailed("other", byReason), tFailed("other", byReason), streamErr), Pass},
		{"named by its code alone", two(tFailed("other", byCode), tFailed("other", byCode), streamErr), Pass},
		{"named wrongly on both", two(tFailed("other", other), tFailed("other", other), streamErr), Fail},
		{"named on the stream only", two(tFailed("other", nil), tFailed("other", lost), streamErr), Pass},
		{"named on neither", two(tFailed("other", nil), tFailed("other", nil), streamErr), NotApplicable},
		{"the second delegation sent plainly", two(tFailed("other", lost), tFailed("other", lost), plainErr), NotApplicable},
		{"the stream was left before its error", two(tFailed("other", lost), tFailed("other", nil), tDStream("stream-error-event", func(e *mockvendor.Event) { e.TaskID = "t-2" })), NotExercised},
	})
}
