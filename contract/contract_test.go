package contract_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

// The example request of driver-contract.md, without its annotations.
const exampleRequest = `{
  "contract": 1,
  "type": "delegate",
  "id": "d-7f3a",
  "scenario": "stale-cdn-card",
  "task": {
    "skill": "invoice-reconciliation",
    "message": { "role": "user", "messageId": "m-1",
                 "parts": [ { "kind": "text", "text": "reconcile INV-1042" } ] },
    "preferStreaming": false
  },
  "candidates": [
    "https://agent-b.example/.well-known/agent-card.json",
    "https://agent-c.example/.well-known/agent-card.json"
  ],
  "trust": {
    "caFile": "/abs/path/ca.pem",
    "issuers": {
      "https://agent.vendor-a.example": { "operators": ["agent.vendor-a.example"] }
    }
  },
  "network": {
    "proxy": "http://127.0.0.1:41233",
    "resolve": { "agent-b.example:443": "127.0.0.1:41801" }
  },
  "deadlineMs": 20000,
  "someFutureField": {"x": 1}
}`

const exampleOutcome = `{
  "contract": 1,
  "id": "d-7f3a",
  "outcome": "completed",
  "agent": "https://rpc.agent-b.example/a2a/v1",
  "skill": "invoice-reconciliation-v2",
  "taskId": "t-91",
  "taskState": "completed",
  "cardTrust": "hint",
  "trustMode": "reduced",
  "reason": "signer-endpoint-mismatch",
  "detail": "free text for humans"
}`

func TestRequestRoundTrip(t *testing.T) {
	var req contract.DelegationRequest
	if err := json.Unmarshal([]byte(exampleRequest), &req); err != nil {
		t.Fatal(err)
	}
	want := contract.DelegationRequest{
		Contract: 1, Type: "delegate", ID: "d-7f3a", Scenario: "stale-cdn-card",
		Task: contract.Task{Skill: "invoice-reconciliation"},
		Candidates: []string{
			"https://agent-b.example/.well-known/agent-card.json",
			"https://agent-c.example/.well-known/agent-card.json",
		},
		Trust: contract.Trust{CAFile: "/abs/path/ca.pem", Issuers: map[string]contract.Issuer{
			"https://agent.vendor-a.example": {Operators: []string{"agent.vendor-a.example"}},
		}},
		Network: contract.Network{Proxy: "http://127.0.0.1:41233",
			Resolve: map[string]string{"agent-b.example:443": "127.0.0.1:41801"}},
		DeadlineMs: 20000,
	}
	msg := req.Task.Message
	req.Task.Message = nil
	if !reflect.DeepEqual(req, want) {
		t.Fatalf("decoded\n%+v\nwant\n%+v", req, want)
	}
	// The message survives as raw JSON, whatever its dialect.
	var m map[string]any
	if err := json.Unmarshal(msg, &m); err != nil || m["messageId"] != "m-1" {
		t.Fatalf("message not kept raw: %s (%v)", msg, err)
	}

	// Encoding gives one line that decodes back to the same value, with the
	// contract's field names.
	req.Task.Message = msg
	line, err := contract.MarshalLine(req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(line), "\n") != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("not one line: %q", line)
	}
	for _, key := range []string{`"contract":1`, `"type":"delegate"`, `"preferStreaming":false`,
		`"caFile":`, `"deadlineMs":20000`, `"resolve":`, `"operators":`, `"candidates":`} {
		if !strings.Contains(string(line), key) {
			t.Errorf("encoded request lacks %s: %s", key, line)
		}
	}
	var back contract.DelegationRequest
	if err := json.Unmarshal(line, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Trust, req.Trust) || back.Task.Skill != req.Task.Skill {
		t.Fatalf("round trip changed the request: %+v", back)
	}
}

