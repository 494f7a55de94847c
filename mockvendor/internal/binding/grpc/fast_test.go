package grpc

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
)

// tText is a text part.
func tText(s string) *a2apb.Part { return &a2apb.Part{Content: &a2apb.Part_Text{Text: s}} }

// tSend is a SendMessageRequest of one user message with parts, changed
// by change.
func tSend(change func(*a2apb.SendMessageRequest), parts ...*a2apb.Part) *a2apb.SendMessageRequest {
	if len(parts) == 0 {
		parts = []*a2apb.Part{tText("reconcile invoice 42")}
	}
	in := &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m-1", Role: a2apb.Role_ROLE_USER, Parts: parts}}
	if change != nil {
		change(in)
	}
	return in
}

// tMeta is m as a Struct.
func tMeta(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFastSendMatchesBridge: for every SendMessageRequest of the common
// shape the fast path gives the bridge's params to the byte (protojson,
// compacted) and the message and send params binding.DecodeSend reads
// from them; it declines every other shape.
func TestFastSendMatchesBridge(t *testing.T) {
	i32 := func(n int32) *int32 { return &n }
	cases := []struct {
		name    string
		in      *a2apb.SendMessageRequest
		decline bool
	}{
		{name: "the bench's send", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Metadata = tMeta(t, map[string]any{"skillId": "invoice-reconciliation"})
		})},
		{name: "no metadata", in: tSend(nil)},
		{name: "agent, context, task, tenant", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Tenant, in.Message.Role, in.Message.ContextId, in.Message.TaskId = "acme", a2apb.Role_ROLE_AGENT, "ctx-1", "t-1"
		})},
		{name: "several parts, one empty", in: tSend(nil, tText("a"), tText(""), tText("c"))},
		{name: "escapes", in: tSend(nil, tText("q\" b\\ nl\n cr\r tab\t bs\b ff\f nul\x00 us\x1f del\x7f <a&b> \u2028\u2029 \ufffd é 日本 🙂"))},
		{name: "escaped ids", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Message.MessageId, in.Message.ContextId, in.Tenant = "m\"1\n", "ctx\\", "t<&>"
		})},
		{name: "metadata of every kind the path takes, keys to sort", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Metadata = tMeta(t, map[string]any{"skillId": "fx-hedging", "a2a_probe": true, "b": nil, "a": "x", "skill_id": "snake", "Z": false, "é": "\n", "": ""})
		})},
		{name: "probe false, skillId not a string", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Metadata = tMeta(t, map[string]any{"a2a_probe": false, "skillId": nil})
		})},
		{name: "probe as a string", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Metadata = tMeta(t, map[string]any{"a2a_probe": "true", "skillId": "invoice-reconciliation"})
		})},
		{name: "empty metadata", in: tSend(func(in *a2apb.SendMessageRequest) { in.Metadata = &structpb.Struct{} })},
		{name: "empty configuration", in: tSend(func(in *a2apb.SendMessageRequest) { in.Configuration = &a2apb.SendMessageConfiguration{} })},
		{name: "configuration", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Configuration = &a2apb.SendMessageConfiguration{AcceptedOutputModes: []string{"text/plain", "application/json"}, HistoryLength: i32(3), ReturnImmediately: true}
		})},
		{name: "history length 0", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Configuration = &a2apb.SendMessageConfiguration{HistoryLength: i32(0)}
		})},
		{name: "negative history length", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Configuration = &a2apb.SendMessageConfiguration{HistoryLength: i32(-7)}
		})},

		{name: "no message", in: &a2apb.SendMessageRequest{}, decline: true},
		{name: "no parts", in: tSend(func(in *a2apb.SendMessageRequest) { in.Message.Parts = nil }), decline: true},
		{name: "no messageId", in: tSend(func(in *a2apb.SendMessageRequest) { in.Message.MessageId = "" }), decline: true},
		{name: "role unspecified", in: tSend(func(in *a2apb.SendMessageRequest) { in.Message.Role = a2apb.Role_ROLE_UNSPECIFIED }), decline: true},
		{name: "role past the enum", in: tSend(func(in *a2apb.SendMessageRequest) { in.Message.Role = 7 }), decline: true},
		{name: "data part", in: tSend(nil, &a2apb.Part{Content: &a2apb.Part_Data{Data: structpb.NewBoolValue(true)}}), decline: true},
		{name: "url part", in: tSend(nil, &a2apb.Part{Content: &a2apb.Part_Url{Url: "https://x.example/f"}}), decline: true},
		{name: "part without content", in: tSend(nil, &a2apb.Part{}), decline: true},
		{name: "text part with a media type", in: tSend(nil, &a2apb.Part{Content: &a2apb.Part_Text{Text: "x"}, MediaType: "text/plain"}), decline: true},
		{name: "text part with metadata", in: tSend(nil, &a2apb.Part{Content: &a2apb.Part_Text{Text: "x"}, Metadata: &structpb.Struct{}}), decline: true},
		{name: "message metadata", in: tSend(func(in *a2apb.SendMessageRequest) { in.Message.Metadata = &structpb.Struct{} }), decline: true},
		{name: "extensions", in: tSend(func(in *a2apb.SendMessageRequest) { in.Message.Extensions = []string{"https://x.example/ext"} }), decline: true},
		{name: "reference tasks", in: tSend(func(in *a2apb.SendMessageRequest) { in.Message.ReferenceTaskIds = []string{"t-0"} }), decline: true},
		{name: "push config", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Configuration = &a2apb.SendMessageConfiguration{TaskPushNotificationConfig: &a2apb.TaskPushNotificationConfig{Url: "https://hook.example"}}
		}), decline: true},
		{name: "a number in the metadata", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Metadata = tMeta(t, map[string]any{"n": 1.5})
		}), decline: true},
		{name: "an object in the metadata", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Metadata = tMeta(t, map[string]any{"o": map[string]any{"skillId": "x"}})
		}), decline: true},
		{name: "a metadata value of no kind", in: tSend(func(in *a2apb.SendMessageRequest) {
			in.Metadata = &structpb.Struct{Fields: map[string]*structpb.Value{"v": {}}}
		}), decline: true},
		{name: "invalid UTF-8", in: tSend(nil, tText("a\xffb")), decline: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			params, fs, ok := sendFast(c.in)
			if c.decline {
				if ok {
					t.Fatalf("the fast path took it: %s", params)
				}
				return
			}
			if !ok {
				t.Fatal("the fast path declined it")
			}
			want, err := toJSON(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(params, want) {
				t.Fatalf("params\n got %s\nwant %s", params, want)
			}
			var sp ops.SendParams
			msg, err := binding.DecodeSend(want, a2a.Dialect10, &sp)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fs.msg, msg) {
				t.Errorf("message\n got %#v\nwant %#v", fs.msg, msg)
			}
			sp.Message = nil // the raw message: read by nothing after decoding
			if !reflect.DeepEqual(fs.send, sp) {
				t.Errorf("send params\n got %#v\nwant %#v", fs.send, sp)
			}
		})
	}
}

