package scenarios

import (
	"encoding/json"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// Synthetic runs for IFACE-009, IFACE-010 and AUTH-013, and for the
// existing judges reading gRPC calls: each gRPC check fails a run that
// breaks it, passes one that keeps it, is NOT_EXERCISED where a client
// that speaks gRPC never got there, and NOT_APPLICABLE for a client that
// speaks no gRPC.

// tGRPC is a gRPC call of method (op) at D's host, for skill S, with
// a2a-version 1.0, answered with task id in state (none when id is "").
func tGRPC(host string, op mockvendor.Op, method, id, state string) mockvendor.Event {
	e := mockvendor.Event{Vendor: "d", Host: host, HTTPMethod: "POST", Path: "/lf.a2a.v1.A2AService/" + method, Op: op, Method: method,
		Binding: mockvendor.BindingGRPC, Dialect: "1.0", Skill: skillS, Status: 200, ContentType: "application/grpc",
		A2AVersion: "1.0", HasA2AVersion: true, TaskID: id, State: state}
	if op == mockvendor.OpGet {
		e.Skill = ""
	}
	return e
}

// tWith is e changed by set.
func tWith(e mockvendor.Event, set func(e *mockvendor.Event)) mockvendor.Event {
	set(&e)
	return e
}

// tDoneAt is a completed outcome of task at agent.
func tDoneAt(agent, task string) *contract.DelegationOutcome {
	return &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, Agent: agent, Skill: skillS, TaskID: task}
}

// tSpeaking is r with what the whole run knows the client speaks: 1.0
// over the bindings, as its hello declared.
func tSpeaking(r *Run, bindings ...string) *Run {
	r.Speaks = &Speaks{Versions: []string{V10}, Bindings: bindings, Declared: true}
	return r
}