func TestOutcomeRoundTrip(t *testing.T) {
	var o contract.DelegationOutcome
	if err := json.Unmarshal([]byte(exampleOutcome), &o); err != nil {
		t.Fatal(err)
	}
	want := contract.DelegationOutcome{Contract: 1, ID: "d-7f3a", Outcome: contract.OutcomeCompleted,
		Agent: "https://rpc.agent-b.example/a2a/v1", Skill: "invoice-reconciliation-v2",
		TaskID: "t-91", TaskState: "completed", CardTrust: contract.CardTrustHint,
		TrustMode: contract.TrustModeReduced, Reason: contract.ReasonSignerEndpointMismatch,
		Detail: "free text for humans"}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("decoded %+v, want %+v", o, want)
	}
	if err := o.Validate("d-7f3a"); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	// Optional fields are omitted when empty.
	b, _ := json.Marshal(contract.DelegationOutcome{Contract: 1, ID: "x", Outcome: "failed"})
	if got := string(b); got != `{"contract":1,"id":"x","outcome":"failed"}` {
		t.Fatalf("minimal outcome encodes as %s", got)
	}
}

func TestValidate(t *testing.T) {
	ok := contract.DelegationOutcome{Contract: 1, ID: "r1", Outcome: "completed", Reason: "ok"}
	tests := []struct {
		name    string
		edit    func(*contract.DelegationOutcome)
		fatal   string // substring of a fatal error; "" when not fatal
		flagged bool   // matches ErrUnknownWord
	}{
		{name: "valid", edit: func(*contract.DelegationOutcome) {}},
		{name: "no reason", edit: func(o *contract.DelegationOutcome) { o.Reason = "" }},
		{name: "unimplemented", edit: func(o *contract.DelegationOutcome) { o.Outcome = "unimplemented" }},
		{name: "every outcome word", edit: func(o *contract.DelegationOutcome) { o.Outcome = "escalated" }},
		{name: "contract 0", edit: func(o *contract.DelegationOutcome) { o.Contract = 0 }, fatal: "contract 0"},
		{name: "contract 2", edit: func(o *contract.DelegationOutcome) { o.Contract = 2 }, fatal: "contract 2"},
		{name: "wrong id", edit: func(o *contract.DelegationOutcome) { o.ID = "r2" }, fatal: `id "r2"`},
		{name: "unknown outcome", edit: func(o *contract.DelegationOutcome) { o.Outcome = "done" }, fatal: "unknown outcome"},
		{name: "empty outcome", edit: func(o *contract.DelegationOutcome) { o.Outcome = "" }, fatal: "unknown outcome"},
		{name: "unknown reason", edit: func(o *contract.DelegationOutcome) { o.Reason = "cosmic-rays" }, flagged: true},
		{name: "unknown trust words", edit: func(o *contract.DelegationOutcome) {
			o.CardTrust, o.TrustMode = "gospel", "yolo"
		}, flagged: true},
		{name: "interrupted", edit: func(o *contract.DelegationOutcome) {
			o.Outcome, o.TaskID, o.TaskState = "interrupted", "t-1", "input-required"
		}},
		{name: "interrupted, 1.0 spelling", edit: func(o *contract.DelegationOutcome) {
			o.Outcome, o.TaskID, o.TaskState = "interrupted", "t-1", "TASK_STATE_AUTH_REQUIRED"
		}},
		{name: "interrupted without state", edit: func(o *contract.DelegationOutcome) {
			o.Outcome, o.TaskID = "interrupted", "t-1"
		}, fatal: "needs the interrupted state"},
		{name: "interrupted at a terminal state", edit: func(o *contract.DelegationOutcome) {
			o.Outcome, o.TaskID, o.TaskState = "interrupted", "t-1", "failed"
		}, fatal: "needs the interrupted state"},
		{name: "interrupted without task", edit: func(o *contract.DelegationOutcome) {
			o.Outcome, o.TaskState = "interrupted", "auth-required"
		}, fatal: "without taskId"},
		{name: "fatal wins over flag", edit: func(o *contract.DelegationOutcome) {
			o.ID, o.Reason = "zz", "cosmic-rays"
		}, fatal: "want \"r1\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.edit(&o)
			err := o.Validate("r1")
			switch {
			case tc.fatal != "":
				if err == nil || errors.Is(err, contract.ErrUnknownWord) || !strings.Contains(err.Error(), tc.fatal) {
					t.Fatalf("err = %v, want fatal containing %q", err, tc.fatal)
				}
			case tc.flagged:
				if !errors.Is(err, contract.ErrUnknownWord) {
					t.Fatalf("err = %v, want a flag matching ErrUnknownWord", err)
				}
				var uw *contract.UnknownWordError
				if !errors.As(err, &uw) || uw.Word == "" {
					t.Fatalf("err = %v does not expose the word", err)
				}
			default:
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
			}
		})
	}
	var nilOutcome *contract.DelegationOutcome
	if nilOutcome.Validate("x") == nil {
		t.Fatal("nil outcome validated")
	}
}

