package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestNoUnknownTaskJudgesContinuationsAndSubscriptions: a message that
// continues a task, and a subscription, need a task the agent issued.
func TestNoUnknownTaskJudgesContinuationsAndSubscriptions(t *testing.T) {
	send := func(seq int64, id, cont string) mockvendor.Event {
		e := mockvendor.Event{Seq: seq, Op: mockvendor.OpSend, Method: "SendMessage", TaskID: id}
		if cont != "" {
			e.Request = []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","taskId":"` + cont + `","parts":[{"text":"more"}]}}}`)
		}
		return e
	}
	sub := func(seq int64, id string) mockvendor.Event {
		return mockvendor.Event{Seq: seq, Op: mockvendor.OpOther, Method: "SubscribeToTask", TaskID: id}
	}
	rest := mockvendor.Event{Seq: 2, Op: mockvendor.OpSend, Binding: "HTTP+JSON", Request: []byte(`{"message":{"taskId":"t-9","parts":[{"text":"x"}]}}`)}
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"continuation of an issued task", []mockvendor.Event{send(1, "t-1", ""), send(2, "t-1", "t-1")}, Pass},
		{"continuation of a made-up task", []mockvendor.Event{send(1, "t-1", ""), send(2, "", "t-9")}, Fail},
		{"HTTP+JSON continuation of a made-up task", []mockvendor.Event{send(1, "t-1", ""), rest}, Fail},
		{"subscription to an issued task", []mockvendor.Event{send(1, "t-1", ""), sub(2, "t-1")}, Pass},
		{"subscription to a made-up task", []mockvendor.Event{sub(1, "t-9")}, Fail},
	}
	for _, c := range cases {
		if v := judgeNoUnknownTask(&Run{Events: c.events}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestContradictionOfLifeOutcomes: interrupted and message-only completed
// outcomes held against the wire.
func TestContradictionOfLifeOutcomes(t *testing.T) {
	const agent = "https://rpc.agent-d.example/a2a/v1"
	created := mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Host: "rpc.agent-d.example", Path: "/a2a/v1", TaskID: "t-1", Skill: "s", State: "input-required"}
	working := created
	working.State = "working"
	reply := mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Host: "rpc.agent-d.example", Path: "/a2a/v1", Skill: "s", MessageReply: true}
	plain := reply
	plain.MessageReply = false
	cases := []struct {
		name    string
		events  []mockvendor.Event
		outcome contract.DelegationOutcome
		want    string // "" for none, else a substring of the contradiction
	}{
		{"interrupted as the wire shows", []mockvendor.Event{created}, contract.DelegationOutcome{Outcome: "interrupted", Agent: agent, TaskID: "t-1", TaskState: "input-required"}, ""},
		{"interrupted, 1.0 spelling", []mockvendor.Event{created}, contract.DelegationOutcome{Outcome: "interrupted", Agent: agent, TaskID: "t-1", TaskState: "TASK_STATE_INPUT_REQUIRED"}, ""},
		{"interrupted at another state", []mockvendor.Event{created}, contract.DelegationOutcome{Outcome: "interrupted", Agent: agent, TaskID: "t-1", TaskState: "auth-required"}, "never answered in that state"},
		{"interrupted, but only working", []mockvendor.Event{working}, contract.DelegationOutcome{Outcome: "interrupted", Agent: agent, TaskID: "t-1", TaskState: "input-required"}, "never answered"},
		{"interrupted, unknown task", []mockvendor.Event{created}, contract.DelegationOutcome{Outcome: "interrupted", Agent: agent, TaskID: "t-2", TaskState: "input-required"}, "no real task"},
		{"completed by a Message reply", []mockvendor.Event{reply}, contract.DelegationOutcome{Outcome: "completed", Agent: agent, Skill: "s"}, ""},
		{"completed without task or Message reply", []mockvendor.Event{plain}, contract.DelegationOutcome{Outcome: "completed", Agent: agent, Skill: "s"}, "no Message reply"},
		{"completed by a Message reply elsewhere", []mockvendor.Event{reply}, contract.DelegationOutcome{Outcome: "completed", Agent: "https://agent-b.example/a2a", Skill: "s"}, "no Message reply"},
	}
	for _, c := range cases {
		o := c.outcome
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: &o, FirstSeq: 1, LastSeq: 9}}}
		got := r.Contradiction(0)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: contradiction %q, want %q", c.name, got, c.want)
		}
	}
}

// TestBackoff: the gets of one task in any one-second window.
func TestBackoff(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	gets := func(every time.Duration, n int) []mockvendor.Event {
		var out []mockvendor.Event
		for i := 0; i < n; i++ {
			out = append(out, mockvendor.Event{Seq: int64(i + 1), Op: mockvendor.OpGet, TaskID: "t-1", Time: t0.Add(time.Duration(i) * every)})
		}
		return out
	}
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"five a second", gets(200*time.Millisecond, 10), Pass},
		{"ten a second", gets(100*time.Millisecond, 10), Fail},
		{"no gets, a subscription", []mockvendor.Event{{Seq: 1, Op: mockvendor.OpOther, Method: "SubscribeToTask", TaskID: "t-1"}}, NotApplicable},
		{"no gets at all", nil, NotExercised},
	}
	for _, c := range cases {
		if v := judgeBackoff(&Run{Events: c.events}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}