func TestIfaceGRPCFirst(t *testing.T) {
	card := tCardD()
	grpcSend := tGRPC(hostGRPCOnlyD, mockvendor.OpSend, "SendMessage", "t-1", "completed")
	rpcSend := tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")
	handshake := mockvendor.Event{Vendor: "d", Host: hostGRPCOnlyD, Op: mockvendor.OpTLSFailed, Note: "the client broke off the TLS handshake"}
	failed := tFailed(contract.ReasonOther, nil)
	grpcDone := tDoneAt(grpcOnlyAddrD, "t-1")
	rpcDone := tDone("t-1")
	tStreamCases(t, "IFACE-009.GRPC-FIRST", []tStreamCase{
		{"JSON-RPC first from a client that declares gRPC", tSpeaking(tOne(rpcDone, card, rpcSend), contract.BindingJSONRPC, contract.BindingGRPC), Fail},
		{"JSON-RPC first from a client seen sending gRPC elsewhere", func() *Run {
			r := tOne(rpcDone, card, rpcSend)
			r.Speaks = &Speaks{Versions: []string{V10}, Bindings: []string{contract.BindingGRPC, contract.BindingJSONRPC}}
			return r
		}(), Fail},
		{"gRPC first", tOne(grpcDone, card, grpcSend), Pass},
		{"gRPC first, then JSON-RPC after a refusal", tOne(rpcDone, card, tWith(grpcSend, func(e *mockvendor.Event) { e.ErrorCode, e.TaskID, e.State = -32009, "", "" }), rpcSend), Pass},
		{"the gRPC handshake failed, then JSON-RPC", tSpeaking(tOne(rpcDone, card, handshake, rpcSend), contract.BindingGRPC), Pass},
		{"a client that speaks JSON-RPC only", tSpeaking(tOne(rpcDone, card, rpcSend), contract.BindingJSONRPC), NotApplicable},
		{"a client that declares nothing, JSON-RPC on the wire", tOne(rpcDone, card, rpcSend), NotApplicable},
		{"a client that declares gRPC and never called D", tSpeaking(tOne(failed, card), contract.BindingGRPC), NotExercised},
	})
	tStreamCases(t, "IFACE-009.ADDRESS", []tStreamCase{
		{"gRPC at the card's host", tOne(tDoneAt("https://"+mockvendor.HostCardD, "t-1"), card, tWith(grpcSend, func(e *mockvendor.Event) { e.Host = mockvendor.HostCardD })), Fail},
		{"gRPC at the JSON-RPC host", tOne(tDoneAt("https://"+mockvendor.HostRPCD, "t-1"), card, tWith(grpcSend, func(e *mockvendor.Event) { e.Host = mockvendor.HostRPCD })), Fail},
		{"the right host at another port", tOne(failed, card, mockvendor.Event{Host: hostGRPCOnlyD + ":50051", Op: mockvendor.OpRefused, Note: "proxy target outside the fleet"}), Fail},
		{"gRPC at the declared host:port", tOne(grpcDone, card, grpcSend), Pass},
		{"a client that speaks JSON-RPC only", tSpeaking(tOne(rpcDone, card, rpcSend), contract.BindingJSONRPC), NotApplicable},
		{"a client that declares gRPC and used JSON-RPC", tSpeaking(tOne(rpcDone, card, rpcSend), contract.BindingGRPC), NotExercised},
	})
	tStreamCases(t, "IFACE-009.DONE", []tStreamCase{
		{"completed over gRPC at the card's host", tOne(tDoneAt("https://"+mockvendor.HostCardD, "t-1"), card, tWith(grpcSend, func(e *mockvendor.Event) { e.Host = mockvendor.HostCardD })), Fail},
		{"completed over gRPC at the JSON-RPC host", tOne(tDoneAt("https://"+mockvendor.HostRPCD, "t-1"), card, tWith(grpcSend, func(e *mockvendor.Event) { e.Host = mockvendor.HostRPCD })), Fail},
		{"reported completed at the JSON-RPC URL, ran over gRPC", tOne(rpcDone, card, grpcSend), Fail},
		{"failed", tOne(failed, card, grpcSend), Fail},
		{"completed over gRPC, agent host:port", tOne(grpcDone, card, grpcSend), Pass},
		{"completed over gRPC, agent an https URL", tOne(tDoneAt("https://"+hostGRPCOnlyD, "t-1"), card, grpcSend), Pass},
		{"a JSON-RPC-only client completed over the second entry", tSpeaking(tOne(rpcDone, card, rpcSend), contract.BindingJSONRPC), Pass},
		{"never fetched the card", tOne(failed), NotExercised},
	})
}

func TestBindGRPCVersion(t *testing.T) {
	card := tCardD()
	send := tGRPC(mockvendor.HostRPCD, mockvendor.OpSend, "SendMessage", "t-1", "completed")
	bare := tWith(send, func(e *mockvendor.Event) {
		e.A2AVersion, e.HasA2AVersion, e.ErrorCode, e.TaskID, e.State = "", false, -32009, "", ""
	})
	failed := tFailed(contract.ReasonVersionMismatch, nil)
	done := tDoneAt(grpcTargetD, "t-1")
	tStreamCases(t, "IFACE-010.METADATA", []tStreamCase{
		{"no a2a-version", tOne(failed, card, bare), Fail},
		{"the second call without it", tOne(failed, card, send, tWith(bare, func(e *mockvendor.Event) { e.Op, e.Method = mockvendor.OpGet, "GetTask" })), Fail},
		{"a patch version", tOne(done, card, tWith(send, func(e *mockvendor.Event) { e.A2AVersion = "1.0.1" })), Fail},
		{"a2a-version on every call", tOne(done, card, send), Pass},
		{"a JSON-RPC-only client sent D nothing", tSpeaking(tOne(failed, card), contract.BindingJSONRPC), NotApplicable},
		{"a client that declares gRPC and sent D nothing", tSpeaking(tOne(failed, card), contract.BindingGRPC), NotExercised},
	})
	tStreamCases(t, "IFACE-010.REPORT", []tStreamCase{
		{"refused, reported completed", tOne(tDoneAt(grpcTargetD, ""), card, bare), Fail},
		{"refused, reported interrupted", tOne(&contract.DelegationOutcome{Outcome: contract.OutcomeInterrupted, Agent: grpcTargetD, TaskState: "input-required"}, card, bare), Fail},
		{"refused, reported failed", tOne(failed, card, bare), Pass},
		{"refused, reported rejected with reason other", tOne(tRejected(contract.ReasonOther, "gRPC FAILED_PRECONDITION VERSION_NOT_SUPPORTED"), card, bare), Pass},
		{"refused, sent again with a2a-version and completed", tOne(done, card, bare, send), Pass},
		{"never refused", tOne(done, card, send), NotApplicable},
		{"a JSON-RPC-only client sent D nothing", tSpeaking(tOne(tRejected(contract.ReasonVersionMismatch, ""), card), contract.BindingJSONRPC), NotApplicable},
		{"a client that declares gRPC and sent D nothing", tSpeaking(tOne(failed, card), contract.BindingGRPC), NotExercised},
	})
}

