package jsonrpc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
)

// FuzzEncodeAnswer checks that the endpoint's answer encoder (the v2
// engine with the v1 options) writes exactly the bytes json.Marshal writes,
// for any value a decoded request can put into an answer (metadata, ids,
// texts) and the shapes the endpoint builds around them.
func FuzzEncodeAnswer(f *testing.F) {
	f.Add([]byte(`{"a":[1,2.5,-0,1e21,"x<y>&z",true,null,{"\u2028":"\ud800"}],"b":{}}`), "text \x00\x7f\u00e9 \xff", int64(3))
	f.Add([]byte(`"s"`), "", int64(-1))
	f.Add([]byte(`[[],{},""]`), "plain", int64(0))
	f.Fuzz(func(t *testing.T, data []byte, s string, n int64) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			v = string(data)
		}
		var raw json.RawMessage
		if json.Valid(data) {
			raw = data
		}
		doc := map[string]any{
			"jsonrpc": "2.0",
			"id":      idOrNull(raw),
			"result": map[string]any{
				"task": map[string]any{
					s:          v,
					"parts":    []any{map[string]any{"text": s, "n": int(n), "ok": n > 0}, nil},
					"metadata": map[string]string{s: s},
					"skills":   []string{s, "x"},
					"data":     raw,
				},
				"empty": []any(nil),
				"none":  map[string]any(nil),
			},
		}
		for _, x := range []any{v, s, doc} {
			want, werr := json.Marshal(x)
			got := encodeAnswer(x, true)
			if werr != nil {
				want = nil
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("encodeAnswer differs from json.Marshal\ngot:  %s\nwant: %s", got, want)
			}
		}
	})
}

// FuzzReadEnvelope checks the envelope fast path against json.Valid and
// json.Unmarshal: whenever readEnvelopeFast accepts a body, the body must
// be valid JSON and every member (and its absence) must equal what
// json.Unmarshal gives; readMethodFast must agree with json.Unmarshal into
// a string whenever it accepts.
func FuzzReadEnvelope(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"a":[1,"}",{"b":"\"]"}]}}`))
	f.Add([]byte(`{"id":null,"id":"x","ID":2}`))
	f.Add([]byte(` { "jsonrpc" : "2.0" , "params" : null , "x":[[]] } `))
	f.Add([]byte(`{"m\u0065thod":"x","Method":"y","jſonrpc":"2.0"}`))
	f.Add([]byte(`{"method":"a\u00e9\ud800","id":"\u2028"}`))
	f.Add([]byte(`{"jsonrpc":"2.0"} {}`))
	f.Add([]byte("{\"jsonrpc\":\"\xff\"}"))
	f.Add([]byte(`{"params":{"a":1,"a":2},"x":1,"x":2}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var want envelope
		werr := json.Unmarshal(body, &want)
		got, ok := readEnvelopeFast(body)
		if ok && !json.Valid(body) {
			t.Fatalf("readEnvelopeFast accepted a body json.Valid refuses: %q", body)
		}
		if ok {
			if werr != nil {
				t.Fatalf("readEnvelopeFast accepted what json.Unmarshal refuses: %v", werr)
			}
			for _, p := range [][2]json.RawMessage{{got.JSONRPC, want.JSONRPC}, {got.Method, want.Method}, {got.ID, want.ID}, {got.Params, want.Params}} {
				if (p[0] == nil) != (p[1] == nil) || !bytes.Equal(p[0], p[1]) {
					t.Fatalf("readEnvelopeFast %+v, json.Unmarshal %+v", got, want)
				}
			}
		}
		for _, raw := range []json.RawMessage{want.Method, want.ID, want.JSONRPC} {
			if s, ok := readMethodFast(raw); ok {
				var ws string
				if err := json.Unmarshal(raw, &ws); err != nil || ws != s {
					t.Fatalf("readMethodFast(%s) = %q, json.Unmarshal %q %v", raw, s, ws, err)
				}
			}
		}
	})
}

