package wire

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestReadSSE(t *testing.T) {
	in := ": comment\nevent: x\ndata: {\"a\":1}\n\ndata:{\"b\":2}\r\n\r\ndata: line1\ndata: line2\n\ndata: tail"
	var got []string
	if err := ReadSSE(strings.NewReader(in), func(d []byte) bool { got = append(got, string(d)); return true }); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"a":1}`, `{"b":2}`, "line1\nline2", "tail"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestHint(t *testing.T) {
	v10 := `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SKILL_NOT_AVAILABLE","metadata":{"region":"eu-west-1","availableSkills":"s-v2,s-v3"}},
	         {"@type":"type.a2a-conform.dev/x","region":"eu-west-1","availableSkills":["s-v2"]}]`
	v03 := `{"region":"us-east-1","availableSkills":["s-next"]}`
	infoOnly := `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","metadata":{"region":"ap-1","availableSkills":"a,b"}}]`
	for _, tc := range []struct {
		data   string
		region string
		skills []string
	}{
		{v10, "eu-west-1", []string{"s-v2"}},
		{v03, "us-east-1", []string{"s-next"}},
		{infoOnly, "ap-1", []string{"a", "b"}},
		{`"just a string"`, "", nil},
	} {
		h := (&RPCError{Code: -32004, Data: json.RawMessage(tc.data)}).Hint()
		if h.Region != tc.region || !reflect.DeepEqual(h.AvailableSkills, tc.skills) {
			t.Errorf("%s: got %+v", tc.data, h)
		}
	}
}

func TestParseResult(t *testing.T) {
	for raw, want := range map[string]TaskInfo{
		`{"task":{"id":"t1","status":{"state":"TASK_STATE_WORKING"}}}`:               {ID: "t1", State: "working"},
		`{"kind":"task","id":"t2","status":{"state":"input-required"}}`:              {ID: "t2", State: "input-required"},
		`{"message":{"role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`:                  {Message: true},
		`{"kind":"message","role":"agent","parts":[]}`:                               {Message: true},
		`{"statusUpdate":{"taskId":"t3","status":{"state":"TASK_STATE_COMPLETED"}}}`: {ID: "t3", State: "completed"},
	} {
		got, err := ParseResult(json.RawMessage(raw))
		if err != nil || got != want {
			t.Errorf("%s: got %+v %v, want %+v", raw, got, err, want)
		}
	}
}

func TestMessageConversion(t *testing.T) {
	for _, in := range []string{
		`{"role":"user","messageId":"m","parts":[{"kind":"text","text":"hi"},{"kind":"data","data":{"x":1}},{"kind":"file","file":{"uri":"https://f","mimeType":"image/png"}}]}`,
		`{"role":"user","messageId":"m","parts":[{"type":"text","text":"hi"},{"type":"data","data":{"x":1}},{"type":"file","file":{"uri":"https://f","mimeType":"image/png"}}]}`,
		`{"role":"ROLE_USER","messageId":"m","parts":[{"text":"hi"},{"data":{"x":1}},{"url":"https://f","mediaType":"image/png"}]}`,
	} {
		m, err := ParseMessage(json.RawMessage(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		b, _ := json.Marshal(m.V10())
		want := `{"messageId":"m","parts":[{"text":"hi"},{"data":{"x":1}},{"mediaType":"image/png","url":"https://f"}],"role":"ROLE_USER"}`
		if string(b) != want {
			t.Errorf("%s:\n got %s\nwant %s", in, b, want)
		}
		b, _ = json.Marshal(m.V03())
		if !strings.Contains(string(b), `"kind":"text"`) || !strings.Contains(string(b), `"role":"user"`) {
			t.Errorf("V03: %s", b)
		}
	}
	if _, err := ParseMessage(json.RawMessage(`{"parts":[]}`)); err == nil {
		t.Error("empty parts accepted")
	}
}

func TestFence(t *testing.T) {
	var seen *http.Request
	f := &Fence{Base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = r
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
	}), Headers: map[string]string{"A2A-Version": "1.0"}}
	f.Allow("https://agent-b.example/.well-known/agent-card.json")
	req, _ := http.NewRequest(http.MethodGet, "https://agent-b.example/x", nil)
	if _, err := f.RoundTrip(req); err != nil || seen.Header.Get("A2A-Version") != "1.0" || req.Header.Get("A2A-Version") != "" {
		t.Fatalf("allowed host: err %v, header %q (caller's request changed: %q)", err, seen.Header.Get("A2A-Version"), req.Header.Get("A2A-Version"))
	}
	req, _ = http.NewRequest(http.MethodGet, "https://example.com/", nil)
	if _, err := f.RoundTrip(req); err == nil {
		t.Fatal("fenced host reached")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