func TestAuthGRPCCredential(t *testing.T) {
	card := tCardD()
	key := mockvendor.Presented{Owner: "d", Via: viaAPIKey}
	send := tWith(tGRPC(mockvendor.HostRPCD, mockvendor.OpSend, "SendMessage", "t-1", "completed"), func(e *mockvendor.Event) { e.Credentials = []mockvendor.Presented{key} })
	get := tWith(tGRPC(mockvendor.HostRPCD, mockvendor.OpGet, "GetTask", "t-1", "completed"), func(e *mockvendor.Event) { e.Credentials = []mockvendor.Presented{key} })
	refused := tWith(send, func(e *mockvendor.Event) {
		e.Credentials, e.Status, e.ErrorCode, e.TaskID, e.State = nil, 401, -32000, "", ""
	})
	bearer := tWith(refused, func(e *mockvendor.Event) { e.Credentials = []mockvendor.Presented{{Owner: "d", Via: viaBearer}} })
	done := tDoneAt(grpcTargetD, "t-1")
	failed := tFailed(contract.ReasonAuthRejected, nil)
	tStreamCases(t, "AUTH-013.ATTACH", []tStreamCase{
		{"no key", tOne(failed, card, refused), Fail},
		{"the key as a bearer token", tOne(failed, card, bearer), Fail},
		{"the key on the send, not the get", tOne(done, card, send, tWith(get, func(e *mockvendor.Event) { e.Credentials = nil })), Fail},
		{"the key on every call", tOne(done, card, send, get), Pass},
		{"a JSON-RPC-only client sent D nothing", tSpeaking(tOne(tRejected(contract.ReasonVersionMismatch, ""), card), contract.BindingJSONRPC), NotApplicable},
		{"a client that declares gRPC and sent D nothing", tSpeaking(tOne(failed, card), contract.BindingGRPC), NotExercised},
	})
	tStreamCases(t, "AUTH-013.DONE", []tStreamCase{
		{"refused", tOne(failed, card, refused), Fail},
		{"completed, agent an https URL", tOne(tDoneAt("https://"+mockvendor.HostRPCD, "t-1"), card, send), Pass},
		{"completed, agent host:port", tOne(done, card, send), Pass},
		{"a JSON-RPC-only client sent D nothing", tSpeaking(tOne(tRejected(contract.ReasonVersionMismatch, ""), card), contract.BindingJSONRPC), NotApplicable},
		{"a client that declares gRPC never fetched the card", tSpeaking(tOne(failed), contract.BindingGRPC), NotExercised},
		{"a client of which nothing is known never fetched the card", tOne(failed), NotExercised},
	})
}

