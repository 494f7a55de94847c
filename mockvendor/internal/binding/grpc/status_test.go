package grpc

import (
	"net/http"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// TestCode: A2A 1.0.1 §5.4's gRPC column for every A2A error, and the
// fleet's choices for the JSON-RPC codes and HTTP statuses.
func TestCode(t *testing.T) {
	for _, c := range []struct {
		code, http int
		want       codes.Code
	}{
		{-32001, 200, codes.NotFound},
		{-32002, 200, codes.FailedPrecondition},
		{-32003, 200, codes.FailedPrecondition},
		{-32004, 200, codes.FailedPrecondition},
		{-32005, 200, codes.InvalidArgument},
		{-32006, 200, codes.Internal},
		{-32007, 200, codes.FailedPrecondition},
		{-32008, 200, codes.FailedPrecondition},
		{-32009, 200, codes.FailedPrecondition},
		{-32700, 200, codes.InvalidArgument},
		{-32600, 200, codes.InvalidArgument},
		{-32602, 200, codes.InvalidArgument},
		{-32601, 200, codes.Unimplemented},
		{-32603, 200, codes.Internal},
		{-32050, 200, codes.Internal},
		{-32000, 200, codes.Internal},
		{-32000, http.StatusUnauthorized, codes.Unauthenticated},
		{-32600, http.StatusRequestEntityTooLarge, codes.ResourceExhausted},
		{-32603, http.StatusBadGateway, codes.Unavailable},     // a proxied agent unreachable
		{-32603, http.StatusGatewayTimeout, codes.Unavailable}, // or too slow: as Envoy answers
		{42, 200, codes.Unknown},
	} {
		if got := Code(c.code, c.http); got != c.want {
			t.Errorf("Code(%d, %d) = %v, want %v", c.code, c.http, got, c.want)
		}
	}
}

// TestStatusDetails: an A2A error carries the spec's ErrorInfo first
// (reason of its type, a2a-protocol.org, the data as metadata); a vendor
// reason follows under the vendor's domain; a JSON-RPC error carries its
// own reason.
func TestStatusDetails(t *testing.T) {
	gate := &a2a.Error{Code: -32004, Message: "gated", Reason: "SKILL_NOT_AVAILABLE", Data: map[string]any{"region": "eu", "availableSkills": []string{"a", "b"}}}
	for _, c := range []struct {
		e    *a2a.Error
		want [][2]string
	}{
		{a2a.TaskNotFound("t1"), [][2]string{{"TASK_NOT_FOUND", a2a.SpecDomain}}},
		{gate, [][2]string{{"UNSUPPORTED_OPERATION", a2a.SpecDomain}, {"SKILL_NOT_AVAILABLE", "agent-x.example"}}},
		{a2a.InvalidParams("x"), [][2]string{{"INVALID_PARAMS", a2a.SpecDomain}}},
		{&a2a.Error{Code: -32050, Message: "boom"}, nil},
	} {
		st := Status(c.e, 200, "agent-x.example")
		var got [][2]string
		for _, d := range st.Details() {
			info := d.(*errdetails.ErrorInfo)
			got = append(got, [2]string{info.GetReason(), info.GetDomain()})
			if len(c.e.Data) > 0 && len(info.GetMetadata()) != len(c.e.Data) {
				t.Errorf("%d: metadata %v, want the data %v", c.e.Code, info.GetMetadata(), c.e.Data)
			}
		}
		if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] || len(got) > 1 && got[1] != c.want[1] {
			t.Errorf("%d: details %v, want %v", c.e.Code, got, c.want)
		}
		if st.Message() != c.e.Message {
			t.Errorf("%d: message %q", c.e.Code, st.Message())
		}
	}
	if md := Status(gate, 200, "x").Details()[0].(*errdetails.ErrorInfo).GetMetadata(); md["availableSkills"] != "a,b" {
		t.Errorf("metadata %v: lists are comma-joined", md)
	}
}
