package jsonrpc

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/ops"
	"github.com/go-json-experiment/json/jsontext"
)

// TestSendParamsMsgMatchesSendParams: the fast path decodes send params
// into sendParamsMsg, the two-step path into ops.SendParams; both must have
// the same members (json tags and types), the message's type aside, or the
// fast path would drop or misread one.
func TestSendParamsMsgMatchesSendParams(t *testing.T) {
	a, b := reflect.TypeFor[ops.SendParams](), reflect.TypeFor[sendParamsMsg]()
	if a.NumField() != b.NumField() {
		t.Fatalf("ops.SendParams has %d fields, sendParamsMsg %d", a.NumField(), b.NumField())
	}
	for i := 0; i < a.NumField(); i++ {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Tag != fb.Tag || fa.Type != fb.Type && fa.Name != "Message" {
			t.Errorf("field %d: ops.SendParams has %s %s %q, sendParamsMsg %s %s %q", i, fa.Name, fa.Type, fa.Tag, fb.Name, fb.Type, fb.Tag)
		}
	}
}

// tEveryField writes a JSON value of type t in which every tagged field of
// every struct is present with a value of its own (so a decoder that skips
// a field, or puts it in another, decodes differently from json.Unmarshal).
func tEveryField(t reflect.Type, name string) string {
	switch {
	case t == reflect.TypeFor[json.RawMessage](), t == reflect.TypeFor[jsontext.Value]():
		return `{"raw":"` + name + `"}`
	case t.Kind() == reflect.Pointer:
		return tEveryField(t.Elem(), name)
	case t.Kind() == reflect.String:
		return `"v-` + name + `"`
	case t.Kind() == reflect.Bool:
		return "true"
	case t.Kind() == reflect.Int:
		return "7"
	case t.Kind() == reflect.Map:
		return `{"k":"` + name + `"}`
	case t.Kind() == reflect.Slice:
		return "[" + tEveryField(t.Elem(), name+"[0]") + "," + tEveryField(t.Elem(), name+"[1]") + "]"
	case t.Kind() == reflect.Struct:
		var members []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || n == "-" {
				continue
			}
			if n == "" {
				n = f.Name
			}
			members = append(members, `"`+n+`":`+tEveryField(f.Type, name+"."+n))
		}
		return "{" + strings.Join(members, ",") + "}"
	}
	panic("tEveryField: no sample for " + t.String())
}

// TestFastDecodersReadEveryField: for an object with every tagged field
// present (the envelope; the send params with the message and its parts),
// the fast path accepts it and reads exactly what encoding/json reads.
func TestFastDecodersReadEveryField(t *testing.T) {
	env := []byte(tEveryField(reflect.TypeFor[envelope](), "env"))
	var want envelope
	if err := json.Unmarshal(env, &want); err != nil {
		t.Fatal(err)
	}
	if got, ok := readEnvelopeFast(env); !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("readEnvelopeFast = %+v, %v; json.Unmarshal %+v", got, ok, want)
	}
	params := []byte(tEveryField(reflect.TypeFor[sendParamsMsg](), "params"))
	var fast sendParamsMsg
	if err := ops.DecodeStrict(params, &fast); err != nil {
		t.Fatalf("the fast path refuses an object of every field: %v\n%s", err, params)
	}
	var slow sendParamsMsg
	if err := json.Unmarshal(params, &slow); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("the fast path read\n%+v\nencoding/json read\n%+v\nfrom %s", fast, slow, params)
	}
}

