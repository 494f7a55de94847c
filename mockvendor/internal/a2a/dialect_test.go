package a2a

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeMessage: each dialect reads its own message shapes and
// refuses the others' with an error naming the member.
func TestDecodeMessage(t *testing.T) {
	cases := []struct {
		name string
		d    Dialect
		raw  string
		want *Message // nil: an error containing err
		err  string
	}{
		{"0.1 text", Dialect01, `{"role":"user","parts":[{"type":"text","text":"hi"}]}`,
			&Message{Role: "user", Parts: []Part{{Kind: "text", Text: "hi"}}}, ""},
		{"0.3 text and data", Dialect03, `{"kind":"message","role":"agent","messageId":"m","contextId":"c","taskId":"t","parts":[{"kind":"text","text":"hi"},{"kind":"data","data":{"a":1}}]}`,
			&Message{Role: "agent", MessageID: "m", ContextID: "c", TaskID: "t", Parts: []Part{{Kind: "text", Text: "hi"}, {Kind: "data", Data: json.RawMessage(`{"a":1}`)}}}, ""},
		{"1.0 text and url", Dialect10, `{"role":"ROLE_USER","messageId":"m","parts":[{"text":"hi"},{"url":"https://x/f","mediaType":"text/plain"}]}`,
			&Message{Role: "user", MessageID: "m", Parts: []Part{{Kind: "text", Text: "hi"}, {Kind: "file", File: json.RawMessage(`{"url":"https://x/f"}`), MediaType: "text/plain"}}}, ""},
		{"null", Dialect03, `null`, nil, "params.message is required"},
		{"no parts", Dialect03, `{"role":"user","messageId":"m","parts":[]}`, nil, "at least one part"},
		{"0.3 without messageId", Dialect03, `{"role":"user","parts":[{"kind":"text","text":"x"}]}`, nil, "messageId is required"},
		{"1.0 with a 0.3 role", Dialect10, `{"role":"user","messageId":"m","parts":[{"text":"x"}]}`, nil, `role "user"`},
		{"0.3 with a 1.0 role", Dialect03, `{"role":"ROLE_USER","messageId":"m","parts":[{"kind":"text","text":"x"}]}`, nil, `role "ROLE_USER"`},
		{"1.0 with kind", Dialect10, `{"kind":"message","role":"ROLE_USER","messageId":"m","parts":[{"text":"x"}]}`, nil, "kind is a 0.3 member"},
		{"1.0 part with kind", Dialect10, `{"role":"ROLE_USER","messageId":"m","parts":[{"kind":"text","text":"x"}]}`, nil, "parts[0]: kind and type"},
		{"0.1 part with kind", Dialect01, `{"role":"user","parts":[{"kind":"text","text":"x"}]}`, nil, `needs "type"`},
		{"0.3 part with type", Dialect03, `{"role":"user","messageId":"m","parts":[{"type":"text","text":"x"}]}`, nil, `needs "kind"`},
		{"text part without text", Dialect03, `{"role":"user","messageId":"m","parts":[{"kind":"text"}]}`, nil, "text part without text"},
		{"not JSON", Dialect03, `{"role":`, nil, "params.message:"},
	}
	for _, tc := range cases {
		got, err := DecodeMessage(json.RawMessage(tc.raw), tc.d)
		switch {
		case tc.want == nil && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: DecodeMessage = %+v, %v; want an error containing %q", tc.name, got, err, tc.err)
		case tc.want != nil && (err != nil || !reflect.DeepEqual(got, tc.want)):
			t.Errorf("%s: DecodeMessage = %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}

// TestEncodeMessage: a message written in a dialect reads back as the
// same message in that dialect, spelled the dialect's way.
func TestEncodeMessage(t *testing.T) {
	m := &Message{Role: "agent", MessageID: "m", ContextID: "c", TaskID: "t", Metadata: map[string]any{"k": "v"}, Parts: []Part{
		{Kind: "text", Text: "hi", Metadata: map[string]any{"p": "q"}},
		{Kind: "data", Data: json.RawMessage(`{"a":1}`)},
	}}
	cases := []struct {
		d            Dialect
		role, member string // the role's spelling and the part's discriminator ("" for 1.0)
		keep         func(Message) Message
	}{
		{Dialect01, "agent", "type", func(m Message) Message { m.MessageID, m.ContextID, m.TaskID = "", "", ""; return m }},
		{Dialect03, "agent", "kind", func(m Message) Message { return m }},
		{Dialect10, "ROLE_AGENT", "", func(m Message) Message { return m }},
	}
	for _, tc := range cases {
		b, err := json.Marshal(EncodeMessage(m, tc.d))
		if err != nil {
			t.Fatal(err)
		}
		var w map[string]any
		_ = json.Unmarshal(b, &w)
		p0, _ := w["parts"].([]any)[0].(map[string]any)
		if w["role"] != tc.role || tc.member != "" && p0[tc.member] != "text" || tc.member == "" && (p0["kind"] != nil || p0["type"] != nil) {
			t.Errorf("%s: EncodeMessage wrote %s", tc.d, b)
		}
		back, err := DecodeMessage(b, tc.d)
		if want := tc.keep(*m); err != nil || !reflect.DeepEqual(*back, want) {
			t.Errorf("%s: %s reads back as %+v, %v; want %+v", tc.d, b, back, err, want)
		}
	}
}

// TestStateNames: every state spelled in a dialect reads back as itself
// (0.1 spells the two states it lacks as its nearest ones).
func TestStateNames(t *testing.T) {
	cases := []struct {
		state string
		d     Dialect
		wire  string
	}{
		{"working", Dialect10, "TASK_STATE_WORKING"},
		{"input-required", Dialect10, "TASK_STATE_INPUT_REQUIRED"},
		{"auth-required", Dialect10, "TASK_STATE_AUTH_REQUIRED"},
		{"unknown-state", Dialect10, "TASK_STATE_UNKNOWN_STATE"},
		{"completed", Dialect03, "completed"},
		{"rejected", Dialect03, "rejected"},
		{"canceled", Dialect01, "canceled"},
		{"rejected", Dialect01, "failed"},
		{"auth-required", Dialect01, "input-required"},
	}
	for _, tc := range cases {
		got := StateName(tc.state, tc.d)
		if got != tc.wire {
			t.Errorf("StateName(%q, %s) = %q, want %q", tc.state, tc.d, got, tc.wire)
		}
		if back, lossy := NormalState(got), tc.d == Dialect01 && got != tc.state; back != tc.state && !lossy {
			t.Errorf("NormalState(%q) = %q, want %q", got, back, tc.state)
		}
	}
}