func TestVocabulary(t *testing.T) {
	for _, w := range []string{"ok", "stale-card", "skill-unavailable", "endpoint-not-a2a",
		"signer-endpoint-mismatch", "signature-invalid", "key-unknown", "key-ambiguous", "key-expired",
		"unsigned-card", "tls-san-mismatch", "version-mismatch", "input-mode-mismatch",
		"stream-timeout", "deadline", "other", "extension-unsupported", "invalid-card"} {
		if !contract.KnownReason(w) {
			t.Errorf("reason %q unknown", w)
		}
	}
	for _, w := range []string{"completed", "rejected", "failed", "escalated", "unimplemented", "interrupted"} {
		if !contract.KnownOutcome(w) {
			t.Errorf("outcome %q unknown", w)
		}
	}
	if contract.KnownReason("OK") || contract.KnownOutcome("Completed") {
		t.Error("words are case-sensitive")
	}
}

func TestControlMessages(t *testing.T) {
	b, _ := json.Marshal(contract.NewHello())
	if string(b) != `{"contract":1,"type":"hello"}` {
		t.Errorf("hello request = %s", b)
	}
	b, _ = json.Marshal(contract.NewReset())
	if string(b) != `{"contract":1,"type":"reset"}` {
		t.Errorf("reset request = %s", b)
	}
	var h contract.Hello
	if err := json.Unmarshal([]byte(`{"contract":1,"type":"hello","name":"my-orchestrator","version":"1.4.2"}`), &h); err != nil ||
		h.Name != "my-orchestrator" || h.Version != "1.4.2" {
		t.Errorf("hello answer = %+v (%v)", h, err)
	}
	var r contract.Reset
	if err := json.Unmarshal([]byte(`{"contract":1,"type":"reset","ok":true}`), &r); err != nil || !r.OK {
		t.Errorf("reset answer = %+v (%v)", r, err)
	}
}

// TestHelloSpeaks: a hello answer may declare the A2A versions and
// bindings the OUT speaks; both are optional, and CheckSpeaks names the
// entries that are neither Major.Minor versions nor known bindings.
func TestHelloSpeaks(t *testing.T) {
	cases := []struct {
		name, answer string
		versions     []string
		bindings     []string
		bad          []string // words CheckSpeaks reports
	}{
		{"not declared", `{"contract":1,"type":"hello","name":"x"}`, nil, nil, nil},
		{"both", `{"contract":1,"type":"hello","protocolVersions":["0.3","1.0"],"bindings":["JSONRPC","HTTP+JSON","GRPC"]}`,
			[]string{"0.3", "1.0"}, []string{"JSONRPC", "HTTP+JSON", "GRPC"}, nil},
		{"versions only", `{"contract":1,"type":"hello","protocolVersions":["1.0"]}`, []string{"1.0"}, nil, nil},
		{"unknown words", `{"contract":1,"type":"hello","protocolVersions":["v1","1.0.0"],"bindings":["jsonrpc","REST"]}`,
			[]string{"v1", "1.0.0"}, []string{"jsonrpc", "REST"}, []string{"v1", "1.0.0", "jsonrpc", "REST"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var h contract.Hello
			if err := json.Unmarshal([]byte(c.answer), &h); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(h.ProtocolVersions, c.versions) || !slices.Equal(h.Bindings, c.bindings) {
				t.Errorf("versions %q bindings %q, want %q %q", h.ProtocolVersions, h.Bindings, c.versions, c.bindings)
			}
			err := h.CheckSpeaks()
			if (err != nil) != (len(c.bad) > 0) || (err != nil && !errors.Is(err, contract.ErrUnknownWord)) {
				t.Fatalf("CheckSpeaks = %v, want unknown words %q", err, c.bad)
			}
			for _, w := range c.bad {
				if !strings.Contains(err.Error(), strconv.Quote(w)) {
					t.Errorf("CheckSpeaks = %v, does not name %q", err, w)
				}
			}
		})
	}
	long := make([]string, contract.MaxHelloListEntries+5)
	for i := range long {
		long[i] = "1.0"
	}
	h := contract.Hello{ProtocolVersions: long, Bindings: long}
	h.Clip()
	if len(h.ProtocolVersions) != contract.MaxHelloListEntries || len(h.Bindings) != contract.MaxHelloListEntries {
		t.Errorf("Clip kept %d versions and %d bindings, want %d", len(h.ProtocolVersions), len(h.Bindings), contract.MaxHelloListEntries)
	}
}

