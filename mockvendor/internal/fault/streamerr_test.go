package fault

import (
	"cmp"
	"encoding/json"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Unit tests of the faults of streams that answer with errors
// (stream-error-json, stream-unauthorized, subscribe-stall, state-unknown,
// stream-error-event) through the seam; the fleet-level cases, over real
// TLS on loopback, are in the root's fault_*_test.go.

func tStreamCall(op trace.Op, d a2a.Dialect, probe bool) *Call {
	return &Call{Vendor: tSeamVendor{}, Op: op, Dialect: d, Probe: probe, Message: &a2a.Message{Role: "user"}}
}

func TestStreamErrorFaultsOnCall(t *testing.T) {
	tests := []struct {
		name, typ, config string
		call              *Call
		wantErr           *CallError // nil: no error
		check             func(t *testing.T, c *Call)
	}{
		{"stream-error-json answers a stream as plain JSON", "stream-error-json", "", tStreamCall(trace.OpStream, a2a.Dialect10, false),
			&CallError{Code: -32603, Message: "streaming backend unavailable", Reason: "INTERNAL"},
			func(t *testing.T, c *Call) {
				if !c.StreamAsJSON {
					t.Error("StreamAsJSON not set")
				}
			}},
		{"stream-error-json takes its code's spec reason", "stream-error-json", `{"code":-32004,"message":"no"}`, tStreamCall(trace.OpStream, a2a.Dialect03, false),
			&CallError{Code: -32004, Message: "no", Reason: "UNSUPPORTED_OPERATION"}, nil},
		{"stream-error-json passes a plain send", "stream-error-json", "", tStreamCall(trace.OpSend, a2a.Dialect10, false), nil, nil},
		{"stream-error-json passes a probe", "stream-error-json", "", tStreamCall(trace.OpStream, a2a.Dialect10, true), nil, nil},
		{"stream-unauthorized challenges a stream", "stream-unauthorized", "", tStreamCall(trace.OpStream, a2a.Dialect10, false),
			&CallError{Code: -32000, Message: "Unauthenticated: the stream needs a credential", Data: map[string]any{"scheme": "bearer"}, Reason: "UNAUTHENTICATED"},
			func(t *testing.T, c *Call) {
				if c.Challenge != `Bearer realm="stream"` {
					t.Errorf("challenge %q", c.Challenge)
				}
			}},
		{"stream-unauthorized passes a plain send", "stream-unauthorized", "", tStreamCall(trace.OpSend, a2a.Dialect10, false), nil,
			func(t *testing.T, c *Call) {
				if c.Challenge != "" {
					t.Error("a plain send was challenged")
				}
			}},
		{"subscribe-stall holds a subscription for good", "subscribe-stall", "", tStreamCall(trace.OpSubscribe, a2a.Dialect10, false), nil,
			func(t *testing.T, c *Call) {
				if c.FirstFrameDelay != stallForever || len(c.Faults) != 1 {
					t.Errorf("delay %v, faults %v", c.FirstFrameDelay, c.Faults)
				}
			}},
		{"subscribe-stall with a delay", "subscribe-stall", `{"delayMs":250}`, tStreamCall(trace.OpSubscribe, a2a.Dialect03, false), nil,
			func(t *testing.T, c *Call) {
				if c.FirstFrameDelay != 250*time.Millisecond {
					t.Errorf("delay %v", c.FirstFrameDelay)
				}
			}},
		{"subscribe-stall leaves streams alone", "subscribe-stall", "", tStreamCall(trace.OpStream, a2a.Dialect10, false), nil,
			func(t *testing.T, c *Call) {
				if c.FirstFrameDelay != 0 {
					t.Error("a stream was held")
				}
			}},
		{"state-unknown in 1.0", "state-unknown", "", tStreamCall(trace.OpStream, a2a.Dialect10, false), nil,
			func(t *testing.T, c *Call) {
				if c.StreamState != "TASK_STATE_UNSPECIFIED" {
					t.Errorf("state %q", c.StreamState)
				}
			}},
		{"state-unknown in 0.3 says unknown", "state-unknown", "", tStreamCall(trace.OpStream, a2a.Dialect03, false), nil,
			func(t *testing.T, c *Call) {
				if c.StreamState != "unknown" {
					t.Errorf("state %q", c.StreamState)
				}
			}},
		{"state-unknown with a state of its own", "state-unknown", `{"state":"TASK_STATE_PAUSED"}`, tStreamCall(trace.OpStream, a2a.Dialect10, false), nil,
			func(t *testing.T, c *Call) {
				if c.StreamState != "TASK_STATE_PAUSED" {
					t.Errorf("state %q", c.StreamState)
				}
			}},
		{"state-unknown leaves probes alone", "state-unknown", "", tStreamCall(trace.OpStream, a2a.Dialect10, true), nil,
			func(t *testing.T, c *Call) {
				if c.StreamState != "" {
					t.Error("a probe's stream was changed")
				}
			}},
		{"stream-error-event ends a stream", "stream-error-event", "", tStreamCall(trace.OpStream, a2a.Dialect10, false), nil,
			func(t *testing.T, c *Call) {
				e := c.StreamError
				if e == nil || e.Code != -32001 || e.Reason != "TASK_NOT_FOUND" || c.StreamErrorAfter != 2 || c.EndState != "failed" {
					t.Errorf("error %+v after %d, end %q", e, c.StreamErrorAfter, c.EndState)
				}
			}},
		{"stream-error-event passes plain sends by default", "stream-error-event", "", tStreamCall(trace.OpSend, a2a.Dialect10, false), nil, nil},
		{"stream-error-event answers plain sends with sends", "stream-error-event", `{"code":-32050,"reason":"UPSTREAM_TASK_LOST","sends":true}`, tStreamCall(trace.OpSend, a2a.Dialect10, false),
			&CallError{Code: -32050, Message: "task lost", Reason: "UPSTREAM_TASK_LOST"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tNewFault(t, tc.typ, json.RawMessage(cmp.Or(tc.config, "null"))).(CallHook).OnCall(tc.call)
			switch {
			case tc.wantErr == nil && got != nil:
				t.Fatalf("error %+v, want none", got)
			case tc.wantErr != nil && (got == nil || got.Code != tc.wantErr.Code || got.Message != tc.wantErr.Message || got.Reason != tc.wantErr.Reason || len(got.Data) != len(tc.wantErr.Data)):
				t.Fatalf("error %+v, want %+v", got, tc.wantErr)
			}
			if tc.check != nil {
				tc.check(t, tc.call)
			}
		})
	}
}

func TestStreamErrorFaultsRefuseBadConfig(t *testing.T) {
	for _, tc := range []struct{ typ, config string }{
		{"stream-error-json", `{"code":-1}`},
		{"stream-error-event", `{"code":7}`},
		{"stream-error-event", `{"afterEvents":-1}`},
		{"subscribe-stall", `{"delayMs":-5}`},
		{"state-unknown", `{"state":"TASK_STATE_COMPLETED"}`},
		{"state-unknown", `{"state":"working"}`},
		{"stream-unauthorized", `{"realm":"x"}`},
	} {
		if _, err := New(tc.typ, json.RawMessage(tc.config)); err == nil {
			t.Errorf("New(%s, %s) accepted", tc.typ, tc.config)
		}
	}
}
