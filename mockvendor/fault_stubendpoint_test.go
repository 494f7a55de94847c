package mockvendor

import (
	"reflect"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

func init() {
	tAddFaultCase("stub-endpoint", tFaultStubEndpoint)
}

// tFaultStubEndpoint is the stub-endpoint case of TestFaults.
func tFaultStubEndpoint(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("stub-endpoint", nil))
	calls := []struct{ version, method string }{
		{"", "tasks/send"}, {"0.3", "message/send"}, {"0.3", "message/stream"}, {"1.0", "SendMessage"},
		{"0.3", "tasks/get"}, {"1.0", "GetTask"}, {"0.3", "tasks/cancel"}, {"1.0", "CancelTask"}, {"0.3", "no/such"},
	}
	for _, c := range calls {
		var params any = map[string]any{"id": "t-1"}
		if strings.Contains(c.method, "send") || strings.Contains(c.method, "Send") || strings.Contains(c.method, "stream") {
			params = tSendParams(tDialectForMethod(c.method), ProbeText, "")
		}
		r := tRPC(t, e.c, e.rpc, c.version, c.method, params)
		tWantCode(t, c.method, r, -32601)
		wantCT := "application/json"
		if c.method == "message/stream" {
			wantCT = "text/event-stream" // the error is the stream's one event
		}
		if r.Header.Get("Content-Type") != wantCT {
			t.Errorf("%s: content type %q, want %q", c.method, r.Header.Get("Content-Type"), wantCT)
		}
	}
	if r := tGet(t, e.c, "https://"+tHostX+CardPath, nil); r.Status != 200 {
		t.Errorf("the stub's card is not served: %d", r.Status)
	}
	// The lifecycle probe (a get of a marked synthetic id) is still
	// recorded as a probe of that id [seed 000, Condition of Validity].
	for _, d := range tDialects[1:] {
		seq := e.f.Trace().Seq()
		tWantCode(t, d.Get+" probe", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": ProbeText + "-lifecycle"}), -32601)
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpGet })
		if !ev.Probe || ev.TaskID != ProbeText+"-lifecycle" {
			t.Errorf("%s probe recorded as probe %v, task %q", d.Get, ev.Probe, ev.TaskID)
		}
	}
	e.remove(t, id)

	// code -32602: every method, the probe too, is answered invalid params.
	e.add(t, "x", Spec("stub-endpoint", StubEndpoint{Code: -32602}))
	tWantCode(t, "0.3 probe", e.send(t, Dialect03, ProbeText, ""), -32602)
	tWantCode(t, "1.0 send", e.send(t, Dialect10, "x", ""), -32602)
	tWantCode(t, "1.0 get", tRPC(t, e.c, e.rpc, "1.0", "GetTask", map[string]any{"id": "t-1"}), -32602)
}

// TestStubEndpointErrorsAsHonest: the stub's errors are the vendor's own
// -32601 and -32602 (internal/a2a's constructors).
func TestStubEndpointErrorsAsHonest(t *testing.T) {
	c := &Call{Method: "message/send"}
	for _, tc := range []struct {
		stub StubEndpoint
		want *RPCError
	}{
		{StubEndpoint{}, a2a.MethodNotFound(c.Method)},
		{StubEndpoint{Code: -32602}, a2a.InvalidParams("the endpoint takes no parameters for " + c.Method)},
	} {
		got := tc.stub.OnCall(c)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v answers %+v, want %+v", tc.stub, got, tc.want)
		}
	}
}