// TestExistingJudgesReadGRPC: the checks that read trace events judge a
// gRPC call as the fleet records it (its metadata as headers, its message
// as protojson JSON, no JSON-RPC envelope, its path the method's) without
// false failures, and still fail what is wrong in it.
func TestExistingJudgesReadGRPC(t *testing.T) {
	card := tCardD()
	msg := func(body string) func(e *mockvendor.Event) {
		return func(e *mockvendor.Event) { e.Request = json.RawMessage(body) }
	}
	send := tWith(tGRPC(mockvendor.HostRPCD, mockvendor.OpSend, "SendMessage", "t-1", "completed"),
		msg(`{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"reconcile INV-1042"}],"metadata":{"skillId":"invoice-reconciliation"}}}`))
	get := tWith(tGRPC(mockvendor.HostRPCD, mockvendor.OpGet, "GetTask", "t-1", "completed"), msg(`{"id":"t-1"}`))
	done := tDoneAt(grpcTargetD, "t-1")
	tStreamCases(t, "CARD-002.G-JSONRPC", []tStreamCase{
		{"gRPC calls only", tOne(done, card, send, get), NotApplicable},
		{"a gRPC call beside an invalid JSON-RPC one", tOne(done, card, send, tWith(tDTask(mockvendor.OpGet, "GetTask", "t-1", "completed"), msg(`{"jsonrpc":"1.0","id":1,"method":"GetTask","params":{"id":"t-1"}}`))), Fail},
	})
	tStreamCases(t, "CARD-002.G-VERSION-HEADER", []tStreamCase{
		{"a gRPC call without a2a-version", tOne(done, card, tWith(send, func(e *mockvendor.Event) { e.A2AVersion, e.HasA2AVersion = "", false })), Fail},
		{"gRPC calls with a2a-version", tOne(done, card, send, get), Pass},
	})
	tStreamCases(t, "CARD-002.G-MESSAGE-SHAPE", []tStreamCase{
		{"a gRPC message without a role (ROLE_UNSPECIFIED: protojson leaves it out)", tOne(done, card, tWith(send, msg(`{"message":{"messageId":"m-1","parts":[{"text":"x"}]}}`))), Fail},
		{"a gRPC message in the 1.0 shape", tOne(done, card, send, get), Pass},
	})
	tStreamCases(t, "CARD-002.URL", []tStreamCase{
		{"gRPC at the card's host", tOne(done, card, tWith(send, func(e *mockvendor.Event) { e.Host = mockvendor.HostCardD })), Fail},
		{"gRPC at the declared host:port", tOne(done, card, send, get), Pass},
	})
	tStreamCases(t, "CARD-002.DONE", []tStreamCase{
		{"completed over gRPC, agent host:port", tOne(done, card, send), Pass},
		{"completed over gRPC, agent an https URL", tOne(tDoneAt("https://"+mockvendor.HostRPCD, "t-1"), card, send), Pass},
		{"agent names another host", tOne(tDoneAt("https://"+hostGRPCOnlyD, "t-1"), card, send), Fail},
	})
	probe := tWith(send, func(e *mockvendor.Event) { e.Probe, e.TaskID, e.State = true, "p-1", "completed" })
	tStreamCases(t, "PROBE-002.ONE", []tStreamCase{
		{"one gRPC probe, then the task", tOne(done, card, probe, send), Pass},
		{"two gRPC probes", tOne(done, card, probe, probe, send), Fail},
	})
	if sp := SpokenIn([]mockvendor.Event{send}); sp.Key() != "1.0|GRPC" {
		t.Errorf("SpokenIn(a gRPC call) = %q, want 1.0|GRPC", sp.Key())
	}
	if taskID, _, text, ok := sentMessage(tWith(send, msg(`{"message":{"taskId":"t-0","parts":[{"text":"yes"}]}}`))); !ok || taskID != "t-0" || text != "yes" {
		t.Errorf("sentMessage(a gRPC send) = %q, %q, %v; want t-0, yes", taskID, text, ok)
	}
	if tn, ok := tenantSent(tWith(send, func(e *mockvendor.Event) { e.Tenant = tenantD })); !ok || tn != tenantD {
		t.Errorf("tenantSent(a gRPC call with a tenant) = %q, %v", tn, ok)
	}
	if _, ok := tenantSent(send); ok {
		t.Error("tenantSent(a gRPC call without a tenant) found one")
	}
}

