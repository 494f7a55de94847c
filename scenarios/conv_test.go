package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs of the CONV checks: each fails on the wire that breaks
// it, passes on the reference's way and on another legitimate one, and is
// NOT_EXERCISED where the task never asked (or no answer was refused).

const tConvAgent = "https://rpc.agent-d.example/a2a/v1"

// tConvSend is a real JSON-RPC send to D: it names taskID and ctx in its
// message (none when empty), with text, and was answered with task id at
// state, or refused with code.
func tConvSend(seq int64, taskID, ctx, text, id, state string, code int) mockvendor.Event {
	msg := `{"role":"ROLE_USER","messageId":"m","parts":[{"text":"` + text + `"}]`
	if taskID != "" {
		msg += `,"taskId":"` + taskID + `"`
	}
	if ctx != "" {
		msg += `,"contextId":"` + ctx + `"`
	}
	e := mockvendor.Event{Seq: seq, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1", Op: mockvendor.OpSend, Method: "SendMessage", Dialect: "1.0",
		Skill: mockvendor.SkillInvoice, Request: []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":` + msg + `}}}`)}
	if code != 0 {
		e.ErrorCode = code
		return e
	}
	e.TaskID, e.State = id, state
	return e
}

// tConvREST is tConvSend over HTTP+JSON, a stream (the states seen in
// order).
func tConvREST(seq int64, taskID, text, id string, states ...string) mockvendor.Event {
	e := tConvSend(seq, taskID, "", text, id, states[len(states)-1], 0)
	e.Binding, e.Op, e.Method, e.Path = mockvendor.BindingREST, mockvendor.OpStream, "SendStreamingMessage", "/a2a/v1/message:stream"
	e.Request = []byte(`{"message":{"role":"ROLE_USER","messageId":"m","taskId":"` + taskID + `","parts":[{"text":"` + text + `"}]}}`)
	for _, s := range states {
		e.Seen = append(e.Seen, mockvendor.SeenState{State: s})
	}
	return e
}

func tConvOutcome(outcome, taskID, state string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: outcome, Agent: tConvAgent, Skill: mockvendor.SkillInvoice, TaskID: taskID, TaskState: state}
}

