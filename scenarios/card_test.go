package scenarios

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestCardURLJudgesEachDeclaredInterface: CARD-002.URL holds each call to
// the URL the card declares for the interface it reached [A2A 1.0 §8.3.2
// rule 3], JSON-RPC or HTTP+JSON alike; a call to the card's own host fails.
func TestCardURLJudgesEachDeclaredInterface(t *testing.T) {
	_, c := Find("CARD-002.URL")
	if c == nil {
		t.Fatal("CARD-002.URL is not in the catalog")
	}
	rpc := func(host, path string) mockvendor.Event {
		return mockvendor.Event{Seq: 1, Vendor: "d", Host: host, HTTPMethod: "POST", Path: path, Op: mockvendor.OpSend, Method: "SendMessage"}
	}
	rest := func(method, path string) mockvendor.Event {
		return mockvendor.Event{Seq: 2, Vendor: "d", Host: mockvendor.HostRPCD, HTTPMethod: method, Path: path, Binding: mockvendor.BindingREST, Op: mockvendor.OpSend}
	}
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"JSON-RPC at the declared URL", []mockvendor.Event{rpc(mockvendor.HostRPCD, mockvendor.DefaultRPCPath)}, Pass},
		{"JSON-RPC at the card's host", []mockvendor.Event{rpc(mockvendor.HostCardD, mockvendor.DefaultRPCPath)}, Fail},
		{"HTTP+JSON send below the declared URL", []mockvendor.Event{rest("POST", mockvendor.DefaultRESTPath+"/message:send")}, Pass},
		{"HTTP+JSON send and get", []mockvendor.Event{rest("POST", mockvendor.DefaultRESTPath+"/message:send"), rest("GET", mockvendor.DefaultRESTPath+"/tasks/t-1")}, Pass},
		{"HTTP+JSON send at the JSON-RPC URL", []mockvendor.Event{rest("POST", mockvendor.DefaultRPCPath+"/message:send")}, Fail},
	}
	for _, tc := range cases {
		if v := c.Judge(&Run{Events: tc.events}); v.Outcome != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, v.Outcome, v.Detail, tc.want)
		}
	}
}

// TestVersionHintNeedsA10Request: CARD-005.HINT judges the reported
// cardTrust only where a request to D asked for 1.0; a 0.3 request gets
// 0.3, the honest answer, so the disagreement is not there to see.
func TestVersionHintNeedsA10Request(t *testing.T) {
	_, c := Find("CARD-005.HINT")
	if c == nil {
		t.Fatal("CARD-005.HINT is not in the catalog")
	}
	card := mockvendor.Event{Seq: 1, Vendor: "d", Host: mockvendor.HostCardD, Op: mockvendor.OpCardFetch}
	call := func(version string) mockvendor.Event {
		return mockvendor.Event{Seq: 2, Vendor: "d", Host: mockvendor.HostRPCD, HTTPMethod: "POST", Path: mockvendor.DefaultRPCPath, Op: mockvendor.OpSend,
			Method: "SendMessage", A2AVersion: version, HasA2AVersion: version != ""}
	}
	cases := []struct {
		name   string
		events []mockvendor.Event
		trust  string
		want   Outcome
	}{
		{"1.0 request, hint", []mockvendor.Event{card, call("1.0")}, contract.CardTrustHint, Pass},
		{"1.0 request, authoritative", []mockvendor.Event{card, call("1.0")}, contract.CardTrustAuthoritative, Fail},
		{"0.3 request, authoritative", []mockvendor.Event{card, call("")}, contract.CardTrustAuthoritative, NotApplicable},
		{"no request to D, authoritative", []mockvendor.Event{card}, contract.CardTrustAuthoritative, Fail},
	}
	for _, tc := range cases {
		o := contract.DelegationOutcome{Outcome: contract.OutcomeFailed, CardTrust: tc.trust}
		r := &Run{Events: tc.events, Delegations: []Delegation{{
			Request: contract.DelegationRequest{Candidates: []string{"https://" + mockvendor.HostCardD + "/.well-known/agent-card.json"}},
			Outcome: &o, FirstSeq: 1, LastSeq: 9,
		}}}
		if v := c.Judge(r); v.Outcome != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.name, v.Outcome, v.Detail, tc.want)
		}
	}
}