// TestDecodeSendTokens: the token path takes the shapes real clients send
// (so the fast path is the one measured) and hands on what it does not
// read exactly as json.Unmarshal would (FuzzDecodeSendFast compares the
// results where it takes them).
func TestDecodeSendTokens(t *testing.T) {
	cases := []struct {
		name   string
		params string
		takes  bool
	}{
		{"0.3 send", `{"message":{"kind":"message","role":"user","messageId":"m-1","parts":[{"kind":"text","text":"hi"}]},"metadata":{"skillId":"s"}}`, true},
		{"1.0 send", `{"message":{"role":"ROLE_USER","messageId":"m-1","parts":[{"text":"hi"}]},"metadata":{"skillId":"s"}}`, true},
		{"0.1 send", `{"id":"t-1","sessionId":"s-1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}`, true},
		{"configuration", `{"message":{"role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":true}}`, false},
		{"message metadata", `{"message":{"role":"user","metadata":{},"parts":[{"kind":"text","text":"hi"}]}}`, false},
		{"data part", `{"message":{"role":"user","parts":[{"kind":"data","data":{}}]}}`, false},
		{"another case", `{"Message":{"role":"user","parts":[{"kind":"text","text":"hi"}]}}`, false},
		{"number in metadata", `{"message":{"role":"user","parts":[{"kind":"text","text":"hi"}]},"metadata":{"n":1}}`, false},
		{"duplicate member", `{"message":{"role":"user","role":"agent","parts":[{"kind":"text","text":"hi"}]}}`, false},
		{"null message", `{"message":null}`, false},
		{"trailing value", `{"message":{"role":"user","parts":[{"kind":"text","text":"hi"}]}} 1`, false},
	}
	for _, c := range cases {
		if _, ok := decodeSendTokens([]byte(c.params)); ok != c.takes {
			t.Errorf("%s: decodeSendTokens took it: %v, want %v", c.name, ok, c.takes)
		}
	}
}

// TestScanRequest pins which requests scanRequest takes: the common sends
// of each dialect (so the benchmark's send is not left to the slower path
// unnoticed), and declines for everything outside its shape.
// tSend and tSend03 are the benchmark's sends (mockvendor's bnSend,
// bnSend03): a 1.0 and a 0.3 send of one text part.
const (
	tSend   = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m-1","parts":[{"text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`
	tSend03 = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m-1","parts":[{"kind":"text","text":"reconcile invoice 42"}]},"metadata":{"skillId":"invoice-reconciliation"}}}`
)

func TestScanRequest(t *testing.T) {
	cases := []struct {
		name string
		body string
		take bool
	}{
		{"1.0 send", tSend, true},
		{"0.3 send", tSend03, true},
		{"0.1 send with id and session", `{"jsonrpc":"2.0","id":"r","method":"tasks/send","params":{"id":"t-1","sessionId":"s","message":{"role":"user","parts":[{"type":"text","text":"x"}]}}}`, true},
		{"stream", `{"jsonrpc":"2.0","id":2,"method":"SendStreamingMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"x"}]}}}`, true},
		{"metadata of literals", `{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"x"}]},"metadata":{"a2a_probe":true,"x":null,"skillId":"s"}}}`, true},
		{"params before method", `{"jsonrpc":"2.0","id":1,"params":{"message":{"parts":[{"text":"x"}]}},"method":"SendMessage"}`, false},
		{"not a send", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}`, false},
		{"escape in a string", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"a\nb"}]}}}`, false},
		{"non-ASCII text", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"é"}]}}}`, false},
		{"number in metadata", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"x"}]},"metadata":{"n":1}}}`, false},
		{"configuration", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"x"}]},"configuration":{"blocking":true}}}`, false},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"x"}]}}}`, false},
		{"member twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"x"}]}}}`, false},
		{"trailing bytes", tSend + `x`, false},
		{"no message", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}`, false},
	}
	for _, tc := range cases {
		env, p, ok := scanRequest([]byte(tc.body))
		if ok != tc.take {
			t.Errorf("%s: scanRequest took it: %v, want %v", tc.name, ok, tc.take)
			continue
		}
		if ok && (p == nil || p.Message == nil || len(env.Params) == 0) {
			t.Errorf("%s: taken without params %+v", tc.name, env)
		}
	}
}