func TestTrustCredentials(t *testing.T) {
	ok := contract.Credential{Scheme: contract.CredentialSchemeBearer, Value: "tok"}
	cases := []struct {
		name  string
		creds map[string]contract.Credential
		want  string // "" = valid
	}{
		{"none", nil, ""},
		{"bearer and api key", map[string]contract.Credential{
			"https://rpc.agent-d.example":    ok,
			"https://127.0.0.1:8443":         {Scheme: contract.CredentialSchemeAPIKey, Value: "k"},
			"https://agent.vendor-a.example": ok,
		}, ""},
		{"http origin", map[string]contract.Credential{"http://a.example": ok}, "not an https origin"},
		{"a path", map[string]contract.Credential{"https://a.example/a2a": ok}, "no user info, path"},
		{"trailing slash", map[string]contract.Credential{"https://a.example/": ok}, "no user info, path"},
		{"port 443", map[string]contract.Credential{"https://a.example:443": ok}, "port 443 is implied"},
		{"upper case", map[string]contract.Credential{"https://A.example": ok}, "lower case"},
		{"no host", map[string]contract.Credential{"https://": ok}, "no host"},
		{"unknown scheme", map[string]contract.Credential{"https://a.example": {Scheme: "basic", Value: "x"}}, `scheme "basic"`},
		{"empty value", map[string]contract.Credential{"https://a.example": {Scheme: "bearer"}}, "value is empty"},
		{"header injection", map[string]contract.Credential{"https://a.example": {Scheme: "bearer", Value: "x\r\nX-Evil: 1"}}, "control character"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := contract.Trust{Credentials: c.creds}.Validate()
			if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate = %v, want %q", err, c.want)
			}
		})
	}
	// The wire form round-trips, and an old reader ignores it.
	b, err := json.Marshal(contract.Trust{Credentials: map[string]contract.Credential{"https://a.example": ok}})
	if err != nil || string(b) != `{"caFile":"","credentials":{"https://a.example":{"scheme":"bearer","value":"tok"}}}` {
		t.Fatalf("%s %v", b, err)
	}
}

func TestOriginOf(t *testing.T) {
	cases := map[string]string{
		"https://rpc.agent-d.example/a2a/v1":     "https://rpc.agent-d.example",
		"https://RPC.agent-d.example:443/a2a":    "https://rpc.agent-d.example",
		"https://127.0.0.1:8443/a2a":             "https://127.0.0.1:8443",
		"http://rpc.agent-d.example/a2a":         "",
		"not a url":                              "",
		"https://gateway.vendor-b.example?x=1#f": "https://gateway.vendor-b.example",
	}
	for in, want := range cases {
		if got := contract.OriginOf(in); got != want {
			t.Errorf("OriginOf(%q) = %q, want %q", in, got, want)
		}
	}
}
