package scenarios

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

func TestCatalogIsValid(t *testing.T) {
	if err := Validate(All()); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRejects(t *testing.T) {
	base := func() *Scenario { s := *All()[0]; return &s }
	cases := []struct {
		name string
		mod  func(s *Scenario) []*Scenario
		want string
	}{
		{"duplicate scenario", func(s *Scenario) []*Scenario { return []*Scenario{s, s} }, "duplicate id CARD-001"},
		{"bad id", func(s *Scenario) []*Scenario { s.ID = "card-1"; return []*Scenario{s} }, "is not AREA-NNN"},
		{"bad label", func(s *Scenario) []*Scenario { s.Labels = []string{"a,b"}; return []*Scenario{s} }, "not a legal Ginkgo label"},
		{"no clause", func(s *Scenario) []*Scenario {
			s.Checks = append([]Check(nil), s.Checks...)
			s.Checks[0].Requirement = ""
			return []*Scenario{s}
		}, "has no clause"},
		{"check outside scenario", func(s *Scenario) []*Scenario {
			s.Checks = append([]Check(nil), s.Checks...)
			s.Checks[0].ID = "PROBE-001.X"
			return []*Scenario{s}
		}, "is not under scenario"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(c.mod(base()))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestCatalogCoversTheDesign(t *testing.T) {
	want := []string{
		"CARD-001.REFETCH", "CARD-001.ROUTE", "CARD-001.BOUNDED", "CARD-002.URL", "CARD-002.DONE",
		"CARD-003.NOT-FATAL", "CARD-003.NOT-DEGRADED", "CARD-004.NO-PREVALIDATE", "CARD-005.HINT",
		"CARD-006.INVALIDATE", "CARD-006.RECOVER", "CARD-007.REPROBE", "CARD-008.HINT", "CARD-009.EXPIRY",
		"PROBE-001.NO-COMMIT", "PROBE-001.PROBED", "PROBE-002.CANCEL", "PROBE-002.ONE", "PROBE-003.ROUTE",
		"PROBE-004.REFETCH", "PROBE-004.NO-COMMIT", "PROBE-004.ROUTE", "PROBE-005.NO-COMMIT", "PROBE-005.PROBED",
		"STREAM-001.FALLBACK", "STREAM-002.TIMEOUT", "MODE-001.NO-COERCION",
		"BIND-001.NO-FULL", "BIND-002.FULL", "BIND-003.UNPINNED", "BIND-004.NO-FULL", "BIND-005.NO-FULL",
		"BIND-006.NO-FULL", "BIND-007.NO-FULL", "CARD-010.NO-BORROW", "CARD-010.OWN-SKILL",
		"SIG-001.REJECT", "SIG-002.REJECT", "SIG-003.REFETCH-JWKS", "SIG-004.REJECT",
		"CARD-001.G-JSONRPC", "SIG-004.G-TLS-VERIFIED",
	}
	for _, id := range want {
		if s, c := Find(id); s == nil || c == nil {
			t.Errorf("%s is not in the catalog", id)
		}
	}
	if s, _ := Find("CARD-007"); s == nil || !s.HasLabel("slow") {
		t.Error("CARD-007 must carry the label slow")
	}
}

func TestNoUnknownTaskExemptsLifecycleProbes(t *testing.T) {
	ev := func(seq int64, op mockvendor.Op, id string, probe bool) mockvendor.Event {
		return mockvendor.Event{Seq: seq, Op: op, TaskID: id, Probe: probe}
	}
	cases := []struct {
		name   string
		events []mockvendor.Event
		want   Outcome
	}{
		{"issued task", []mockvendor.Event{ev(1, mockvendor.OpSend, "t-1", false), ev(2, mockvendor.OpGet, "t-1", false)}, Pass},
		{"made-up id", []mockvendor.Event{ev(1, mockvendor.OpGet, "t-9", false)}, Fail},
		{"failed send issues nothing", []mockvendor.Event{{Seq: 1, Op: mockvendor.OpSend, TaskID: "t-1", ErrorCode: -32004}, ev(2, mockvendor.OpCancel, "t-1", false)}, Fail},
		{"marked lifecycle probe", []mockvendor.Event{ev(1, mockvendor.OpGet, "__probe__-1", true)}, Pass},
	}
	for _, c := range cases {
		if v := judgeNoUnknownTask(&Run{Events: c.events}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

func TestJSONRPCJudgesLargeRequestsWithoutTheirBody(t *testing.T) {
	cases := []struct {
		name string
		ev   mockvendor.Event
		want Outcome
	}{
		{"large valid call", mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", RPCID: []byte(`1`)}, Pass},
		{"large call without id", mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage"}, Fail},
		{"large call with array params", mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", RPCID: []byte(`1`), ErrorCode: -32602, ErrorMessage: "Invalid parameters: params must be an object"}, Fail},
		{"kept body, jsonrpc 1.0", mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", RPCID: []byte(`1`), Request: []byte(`{"jsonrpc":"1.0","id":1,"method":"SendMessage"}`)}, Fail},
	}
	for _, c := range cases {
		if v := judgeJSONRPC(&Run{Events: []mockvendor.Event{c.ev}}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestJSONRPCJudgesContentType: a 0.3 call the fleet refused unread for
// its Content-Type (415) fails, A2A 0.3 §7 making application/json a MUST
// of the client, and the detail says why (not that the call had no id,
// which the fleet never read); a 1.0 call refused the same way is not
// failed, A2A 1.0 §9.1 only describing the Content-Type.
func TestJSONRPCJudgesContentType(t *testing.T) {
	for _, c := range []struct {
		name    string
		version string // the A2A-Version header ("" = none: a 0.3 request)
		want    Outcome
	}{
		{"0.3, no header", "", Fail},
		{"0.3 header", "0.3", Fail},
		{"1.0", "1.0", NotExercised},
	} {
		ev := mockvendor.Event{Seq: 1, Op: mockvendor.OpOther, HTTPMethod: "POST", Host: mockvendor.HostRPCD, Path: mockvendor.DefaultRPCPath, Status: 415, ErrorCode: -32005,
			A2AVersion: c.version, HasA2AVersion: c.version != "",
			ErrorMessage: `Content type not supported: Content-Type "text/plain" is not application/json or application/a2a+json`}
		v := judgeJSONRPC(&Run{Events: []mockvendor.Event{ev}})
		if v.Outcome != c.want || c.want == Fail && !strings.Contains(v.Detail, `"text/plain"`) {
			t.Errorf("%s: %s (%s), want %s (a failure naming the Content-Type)", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}

// TestChecksReadBodiesKeptAsText: a body nested deeper than the trace
// keeps as JSON (mockvendor.MaxTracedDepth) is kept as text, and the
// checks that read bodies judge it as they judge one kept as JSON.
func TestChecksReadBodiesKeptAsText(t *testing.T) {
	deep := strings.Repeat("[", 40) + strings.Repeat("]", 40)
	bad := `{"jsonrpc":"1.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","parts":[{"kind":"data","data":` + deep + `}]}}}`
	good := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","taskId":"t-1","parts":[{"text":"x","metadata":{"d":` + deep + `}}]}}}`
	asText := func(body string) mockvendor.Event {
		return mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", Dialect: string(mockvendor.Dialect10), RPCID: []byte(`1`),
			RequestText: body, RequestSize: len(body), RequestNotKept: "nested deeper than 32 levels: kept as text in requestText"}
	}
	for _, c := range []struct {
		name  string
		judge func(*Run) Verdict
		ev    mockvendor.Event
		want  Outcome
	}{
		{"G-JSONRPC, jsonrpc 1.0", judgeJSONRPC, asText(bad), Fail},
		{"G-JSONRPC, valid", judgeJSONRPC, asText(good), Pass},
		{"G-MESSAGE-SHAPE, a 0.3 part", judgeMessageShape, asText(bad), Fail},
		{"G-MESSAGE-SHAPE, valid", judgeMessageShape, asText(good), Pass},
	} {
		if v := c.judge(&Run{Events: []mockvendor.Event{c.ev}}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
	if got := continuedTask(asText(good)); got != "t-1" {
		t.Errorf("continuedTask of a body kept as text = %q, want t-1", got)
	}
}

// TestGlobalsReadGRPCBodies: a gRPC call's traced body is its request
// message as protojson (the params of its JSON-RPC form): G-JSONRPC
// leaves it alone (NOT_APPLICABLE where every call is gRPC or HTTP+JSON:
// a client that speaks no JSON-RPC is not held to it), G-MESSAGE-SHAPE,
// the conversation and tenant readers read it as params.
func TestGlobalsReadGRPCBodies(t *testing.T) {
	call := func(body string) mockvendor.Event {
		return mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", Binding: mockvendor.BindingGRPC, Dialect: string(mockvendor.Dialect10),
			Host: mockvendor.HostRPCD, Path: "/lf.a2a.v1.A2AService/SendMessage", Request: []byte(body)}
	}
	good := call(`{"message":{"role":"ROLE_USER","messageId":"m","taskId":"t-1","contextId":"c-1","parts":[{"text":"hello"}]}}`)
	legacy := call(`{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"kind":"text","text":"x"}]}}`)
	for _, c := range []struct {
		name  string
		judge func(*Run) Verdict
		ev    mockvendor.Event
		want  Outcome
	}{
		{"G-JSONRPC: not JSON-RPC", judgeJSONRPC, good, NotApplicable},
		{"G-MESSAGE-SHAPE, valid", judgeMessageShape, good, Pass},
		{"G-MESSAGE-SHAPE, a 0.3 part", judgeMessageShape, legacy, Fail},
	} {
		if v := c.judge(&Run{Events: []mockvendor.Event{c.ev}}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
	if task, ctx, text, ok := sentMessage(good); !ok || task != "t-1" || ctx != "c-1" || text != "hello" {
		t.Errorf("sentMessage = %q %q %q %v", task, ctx, text, ok)
	}
	withTenant := call(`{"tenant":"acme-eu","message":{}}`)
	withTenant.Tenant = "acme-eu"
	if got, ok := tenantSent(withTenant); !ok || got != "acme-eu" {
		t.Errorf("tenantSent = %q, %v", got, ok)
	}
	if got, ok := tenantSent(good); ok {
		t.Errorf("tenantSent of a call without tenant = %q, %v", got, ok)
	}
}

// TestDeclaredURLOverGRPC: CARD-002.URL takes a gRPC call to the host of
// D's gRPC interface (rpc.agent-d.example:443) as a call to a declared
// interface, and a gRPC call to any other host as none.
func TestDeclaredURLOverGRPC(t *testing.T) {
	at := func(host string) mockvendor.Event {
		return mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", Binding: mockvendor.BindingGRPC, Host: host, Path: "/lf.a2a.v1.A2AService/SendMessage"}
	}
	for _, c := range []struct {
		name string
		ev   mockvendor.Event
		want Outcome
	}{
		{"gRPC at D's gRPC interface", at(mockvendor.HostRPCD), Pass},
		{"gRPC at the card's host", at(mockvendor.HostCardD), Fail},
		{"JSON-RPC at the gRPC method path", mockvendor.Event{Seq: 1, Op: mockvendor.OpSend, Method: "SendMessage", Host: mockvendor.HostRPCD, Path: "/lf.a2a.v1.A2AService/SendMessage"}, Fail},
	} {
		if v := judgeDeclaredURL(&Run{Events: []mockvendor.Event{c.ev}}); v.Outcome != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Outcome, v.Detail, c.want)
		}
	}
}
