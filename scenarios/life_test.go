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
		return mockvendor.Event{Seq: seq, Op: mockvendor.OpSubscribe, Method: "SubscribeToTask", TaskID: id}
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
	// Over gRPC the path is the service method's; the agent is named by
	// host:port or as an https URL.
	grpcDone := mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Binding: mockvendor.BindingGRPC, Host: "rpc.agent-d.example", Path: "/lf.a2a.v1.A2AService/SendMessage", TaskID: "t-1", Skill: "s", State: "completed"}
	grpcAsking := grpcDone
	grpcAsking.State = "input-required"
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
		{"completed over gRPC, agent host:port", []mockvendor.Event{grpcDone}, contract.DelegationOutcome{Outcome: "completed", Agent: "rpc.agent-d.example:443", TaskID: "t-1", Skill: "s"}, ""},
		{"completed over gRPC, agent https URL", []mockvendor.Event{grpcDone}, contract.DelegationOutcome{Outcome: "completed", Agent: "https://rpc.agent-d.example", TaskID: "t-1", Skill: "s"}, ""},
		{"completed over gRPC, another host named", []mockvendor.Event{grpcDone}, contract.DelegationOutcome{Outcome: "completed", Agent: "agent-b.example:443", TaskID: "t-1", Skill: "s"}, "the wire shows task"},
		{"completed over JSON-RPC, the agent named without its path", []mockvendor.Event{{Seq: 1, Op: mockvendor.OpSend, Host: "rpc.agent-d.example", Path: "/a2a/v1", TaskID: "t-1", Skill: "s", State: "completed"}}, contract.DelegationOutcome{Outcome: "completed", Agent: "https://rpc.agent-d.example", TaskID: "t-1", Skill: "s"}, "the wire shows task"},
		{"interrupted over gRPC", []mockvendor.Event{grpcAsking}, contract.DelegationOutcome{Outcome: "interrupted", Agent: "rpc.agent-d.example:443", TaskID: "t-1", TaskState: "input-required"}, ""},
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
		{"no gets, a subscription", []mockvendor.Event{{Seq: 1, Op: mockvendor.OpSubscribe, Method: "SubscribeToTask", TaskID: "t-1"}}, NotApplicable},
		{"no gets at all", nil, NotExercised},
	}
	for _, c := range cases {
		if v := judgeBackoff(&Run{Events: c.events}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestStopPollingInterruptedStates: LIFE-002.STOP-POLLING holds for
// input-required only. An auth-required task may be polled or subscribed
// to (A2A 1.0 §7.6.2 asks a client to, so as not to miss the task going on
// after credentials arrive out of band); a stream that closed at
// input-required may be subscribed to once (on §3.1.2's reading the close
// was early), but an input-required task is not polled.
func TestStopPollingInterruptedStates(t *testing.T) {
	answered := func(seq int64, op mockvendor.Op, method, state string) mockvendor.Event {
		return mockvendor.Event{Seq: seq, Op: op, Method: method, TaskID: "t-1", State: state}
	}
	send := func(state string) mockvendor.Event { return answered(1, mockvendor.OpSend, "SendMessage", state) }
	stream := func(state string) mockvendor.Event {
		return answered(1, mockvendor.OpStream, "SendStreamingMessage", state)
	}
	get := func(seq int64, state string) mockvendor.Event {
		return answered(seq, mockvendor.OpGet, "GetTask", state)
	}
	sub := func(seq int64, state string) mockvendor.Event {
		return answered(seq, mockvendor.OpSubscribe, "SubscribeToTask", state)
	}
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"keeps polling an auth-required task", []mockvendor.Event{send("auth-required"), get(2, "auth-required"), get(3, "auth-required"), get(4, "auth-required")}, Pass},
		{"subscribes to an auth-required task", []mockvendor.Event{send("auth-required"), sub(2, "auth-required"), sub(3, "auth-required")}, Pass},
		{"keeps polling an input-required task", []mockvendor.Event{send("input-required"), get(2, "input-required"), get(3, "input-required")}, Fail},
		{"one get of an input-required task", []mockvendor.Event{send("input-required"), get(2, "input-required")}, Fail},
		{"subscribes to a task sent plainly and answered input-required", []mockvendor.Event{send("input-required"), sub(2, "input-required")}, Fail},
		{"subscribes once after a stream closed at input-required", []mockvendor.Event{stream("input-required"), sub(2, "input-required")}, Pass},
		{"subscribes twice after a stream closed at input-required", []mockvendor.Event{stream("input-required"), sub(2, "input-required"), sub(3, "input-required")}, Fail},
		{"polls after a stream closed at input-required", []mockvendor.Event{stream("input-required"), get(2, "input-required")}, Fail},
		{"polls a working task until it is input-required, then stops", []mockvendor.Event{send("working"), get(2, "working"), get(3, "input-required")}, Pass},
	}
	for _, c := range cases {
		if v := judgeStopPolling(&Run{Events: c.events}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestFinalStateRead: STREAM-005.DONE judges the final state of a task
// whose stream was cut after it completed: read after a refused
// subscription (or by a get alone) and reported. A client that never asked
// about the task again is NOT_EXERCISED here, not failed a second time
// beside STREAM-003.FOLLOW.
func TestFinalStateRead(t *testing.T) {
	const agent = "https://rpc.agent-d.example/a2a/v1"
	at := func(e mockvendor.Event) mockvendor.Event {
		e.Host, e.Path, e.Skill = "rpc.agent-d.example", "/a2a/v1", "s"
		return e
	}
	cut := at(mockvendor.Event{Seq: 1, Op: mockvendor.OpStream, Method: "SendStreamingMessage", TaskID: "t-1", State: "working", Faults: []string{"stream-cut"}})
	refused := at(mockvendor.Event{Seq: 2, Op: mockvendor.OpSubscribe, Method: "SubscribeToTask", TaskID: "t-1", ErrorCode: -32004})
	get := func(seq int64) mockvendor.Event {
		return at(mockvendor.Event{Seq: seq, Op: mockvendor.OpGet, Method: "GetTask", TaskID: "t-1", State: "completed"})
	}
	completed := contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: agent, Skill: "s", TaskID: "t-1"}
	failed := contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Agent: agent, Skill: "s", TaskID: "t-1"}
	plain := at(mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", TaskID: "t-1", State: "completed"})
	cases := []struct {
		name    string
		events  []mockvendor.Event
		outcome contract.DelegationOutcome
		want    Outcome
	}{
		{"never asked about the task again", []mockvendor.Event{cut}, failed, NotExercised},
		{"refused, then a get, completed", []mockvendor.Event{cut, refused, get(3)}, completed, Pass},
		{"polled without subscribing, completed", []mockvendor.Event{cut, get(2)}, completed, Pass},
		{"subscribed before the task ended, saw it complete", []mockvendor.Event{cut, at(mockvendor.Event{Seq: 2, Op: mockvendor.OpSubscribe, Method: "SubscribeToTask", TaskID: "t-1", State: "completed"})}, completed, Pass},
		{"refused, taken for a failure", []mockvendor.Event{cut, refused}, failed, Fail},
		{"refused, no get, completed guessed", []mockvendor.Event{cut, refused}, completed, Fail},
		{"refused, a get, but reported failed", []mockvendor.Event{cut, refused, get(3)}, failed, Fail},
		{"polled, but reported failed", []mockvendor.Event{cut, get(2)}, failed, Fail},
		{"sent plainly", []mockvendor.Event{plain}, completed, NotApplicable},
	}
	for _, c := range cases {
		o := c.outcome
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: &o, FirstSeq: 1, LastSeq: 9}}}
		if v := judgeFinalStateRead(r); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestFollowedWhatItAsked: LIFE-006.DONE holds a client that asked a send
// to return immediately (1.0 returnImmediately, 0.3 blocking false, in
// JSON-RPC params or an HTTP+JSON body) to the task's end, and does not
// apply to one that sent blocking.
func TestFollowedWhatItAsked(t *testing.T) {
	const agent = "https://rpc.agent-d.example/a2a/v1"
	send := func(body string) mockvendor.Event {
		return mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", Host: "rpc.agent-d.example", Path: "/a2a/v1", Skill: "s", TaskID: "t-1", State: "submitted", Request: []byte(body)}
	}
	const (
		asked10   = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","parts":[{"text":"x"}]},"configuration":{"returnImmediately":true}}}`
		asked03   = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","parts":[{"kind":"text","text":"x"}]},"configuration":{"blocking":false}}}`
		askedREST = `{"message":{"role":"ROLE_USER","parts":[{"text":"x"}]},"configuration":{"returnImmediately":true}}`
		blocking  = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","parts":[{"text":"x"}]},"configuration":{"blocking":true}}}`
	)
	got := mockvendor.Event{Seq: 2, Op: mockvendor.OpGet, Method: "GetTask", Host: "rpc.agent-d.example", Path: "/a2a/v1", TaskID: "t-1", State: "completed"}
	completed := contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: agent, Skill: "s", TaskID: "t-1"}
	failed := contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Agent: agent, Skill: "s", TaskID: "t-1"}
	cases := []struct {
		name    string
		events  []mockvendor.Event
		outcome contract.DelegationOutcome
		want    Outcome
	}{
		{"returnImmediately, followed to completed", []mockvendor.Event{send(asked10), got}, completed, Pass},
		{"0.3 blocking false, followed to completed", []mockvendor.Event{send(asked03), got}, completed, Pass},
		{"HTTP+JSON returnImmediately, followed", []mockvendor.Event{send(askedREST), got}, completed, Pass},
		{"returnImmediately, the answer taken as the end", []mockvendor.Event{send(asked10)}, failed, Fail},
		{"returnImmediately, completed claimed without seeing it", []mockvendor.Event{send(asked10)}, completed, Fail},
		{"a blocking send", []mockvendor.Event{send(blocking)}, failed, NotApplicable},
		{"no configuration at all", []mockvendor.Event{send(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{}}}`)}, failed, NotApplicable},
		{"no send", nil, failed, NotExercised},
	}
	for _, c := range cases {
		o := c.outcome
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: &o, FirstSeq: 1, LastSeq: 9}}}
		if v := judgeFollowedWhatItAsked(r, lifeHonestWorkMs); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// lifeT0 is the start of the synthetic traces below.
var lifeT0 = time.Unix(1_800_000_000, 0)

// at is lifeT0 plus ms milliseconds.
func at(ms int) time.Time { return lifeT0.Add(time.Duration(ms) * time.Millisecond) }

// streamed is a streamed send of task t-1 at D that lasted until endMs and
// delivered the states at the times given (state, ms, state, ms...).
func streamed(seq int64, endMs int, seen ...any) mockvendor.Event {
	e := mockvendor.Event{Seq: seq, Time: at(0), DurationMs: float64(endMs), Vendor: "d", Op: mockvendor.OpStream, Method: "SendStreamingMessage", TaskID: "t-1"}
	for i := 0; i+1 < len(seen); i += 2 {
		e.Seen = append(e.Seen, mockvendor.SeenState{State: seen[i].(string), Time: at(seen[i+1].(int))})
		e.State = seen[i].(string)
	}
	return e
}

// TestWorkingSeenOnAStream: LIFE-003/004's precondition (a real task
// shown working) is met by a stream that delivered working, whatever it
// delivered after, as by a send answered working; not by a stream that
// showed only submitted.
func TestWorkingSeenOnAStream(t *testing.T) {
	p := taskAnswered("d", "working")
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   bool
	}{
		{"send answered working", []mockvendor.Event{{Seq: 1, Vendor: "d", Op: mockvendor.OpSend, TaskID: "t-1", State: "working"}}, true},
		{"stream read to its end", []mockvendor.Event{streamed(1, 3000, "submitted", 1, "working", 2, "completed", 3000)}, true},
		{"stream left at working", []mockvendor.Event{streamed(1, 900, "submitted", 1, "working", 2)}, true},
		{"stream left after the task", []mockvendor.Event{streamed(1, 900, "submitted", 1)}, false},
		{"send answered completed", []mockvendor.Event{{Seq: 1, Vendor: "d", Op: mockvendor.OpSend, TaskID: "t-1", State: "completed"}}, false},
	}
	for _, c := range cases {
		if got := p.Met(&Run{Events: c.events}); got != c.want {
			t.Errorf("%s: met %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBackoffCountsTheSendsOwnStream: a client that follows its task over
// the stream of its send polls nothing: NOT_APPLICABLE, as for one that
// subscribes; one that streams and then busy-polls fails.
func TestBackoffCountsTheSendsOwnStream(t *testing.T) {
	s := streamed(1, 3000, "submitted", 1, "working", 2, "completed", 3000)
	var busy []mockvendor.Event
	busy = append(busy, streamed(1, 10, "submitted", 1, "working", 2))
	for i := 0; i < 10; i++ {
		busy = append(busy, mockvendor.Event{Seq: int64(i + 2), Time: at(20 + 50*i), Op: mockvendor.OpGet, TaskID: "t-1", State: "working"})
	}
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"followed over its own stream", []mockvendor.Event{s}, NotApplicable},
		{"streamed, then polled every 50 ms", busy, Fail},
		{"a probe stream only", []mockvendor.Event{{Seq: 1, Op: mockvendor.OpStream, Probe: true, TaskID: "p-1"}}, NotExercised},
	}
	for _, c := range cases {
		if v := judgeBackoff(&Run{Events: c.events}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestStopAtDeadlineOverAStream: LIFE-004.STOP and LIFE-004.CANCEL judge a
// client that follows the task over its stream: closing the stream at the
// deadline and cancelling passes, as polling up to it does; reading the
// stream on past the deadline fails; a client that never created the
// task is not exercised.
func TestStopAtDeadlineOverAStream(t *testing.T) {
	_, stop := Find("LIFE-004.STOP")
	_, cancelCheck := Find("LIFE-004.CANCEL")
	if stop == nil || cancelCheck == nil {
		t.Fatal("LIFE-004 checks missing")
	}
	cancel := mockvendor.Event{Seq: 3, Time: at(lifeDeadlineMs + 10), DurationMs: 1, Vendor: "d", Op: mockvendor.OpCancel, TaskID: "t-1", State: "canceled"}
	failedDeadline := &contract.DelegationOutcome{Outcome: contract.OutcomeFailed, Reason: contract.ReasonDeadline}
	run := func(o *contract.DelegationOutcome, evs ...mockvendor.Event) *Run {
		return &Run{Events: evs, Delegations: []Delegation{{Request: contract.DelegationRequest{DeadlineMs: lifeDeadlineMs}, Outcome: o, FirstSeq: 1, LastSeq: 9, ElapsedMs: lifeDeadlineMs}}}
	}
	polled := []mockvendor.Event{{Seq: 1, Time: at(0), Vendor: "d", Op: mockvendor.OpSend, TaskID: "t-1", State: "working"}}
	for i := 1; i <= 4; i++ {
		polled = append(polled, mockvendor.Event{Seq: int64(1 + i), Time: at(1000 * i), Vendor: "d", Op: mockvendor.OpGet, TaskID: "t-1", State: "working"})
	}
	pcancel := cancel
	pcancel.Seq = 9
	cases := []struct {
		name               string
		run                *Run
		wantStop, wantCncl Outcome
	}{
		{"stream closed at the deadline, task cancelled", run(failedDeadline, streamed(1, lifeDeadlineMs, "submitted", 1, "working", 2), cancel), Pass, Pass},
		{"stream closed at the deadline, not cancelled", run(failedDeadline, streamed(1, lifeDeadlineMs, "submitted", 1, "working", 2)), Pass, Fail},
		{"polled up to the deadline, cancelled", run(failedDeadline, append(polled, pcancel)...), Pass, Pass},
		{"stream read past the deadline, to the task's end", run(failedDeadline, streamed(1, lifeLongWorkMs, "submitted", 1, "working", 2, "completed", lifeLongWorkMs)), Fail, Fail},
		{"stream still open at the end", run(failedDeadline, func() mockvendor.Event { e := streamed(1, 0, "submitted", 1); e.Pending = true; return e }()), Fail, Fail},
		{"no task created", run(failedDeadline, mockvendor.Event{Seq: 1, Time: at(0), Vendor: "d", Op: mockvendor.OpCardFetch}), NotExercised, NotExercised},
		// Gave up early (its own timer) but left the stream for the
		// harness to close: it never stopped following the task, however
		// fast it started (a time from its first request would say either).
		{"stream left for the harness to close", func() *Run {
			r := run(failedDeadline, streamed(1, lifeDeadlineMs-400, "submitted", 1, "working", 2))
			r.SessionClosedAt = at(lifeDeadlineMs - 500)
			return r
		}(), Fail, Fail},
		{"stream closed before the session was", func() *Run {
			r := run(failedDeadline, streamed(1, lifeDeadlineMs-400, "submitted", 1, "working", 2), cancel)
			r.SessionClosedAt = at(lifeDeadlineMs + 50)
			return r
		}(), Pass, Pass},
	}
	for _, c := range cases {
		if v := stop.Judge(c.run); v.Outcome != c.wantStop {
			t.Errorf("%s: LIFE-004.STOP %s (%s), want %s", c.name, v.Outcome, v.Detail, c.wantStop)
		}
		if v := cancelCheck.Judge(c.run); v.Outcome != c.wantCncl {
			t.Errorf("%s: LIFE-004.CANCEL %s (%s), want %s", c.name, v.Outcome, v.Detail, c.wantCncl)
		}
	}
}

// TestCancelAbandonedGoesByTime: G-CANCEL-ABANDONED fails a cancel of a
// task only when a terminal state was shown to the client before the
// cancel arrived. A stream opened before the cancel that delivered the
// canceled status after it (the fleet's answer to the cancel) is no such
// state; nor is a completion the stream would have delivered later.
func TestCancelAbandonedGoesByTime(t *testing.T) {
	cancel := mockvendor.Event{Seq: 2, Time: at(5000), DurationMs: 1, Vendor: "d", Op: mockvendor.OpCancel, TaskID: "t-1", State: "canceled"}
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"stream at working, cancel at the deadline, canceled delivered after", []mockvendor.Event{streamed(1, 5002, "submitted", 1, "working", 2, "canceled", 5002), cancel}, Pass},
		{"stream left at working, then cancel", []mockvendor.Event{streamed(1, 4990, "submitted", 1, "working", 2), cancel}, Pass},
		{"stream delivered completed, then cancel", []mockvendor.Event{streamed(1, 3000, "submitted", 1, "working", 2, "completed", 3000), cancel}, Fail},
		{"get answered completed, then cancel", []mockvendor.Event{{Seq: 1, Time: at(4000), DurationMs: 1, Vendor: "d", Op: mockvendor.OpGet, TaskID: "t-1", State: "completed"}, cancel}, Fail},
		{"get answered completed after the cancel arrived", []mockvendor.Event{{Seq: 1, Time: at(4990), DurationMs: 20, Vendor: "d", Op: mockvendor.OpGet, TaskID: "t-1", State: "completed"}, cancel}, Pass},
	}
	for _, c := range cases {
		if v := judgeCancelAbandoned(&Run{Events: c.events}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestStreamReadToEnd: LIFE-006.STREAM passes a client that read its
// stream to the task's end, and one that left the stream and polled the
// task to its end; it fails one that took the first working status for
// the end (reporting failed, or completed against the wire); a client
// that sent (blocking or returnImmediately) is NOT_APPLICABLE here and a
// run with no task NOT_EXERCISED. LIFE-006.DONE is NOT_APPLICABLE for a
// client that streamed every task.
func TestStreamReadToEnd(t *testing.T) {
	const agent = "https://" + mockvendor.HostRPCD + mockvendor.DefaultRPCPath
	str := func(endMs int, seen ...any) mockvendor.Event {
		e := streamed(2, endMs, seen...)
		e.Host, e.Path, e.Skill = mockvendor.HostRPCD, mockvendor.DefaultRPCPath, "s"
		return e
	}
	full := str(1500, "submitted", 1, "working", 2, "completed", 1500)
	left := str(10, "submitted", 1, "working", 2)
	get := mockvendor.Event{Seq: 3, Time: at(1600), Vendor: "d", Op: mockvendor.OpGet, TaskID: "t-1", State: "completed"}
	plain := mockvendor.Event{Seq: 2, Vendor: "d", Host: mockvendor.HostRPCD, Path: mockvendor.DefaultRPCPath, Op: mockvendor.OpSend, TaskID: "t-1", Skill: "s", State: "completed"}
	outcome := func(word string) *contract.DelegationOutcome {
		return &contract.DelegationOutcome{Outcome: word, Agent: agent, Skill: "s", TaskID: "t-1", TaskState: "working"}
	}
	cases := []struct {
		name       string
		events     []mockvendor.Event
		o          *contract.DelegationOutcome
		want, done Outcome
	}{
		{"read to its end", []mockvendor.Event{full}, outcome(contract.OutcomeCompleted), Pass, NotApplicable},
		{"left at working, then polled to the end", []mockvendor.Event{left, get}, outcome(contract.OutcomeCompleted), Pass, NotApplicable},
		{"first working taken as the end, reported failed", []mockvendor.Event{left}, outcome(contract.OutcomeFailed), Fail, NotApplicable},
		{"first working taken as the end, reported completed", []mockvendor.Event{left}, outcome(contract.OutcomeCompleted), Fail, NotApplicable},
		{"a blocking send", []mockvendor.Event{plain}, outcome(contract.OutcomeCompleted), NotApplicable, NotApplicable},
		{"no task sent", nil, outcome(contract.OutcomeFailed), NotExercised, NotExercised},
	}
	_, stream := Find("LIFE-006.STREAM")
	_, done := Find("LIFE-006.DONE")
	if stream == nil || done == nil {
		t.Fatal("LIFE-006 checks missing")
	}
	for _, c := range cases {
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: c.o, FirstSeq: 1, LastSeq: 9}}}
		if v := stream.Judge(r); v.Outcome != c.want {
			t.Errorf("%s: LIFE-006.STREAM %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
		if v := done.Judge(r); v.Outcome != c.done {
			t.Errorf("%s: LIFE-006.DONE %s (%s), want %s", c.name, v.Outcome, v.Detail, c.done)
		}
	}
}