// FuzzEncodeSendAnswer checks the send answers of the fast path (plain
// messages appended, other 0.3 ones from typed structs) against ops.EncodeTaskAt's maps and
// json.Marshal, for any message text, metadata, ids and task state; for a
// plain message in valid UTF-8 the fast path must not decline.
func FuzzEncodeSendAnswer(f *testing.F) {
	f.Add("hello", []byte(`{"skillId":"x","n":1.5}`), "ctx-1", "t-1", []byte(`1`), uint8(0))
	f.Add("<&>\u2028\xff", []byte(`null`), "", "t\"2", []byte(`"a<b"`), uint8(3))
	f.Add("plain", []byte(`null`), "ctx-2", "t-3", []byte(` 7 `), uint8(128))
	f.Add("\x01\b\f\n\r\t\"\\\x7f é\u2029\xc3", []byte(`null`), "c\x1f", "t\u00e9", []byte(`"x"`), uint8(0))
	const workTime = 100 * time.Millisecond // Limits.WorkTime's default
	f.Fuzz(func(t *testing.T, text string, meta []byte, ctxID, id string, rpcID []byte, mode uint8) {
		var md map[string]any
		_ = json.Unmarshal(meta, &md)
		now := time.Now()
		parts := []a2a.Part{{Kind: "text", Text: text}, {Kind: "text", Text: text, Metadata: md}, {Kind: "data", Data: json.RawMessage(`{"a":1}`)},
			{Kind: "text", Text: "x", MediaType: "text/plain", Filename: text}, {Kind: "file", File: json.RawMessage(`{"raw":"aGk=","url":null}`)}}
		in := &a2a.Message{Role: []string{"user", "agent"}[mode>>5&1], MessageID: "m-" + id, Metadata: md, Parts: parts[:1+int(mode>>6)%len(parts)]}
		if mode&32 != 0 {
			in.Parts = append(in.Parts, parts...)
		}
		if mode&128 != 0 {
			in.Metadata = nil
		}
		tk := &tasks.Task{ID: id, ContextID: ctxID, Vendor: "d", Created: now.Add(-time.Duration(mode%4) * 40 * time.Millisecond),
			Blocking: mode&4 == 0, Hold: mode&8 != 0, Input: in, Output: text}
		if mode&16 != 0 {
			tk.MarkCanceled()
		}
		var rid json.RawMessage
		if json.Valid(rpcID) {
			rid = validID(rpcID)
		}
		state := tk.State(now, workTime)
		for _, d := range []a2a.Dialect{a2a.Dialect03, a2a.Dialect10} {
			tk.Dialect = d
			var result any = ops.EncodeTaskAt(tk, d, state, now)
			if d == a2a.Dialect10 {
				result = map[string]any{"task": result}
			}
			want, werr := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": idOrNull(rid), "result": result})
			got, ok := encodeSendAnswerFast(rid, tk, d, state, now)
			if ok && (werr != nil || !bytes.Equal(got, want)) {
				t.Fatalf("%s: encodeSendAnswerFast differs (%v)\ngot:  %s\nwant: %s", d, werr, got, want)
			}
			valid := utf8.ValidString(text) && utf8.ValidString(ctxID) && utf8.ValidString(id) && utf8.Valid(rid)
			if !ok && werr == nil && valid && (d == a2a.Dialect03 || plainMessage(in)) {
				t.Fatalf("%s: encodeSendAnswerFast declined a plain answer\nwant: %s", d, want)
			}
		}
	})
}