// TestCompletedViaSeesTheTaskComplete: completedVia (and Contradiction,
// which Run.Corroborate fills CompletedOnWire from) credit a completion of
// the task the send created, at its vendor, seen on any event that showed
// it to the client: the send's own answer, a get after a send that asked
// to return immediately, a frame of its stream, a subscription. A
// completion of another task, or of the same id at another vendor, does
// not count.
func TestCompletedViaSeesTheTaskComplete(t *testing.T) {
	const agent = "https://" + mockvendor.HostRPCD + mockvendor.DefaultRPCPath
	ev := func(seq int64, op mockvendor.Op, method, vendor, id, state string) mockvendor.Event {
		e := mockvendor.Event{Seq: seq, Op: op, Method: method, Vendor: vendor, Host: mockvendor.HostRPCD, Path: mockvendor.DefaultRPCPath, TaskID: id, State: state}
		if op == mockvendor.OpSend || op == mockvendor.OpStream {
			e.Skill = "s"
		}
		return e
	}
	send := func(state string) mockvendor.Event { return ev(1, mockvendor.OpSend, "SendMessage", "d", "t-1", state) }
	get := func(seq int64, id, state string) mockvendor.Event {
		return ev(seq, mockvendor.OpGet, "GetTask", "d", id, state)
	}
	other := ev(2, mockvendor.OpSend, "SendMessage", "d", "t-2", "completed")
	elsewhere := get(3, "t-1", "completed")
	elsewhere.Vendor = "b"
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"the send's answer completed", []mockvendor.Event{send("completed")}, Pass},
		{"returned immediately, then polled to completed", []mockvendor.Event{send("working"), get(2, "t-1", "working"), get(3, "t-1", "completed")}, Pass},
		{"streamed to completed", []mockvendor.Event{ev(1, mockvendor.OpStream, "SendStreamingMessage", "d", "t-1", "completed")}, Pass},
		{"subscribed to completed", []mockvendor.Event{send("working"), ev(2, mockvendor.OpSubscribe, "SubscribeToTask", "d", "t-1", "completed")}, Pass},
		{"polled, never completed", []mockvendor.Event{send("working"), get(2, "t-1", "working")}, Fail},
		{"another task completed", []mockvendor.Event{send("working"), get(3, "t-2", "completed")}, Fail},
		{"the same id completed at another vendor", []mockvendor.Event{send("working"), elsewhere}, Fail},
		{"a get answered with an error", []mockvendor.Event{send("working"), func() mockvendor.Event { e := get(2, "t-1", "completed"); e.ErrorCode = -32001; return e }()}, Fail},
	}
	for _, c := range cases {
		o := contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: agent, Skill: "s", TaskID: "t-1"}
		r := &Run{Events: c.events, Delegations: []Delegation{{Outcome: &o, FirstSeq: 1, LastSeq: 9}}}
		if v := completedVia(r, 0, "d", "s"); v.Outcome != c.want {
			t.Errorf("%s: completedVia %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
		r.Corroborate()
		if got := r.Delegations[0].CompletedOnWire; got != (c.want == Pass) {
			t.Errorf("%s: CompletedOnWire %v (%s), want %v", c.name, got, r.Delegations[0].Contradiction, c.want == Pass)
		}
	}
	// Another task completing beside a working one: the outcome names the
	// working one, so no completion is credited either way.
	o := contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: agent, Skill: "s", TaskID: "t-1"}
	r := &Run{Events: []mockvendor.Event{send("working"), other}, Delegations: []Delegation{{Outcome: &o, FirstSeq: 1, LastSeq: 9}}}
	if v := completedVia(r, 0, "d", "s"); v.Outcome != Fail {
		t.Errorf("another task's completion: completedVia %s (%s), want FAIL", v.Outcome, v.Detail)
	}
}