func TestConvChecks(t *testing.T) {
	ask := tConvSend(1, "", "", "reconcile INV-1042", "t-1", "input-required", 0)
	done := tConvSend(1, "", "", "reconcile INV-1042", "t-1", "completed", 0)
	answer := tConvSend(2, "t-1", "ctx-1", convReply1, "t-1", "completed", 0)
	answerNoCtx := tConvSend(2, "t-1", "", convReply1, "t-1", "completed", 0)
	streamed := tConvREST(2, "t-1", convReply1, "t-1", "submitted", "working", "completed")
	fresh := tConvSend(2, "", "ctx-1", convReply1, "t-2", "completed", 0)
	wrongCtx := tConvSend(2, "t-1", "ctx-9", convReply1, "", "", -32602)
	ask2 := tConvSend(2, "t-1", "ctx-1", convReply1, "t-1", "input-required", 0)
	second := tConvSend(3, "t-1", "ctx-1", convReply2, "t-1", "completed", 0)
	swapped1 := tConvSend(2, "t-1", "ctx-1", convReply2, "t-1", "input-required", 0)
	swapped2 := tConvSend(3, "t-1", "ctx-1", convReply1, "t-1", "completed", 0)
	refused := tConvSend(2, "t-1", "", convReply1, "", "", -32004)
	freshAfter := tConvSend(3, "", "", convReply1, "t-2", "completed", 0)
	completed := tConvOutcome(contract.OutcomeCompleted, "t-1", "completed")
	interrupted := tConvOutcome(contract.OutcomeInterrupted, "t-1", "input-required")
	failed := tConvOutcome(contract.OutcomeFailed, "", "")
	escalated := tConvOutcome(contract.OutcomeEscalated, "", "")
	cases := []struct {
		check, name string
		events      []mockvendor.Event
		outcome     *contract.DelegationOutcome
		want        Outcome
	}{
		{"CONV-001.CONTINUE", "taskId and contextId", []mockvendor.Event{ask, answer}, completed, Pass},
		{"CONV-001.CONTINUE", "taskId only", []mockvendor.Event{ask, answerNoCtx}, completed, Pass},
		{"CONV-001.CONTINUE", "by an HTTP+JSON stream", []mockvendor.Event{ask, streamed}, completed, Pass},
		{"CONV-001.CONTINUE", "contextId only: a new task", []mockvendor.Event{ask, fresh}, completed, Fail},
		{"CONV-001.CONTINUE", "another contextId", []mockvendor.Event{ask, wrongCtx}, failed, Fail},
		{"CONV-001.CONTINUE", "never answered", []mockvendor.Event{ask}, interrupted, Fail},
		{"CONV-001.CONTINUE", "the task never asked", []mockvendor.Event{done}, completed, NotExercised},
		{"CONV-001.NO-NEW-TASK", "continuation", []mockvendor.Event{ask, answer}, completed, Pass},
		{"CONV-001.NO-NEW-TASK", "by an HTTP+JSON stream", []mockvendor.Event{ask, streamed}, completed, Pass},
		{"CONV-001.NO-NEW-TASK", "contextId only: a new task", []mockvendor.Event{ask, fresh}, completed, Fail},
		{"CONV-001.NO-NEW-TASK", "the task never asked", []mockvendor.Event{done}, completed, NotExercised},
		{"CONV-001.COMPLETED", "completed after the answer", []mockvendor.Event{ask, answer}, completed, Pass},
		{"CONV-001.COMPLETED", "completed after a streamed answer", []mockvendor.Event{ask, streamed}, completed, Pass},
		{"CONV-001.COMPLETED", "interrupted after the answer", []mockvendor.Event{ask, answer}, interrupted, Fail},
		{"CONV-001.COMPLETED", "completed, never answered", []mockvendor.Event{ask}, completed, Fail},
		{"CONV-001.COMPLETED", "the task never asked", []mockvendor.Event{done}, completed, NotExercised},
		{"CONV-002.EVERY-TURN", "both replies in order", []mockvendor.Event{ask, ask2, second}, completed, Pass},
		{"CONV-002.EVERY-TURN", "the second by an HTTP+JSON stream", []mockvendor.Event{ask, ask2, tConvREST(3, "t-1", convReply2, "t-1", "working", "completed")}, completed, Pass},
		{"CONV-002.EVERY-TURN", "the first reply only", []mockvendor.Event{ask, ask2}, interrupted, Fail},
		{"CONV-002.EVERY-TURN", "out of order", []mockvendor.Event{ask, swapped1, swapped2}, completed, Fail},
		{"CONV-002.EVERY-TURN", "the task never asked", []mockvendor.Event{done}, completed, NotExercised},
		{"CONV-003.INTERRUPTED", "interrupted with the task", []mockvendor.Event{ask}, interrupted, Pass},
		{"CONV-003.INTERRUPTED", "interrupted without the task", []mockvendor.Event{ask}, tConvOutcome(contract.OutcomeInterrupted, "", "input-required"), Fail},
		{"CONV-003.INTERRUPTED", "failed", []mockvendor.Event{ask}, failed, Fail},
		{"CONV-003.INTERRUPTED", "the task never asked", []mockvendor.Event{done}, completed, NotExercised},
		{"CONV-003.NO-MADE-UP-REPLY", "nothing sent", []mockvendor.Event{ask}, interrupted, Pass},
		{"CONV-003.NO-MADE-UP-REPLY", "an answer of its own", []mockvendor.Event{ask, answer}, completed, Fail},
		{"CONV-003.NO-MADE-UP-REPLY", "the work again as a new task", []mockvendor.Event{ask, fresh}, completed, Fail},
		{"CONV-003.NO-MADE-UP-REPLY", "the task never asked", []mockvendor.Event{done}, completed, NotExercised},
		{"CONV-004.NOT-COMPLETED", "failed", []mockvendor.Event{ask, refused}, failed, Pass},
		{"CONV-004.NOT-COMPLETED", "escalated", []mockvendor.Event{ask, refused}, escalated, Pass},
		{"CONV-004.NOT-COMPLETED", "completed", []mockvendor.Event{ask, refused}, completed, Fail},
		{"CONV-004.NOT-COMPLETED", "interrupted", []mockvendor.Event{ask, refused}, interrupted, Fail},
		{"CONV-004.NOT-COMPLETED", "no answer refused", []mockvendor.Event{ask}, interrupted, NotExercised},
		{"CONV-004.NO-FRESH-TASK", "reported after the refusal", []mockvendor.Event{ask, refused}, failed, Pass},
		{"CONV-004.NO-FRESH-TASK", "retried as a new task", []mockvendor.Event{ask, refused, freshAfter}, completed, Fail},
		{"CONV-004.NO-FRESH-TASK", "no answer refused", []mockvendor.Event{ask}, interrupted, NotExercised},
	}
	for _, c := range cases {
		_, check := Find(c.check)
		if check == nil {
			t.Fatalf("no check %s", c.check)
		}
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: c.outcome, FirstSeq: 1, LastSeq: 9}}}
		if v, _ := check.Evaluate(r); v.Outcome != c.want {
			t.Errorf("%s, %s: %s (%s), want %s", c.check, c.name, v.Outcome, v.Detail, c.want)
		}
	}
}