// TestIfaceUnreachableGRPC: for a gRPC client, IFACE-004's first
// interface it speaks is the gRPC one, whose host offers no h2: a broken
// off handshake there is the failure that leads to the next interface.
func TestIfaceUnreachableGRPC(t *testing.T) {
	card := tCardD()
	broke := mockvendor.Event{Vendor: "d", Host: hostGRPCD, Op: mockvendor.OpTLSFailed, Note: "the client broke off the TLS handshake"}
	down := mockvendor.Event{Vendor: "d", Host: hostDownD, Op: mockvendor.OpConnRefused, Note: "the endpoint refused the connection"}
	send := tDTask(mockvendor.OpSend, "SendMessage", "t-1", "completed")
	tStreamCases(t, "IFACE-004.NEXT-ON-FAIL", []tStreamCase{
		{"gave up after the gRPC interface", tSpeaking(tOne(tFailed(contract.ReasonOther, nil), card, broke), contract.BindingGRPC), Fail},
		{"gRPC, then the dead interface, then the live one", tSpeaking(tOne(tDone("t-1"), card, broke, down, send), contract.BindingGRPC), Pass},
		{"the dead interface, then the live one", tOne(tDone("t-1"), card, down, send), Pass},
		{"tried nothing", tSpeaking(tOne(tFailed(contract.ReasonOther, nil), card), contract.BindingGRPC), NotExercised},
	})
}

// TestIfaceSkipUnspokenGRPC: a gRPC client whose only attempt was a TLS
// handshake at IFACE-004's gRPC host directed nothing but gRPC there (it
// passes); a JSON-RPC request there fails; nothing at all is not exercised.
func TestIfaceSkipUnspokenGRPC(t *testing.T) {
	card := tCardD()
	broke := mockvendor.Event{Vendor: "d", Host: hostGRPCD, Op: mockvendor.OpTLSFailed, Note: "the client broke off the TLS handshake"}
	wrong := mockvendor.Event{Vendor: "d", Host: hostGRPCD, Op: mockvendor.OpSend, HTTPMethod: "POST", Path: "/", Method: "SendMessage", Status: 404}
	tStreamCases(t, "IFACE-004.SKIP-UNSPOKEN", []tStreamCase{
		{"a gRPC handshake only", tSpeaking(tOne(tFailed(contract.ReasonOther, nil), card, broke), contract.BindingGRPC), Pass},
		{"JSON-RPC at the gRPC host", tSpeaking(tOne(tFailed(contract.ReasonOther, nil), card, wrong), contract.BindingGRPC), Fail},
		{"tried nothing", tSpeaking(tOne(tFailed(contract.ReasonOther, nil), card), contract.BindingGRPC), NotExercised},
	})
}

// TestHostPathAuthority: a gRPC url (host:port) names its host as the
// trace does; https URLs are read as before.
func TestHostPathAuthority(t *testing.T) {
	cases := []struct{ raw, host, path string }{
		{"rpc.agent-d.example:443", "rpc.agent-d.example", ""},
		{"rpc.agent-d.example", "rpc.agent-d.example", ""},
		{"127.0.0.1:8443", "127.0.0.1:8443", ""},
		{"https://rpc.agent-d.example:443/a2a/v1", "rpc.agent-d.example", "/a2a/v1"},
		{"https://127.0.0.1:8443/a2a", "127.0.0.1:8443", "/a2a"},
		{"not a url/at all", "", ""},
	}
	for _, c := range cases {
		if h, p := hostPath(c.raw); h != c.host || p != c.path {
			t.Errorf("hostPath(%q) = %q, %q; want %q, %q", c.raw, h, p, c.host, c.path)
		}
	}
}
