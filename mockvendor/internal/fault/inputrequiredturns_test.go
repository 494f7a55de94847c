package fault

import (
	"encoding/json"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// TestInputRequiredTurnsConfig: the config is read and checked as the
// registry reads it.
func TestInputRequiredTurnsConfig(t *testing.T) {
	cases := []struct {
		config string
		ok     bool
	}{
		{`{}`, true},
		{`{"turns":3,"question":"Which?"}`, true},
		{`{"endsMeanwhile":"canceled"}`, true},
		{`{"endsMeanwhile":"TASK_STATE_FAILED"}`, true},
		{`{"turns":-1}`, false},
		{`{"endsMeanwhile":"completed"}`, false},
		{`{"endsMeanwhile":"input-required"}`, false},
		{`{"asks":2}`, false},
	}
	for _, tc := range cases {
		_, err := New("input-required-turns", json.RawMessage(tc.config))
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok %v", tc.config, err, tc.ok)
		}
	}
}

// TestInputRequiredTurnsOnCall: a real send or stream that starts a task
// gets the turns (at least one), the question (a default for none) and
// the end; probes, continuations and other operations are left alone.
func TestInputRequiredTurnsOnCall(t *testing.T) {
	cases := []struct {
		name string
		f    InputRequiredTurns
		call Call
		asks int
		q    string
		end  string
	}{
		{"send, zero config", InputRequiredTurns{}, Call{Op: trace.OpSend, Message: &a2a.Message{}}, 1, DefaultQuestion, ""},
		{"stream, two turns", InputRequiredTurns{Turns: 2, Question: "Which?"}, Call{Op: trace.OpStream, Message: &a2a.Message{}}, 2, "Which?", ""},
		{"ends meanwhile", InputRequiredTurns{EndsMeanwhile: "TASK_STATE_CANCELED"}, Call{Op: trace.OpSend, Message: &a2a.Message{}}, 1, DefaultQuestion, "canceled"},
		{"probe", InputRequiredTurns{}, Call{Op: trace.OpSend, Probe: true, Message: &a2a.Message{}}, 0, "", ""},
		{"continuation", InputRequiredTurns{}, Call{Op: trace.OpSend, Message: &a2a.Message{TaskID: "t-1"}}, 0, "", ""},
		{"get", InputRequiredTurns{}, Call{Op: trace.OpGet}, 0, "", ""},
	}
	for _, tc := range cases {
		c := tc.call
		if err := tc.f.OnCall(&c); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if c.Asks != tc.asks || c.Question != tc.q || c.EndsMeanwhile != tc.end || (tc.asks > 0) != (len(c.Faults) == 1) {
			t.Errorf("%s: asks %d question %q end %q faults %v; want %d %q %q", tc.name, c.Asks, c.Question, c.EndsMeanwhile, c.Faults, tc.asks, tc.q, tc.end)
		}
	}
}