// TestFastAnswerMatchesBridge: for every task a send of the common shape
// answers with, the fast path's SendMessageResponse marshals to the
// bytes of the bridge's (the JSON of Result.ResultValue through
// protojson); it declines every other answer and leaves out untouched.
func TestFastAnswerMatchesBridge(t *testing.T) {
	now := time.Date(2026, 12, 6, 9, 30, 1, 123456789, time.FixedZone("CET", 3600))
	msg := func(change func(*a2a.Message)) *a2a.Message {
		m := &a2a.Message{Role: "user", MessageID: "m-1", Parts: []a2a.Part{{Kind: "text", Text: "reconcile invoice 42"}}}
		if change != nil {
			change(m)
		}
		return m
	}
	task := func(change func(*tasks.Task)) *tasks.Task {
		tk := &tasks.Task{ID: "t-0123456789abcdef", ContextID: "ctx-0123456789abcdef", Input: msg(nil), Output: "Invoice 42 reconciled by Vendor D."}
		if change != nil {
			change(tk)
		}
		return tk
	}
	sent := func(tk *tasks.Task, state string, at time.Time) ops.Result {
		return ops.Result{Sent: ops.SentTask{Task: tk, Dialect: a2a.Dialect10, Now: at}, TaskID: tk.ID, State: state}
	}
	two := 2
	cases := []struct {
		name    string
		res     ops.Result
		decline bool
	}{
		{name: "completed", res: sent(task(nil), "completed", now)},
		{name: "whole second", res: sent(task(nil), "completed", now.Truncate(time.Second))},
		{name: "working", res: sent(task(nil), "working", now)},
		{name: "submitted", res: sent(task(nil), "submitted", now)},
		{name: "input-required without a question", res: sent(task(nil), "input-required", now)},
		{name: "auth-required", res: sent(task(nil), "auth-required", now)},
		{name: "failed", res: sent(task(nil), "failed", now)},
		{name: "canceled", res: sent(task(nil), "canceled", now)},
		{name: "rejected", res: sent(task(nil), "rejected", now)},
		{name: "no context, empty output", res: sent(task(func(tk *tasks.Task) { tk.ContextID, tk.Output = "", "" }), "completed", now)},
		{name: "agent, several parts, escapes", res: sent(task(func(tk *tasks.Task) {
			tk.Input = msg(func(m *a2a.Message) {
				m.Role = "agent"
				m.Parts = []a2a.Part{{Kind: "text", Text: "q\" \\ \n\x00 <&> \u2028 \ufffd 🙂"}, {Kind: "text"}}
			})
			tk.Output = "out \"quoted\"\t\u2029"
		}), "completed", now)},
		{name: "the message's own ids", res: sent(task(func(tk *tasks.Task) {
			tk.Input = msg(func(m *a2a.Message) { m.ContextID, m.TaskID = "ctx-other", "t-other" })
		}), "completed", now)},

		{name: "a value, not a task", res: ops.Result{Value: map[string]any{"task": map[string]any{"id": "t"}}}, decline: true},
		{name: "0.3", res: func() ops.Result { r := sent(task(nil), "completed", now); r.Sent.Dialect = a2a.Dialect03; return r }(), decline: true},
		{name: "history cap", res: func() ops.Result { r := sent(task(nil), "completed", now); r.Sent.History = &two; return r }(), decline: true},
		{name: "configured artifacts", res: sent(task(func(tk *tasks.Task) { tk.Artifacts = []a2a.ArtifactSpec{{}} }), "completed", now), decline: true},
		{name: "a question", res: sent(task(func(tk *tasks.Task) { tk.Question = "which invoice?" }), "input-required", now), decline: true},
		{name: "asks", res: sent(task(func(tk *tasks.Task) { tk.Asks, tk.Question = 1, "which?" }), "input-required", now), decline: true},
		{name: "message metadata", res: sent(task(func(tk *tasks.Task) {
			tk.Input = msg(func(m *a2a.Message) { m.Metadata = map[string]any{"k": "v"} })
		}), "completed", now), decline: true},
		{name: "file part", res: sent(task(func(tk *tasks.Task) {
			tk.Input = msg(func(m *a2a.Message) {
				m.Parts = []a2a.Part{{Kind: "file", File: []byte(`{"url":"https://x.example/f"}`)}}
			})
		}), "completed", now), decline: true},
		{name: "text part with a media type", res: sent(task(func(tk *tasks.Task) {
			tk.Input = msg(func(m *a2a.Message) { m.Parts[0].MediaType = "text/plain" })
		}), "completed", now), decline: true},
		{name: "a state outside TaskState", res: sent(task(nil), "paused", now), decline: true},
		{name: "invalid UTF-8", res: sent(task(func(tk *tasks.Task) { tk.Output = "a\xffb" }), "completed", now), decline: true},
	}
	det := proto.MarshalOptions{Deterministic: true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fast := new(a2apb.SendMessageResponse)
			ok := answerFast(&c.res, fast)
			if c.decline {
				if ok || fast.GetPayload() != nil {
					t.Fatalf("the fast path took it: %v", fast)
				}
				return
			}
			if !ok {
				t.Fatal("the fast path declined it")
			}
			bridge := new(a2apb.SendMessageResponse)
			if err := fromJSON(encode(c.res.ResultValue()), bridge); err != nil {
				t.Fatal(err)
			}
			got, err := det.Marshal(fast)
			if err != nil {
				t.Fatal(err)
			}
			want, err := det.Marshal(bridge)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("answer\n got %v\nwant %v", fast, bridge)
			}
		})
	}
}

// TestFastPathTaken: the bench's SendMessage takes the fast path on the
// way in (paramsJSON) and its completed task on the way out.
func TestFastPathTaken(t *testing.T) {
	in := tSend(func(in *a2apb.SendMessageRequest) {
		in.Metadata = tMeta(t, map[string]any{"skillId": "invoice-reconciliation"})
	})
	if _, fs, err := paramsJSON(in, true); err != nil || fs == nil {
		t.Fatalf("paramsJSON: fast %v, %v", fs, err)
	}
	if _, fs, err := paramsJSON(&a2apb.GetTaskRequest{Id: "t-1"}, true); err != nil || fs != nil {
		t.Fatalf("paramsJSON of a get: fast %v, %v", fs, err)
	}
	if _, fs, err := paramsJSON(in, false); err != nil || fs != nil {
		t.Fatalf("paramsJSON with the fast path off: fast %v, %v", fs, err)
	}
}
