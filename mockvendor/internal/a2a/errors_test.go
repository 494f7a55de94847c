package a2a

import (
	"reflect"
	"testing"
)

// TestErrorDomain: a reason the spec defines is filed under the spec's
// domain, a vendor's own reason under the vendor's, never the spec's.
func TestErrorDomain(t *testing.T) {
	for _, tc := range []struct {
		e    *Error
		want string
	}{
		{&Error{Code: CodeUnsupported, Reason: "SKILL_NOT_AVAILABLE"}, "agent-q.example"},
		{&Error{Reason: "TASK_NOT_FOUND"}, SpecDomain},
		{InvalidParams("x"), SpecDomain},
		{&Error{Code: CodeUnauthenticated, Reason: "UNAUTHENTICATED"}, "agent-q.example"},
	} {
		if got := tc.e.Domain("agent-q.example"); got != tc.want {
			t.Errorf("%s: domain %s, want %s", tc.e.Reason, got, tc.want)
		}
	}
}

// TestDetails: an ErrorInfo with the data flattened as metadata, then the
// vendor data object; an error without data has the ErrorInfo only.
func TestDetails(t *testing.T) {
	e := SkillNotServed("fx", "eu", []string{"a", "b"})
	got := e.Details("UNSUPPORTED_OPERATION", SpecDomain)
	want := []any{
		map[string]any{"@type": ErrorInfoType, "reason": "UNSUPPORTED_OPERATION", "domain": SpecDomain,
			"metadata": map[string]string{"skillId": "fx", "availableSkills": "a,b", "region": "eu"}},
		map[string]any{"@type": VendorDataType, "skillId": "fx", "availableSkills": []string{"a", "b"}, "region": "eu"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("details %v, want %v", got, want)
	}
	if got := PushNotSupported().Details("X", "d"); len(got) != 1 {
		t.Errorf("details of an error without data %v, want the ErrorInfo only", got)
	}
	if r, ok := CodeReason(CodeTaskNotFound); !ok || r != "TASK_NOT_FOUND" {
		t.Errorf("CodeReason(-32001) = %q %v", r, ok)
	}
	if _, ok := CodeReason(CodeInvalidParams); ok {
		t.Error("CodeReason(-32602) found a spec reason for a JSON-RPC code")
	}
}