// FuzzDecodeSendFast checks the one-pass send decoding against the
// two-step one (json.Unmarshal into ops.SendParams, then a2a.DecodeMessage): when
// the fast path accepts, both must give the same params and message.
func FuzzDecodeSendFast(f *testing.F) {
	f.Add([]byte(`{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"hi","metadata":{"a":1}}]},"metadata":{"skillId":"x"},"configuration":{"blocking":false}}`), uint8(2))
	f.Add([]byte(`{"id":"t","sessionId":"s","message":{"role":"user","parts":[{"type":"text","text":"x"},{"type":"data","data":{}}]}}`), uint8(0))
	f.Add([]byte(`{"message":{"kind":"message","role":"agent","parts":[{"kind":"file","file":{"uri":"u"}}]},"Message":null}`), uint8(1))
	// Shapes decodeSendTokens takes, and near misses it must hand on.
	f.Add([]byte(`{"message":{"kind":"message","role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile \u00e9 \ud83d\ude00"}]},"metadata":{"skillId":"s"}}`), uint8(1))
	f.Add([]byte(`{"message":{"role":"ROLE_USER","messageId":"m-1","contextId":"c","taskId":"t","parts":[{"text":"a"},{"text":""}]},"metadata":{}}`), uint8(2))
	f.Add([]byte(`{"id":"t-1","sessionId":"s","message":{"role":"user","parts":[{"type":"text","text":"x"}]}}`), uint8(0))
	f.Add([]byte(`{"message":{"role":"user","parts":[{"kind":"text","text":"\ud800"}]}}`), uint8(1))
	f.Add([]byte(`{"message":{"role":"user","Role":"agent","parts":[{"kind":"text","text":"x"}]}}`), uint8(1))
	f.Add([]byte(`{"message":{"role":"user","parts":[{"kind":"text","text":"x"}]},"metadata":{"skillId":"a","skillId":"b"}}`), uint8(1))
	f.Add([]byte(`{"message":{"role":"user","parts":[{"kind":"text","text":"x"}]},"metadata":{"n":1}}`), uint8(1))
	f.Add([]byte(`{"message":{"role":"user","parts":[]},"id":null}`), uint8(1))
	f.Fuzz(func(t *testing.T, params []byte, dsel uint8) {
		if !json.Valid(params) {
			return
		}
		params = bytes.TrimSpace(params)
		d := []a2a.Dialect{a2a.Dialect01, a2a.Dialect03, a2a.Dialect10}[int(dsel)%3]
		var fast ops.SendParams
		msg, ok := decodeSendFast(params, nil, d, &fast)
		if !ok {
			return
		}
		var slow ops.SendParams
		if err := json.Unmarshal(ops.NonNull(params), &slow); err != nil {
			t.Fatalf("fast path accepted params the slow path refuses: %v", err)
		}
		want, err := a2a.DecodeMessage(slow.Message, d)
		if err != nil {
			t.Fatalf("fast path accepted a message the slow path refuses: %v", err)
		}
		slow.Message = nil
		if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(msg, want) {
			t.Fatalf("fast %+v %+v\nslow %+v %+v", fast, msg, slow, want)
		}
	})
}

// FuzzScanRequest holds scanRequest to the jsontext path: whatever body it
// accepts, readEnvelopeFast must accept with the same members, and
// decodeSendTokens must read its params to the same value.
func FuzzScanRequest(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m-1","parts":[{"text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`))
	f.Add([]byte(` {"id":"a","jsonrpc":"2.0","method":"message/send","params":{"id":"t","sessionId":"s","message":{"kind":"message","role":"user","messageId":"m","contextId":"c","taskId":"t","parts":[{"kind":"text","text":"x"},{"type":"text","text":""}]},"metadata":{"a2a_probe":true,"n":null,"skillId":false}}} `))
	f.Add([]byte(`{"jsonrpc":"2.0","id":-0,"method":"tasks/send","params":{"message":{"parts":[]}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1e3,"method":"SendMessage","params":{"message":{"parts":[]}}}`))
	f.Add([]byte(`{"params":{"message":{}},"method":"SendMessage"}`))
	f.Add([]byte(`{"method":"SendMessage","params":{"message":{"role":"r\u0041"}}}`))
	f.Add([]byte(`{"method":"SendMessage","params":{"message":{"role":"a","role":"b"}}}`))
	f.Add([]byte(`{"method":"SendMessage","id":null,"params":{"message":{"parts":[{"text":"é"}]}}}x`))
	f.Fuzz(func(t *testing.T, body []byte) {
		env, p, ok := scanRequest(body)
		if !ok {
			return
		}
		want, wok := readEnvelopeFast(body)
		if !wok {
			t.Fatalf("scanRequest took a body readEnvelopeFast declines: %q", body)
		}
		for _, pair := range [][2]json.RawMessage{{env.JSONRPC, want.JSONRPC}, {env.Method, want.Method}, {env.ID, want.ID}, {env.Params, want.Params}} {
			if (pair[0] == nil) != (pair[1] == nil) || !bytes.Equal(pair[0], pair[1]) {
				t.Fatalf("scanRequest %+v, readEnvelopeFast %+v", env, want)
			}
		}
		tp, tok := decodeSendTokens(want.Params)
		if !tok || !reflect.DeepEqual(*p, tp) {
			t.Fatalf("scanRequest params %+v, decodeSendTokens %+v (%v)", *p, tp, tok)
		}
	})
}
