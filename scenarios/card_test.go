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
