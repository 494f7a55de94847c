package mockvendor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fzKnownCodes are the JSON-RPC error codes the fleet (and its default
// faults) may answer.
var fzKnownCodes = map[int]bool{
	-32700: true, -32600: true, -32601: true, -32602: true, -32603: true,
	-32001: true, -32002: true, -32003: true, -32004: true, -32009: true,
}

// fzVersions are the A2A-Version headers a fuzz input can pick.
var fzVersions = []string{"", "1.0", "0.3", "0.2", "0.1", "1.1", "2.0", "x"}

// fzMaxBody is the body limit of the fuzz fleet: small, so the 413 paths
// are reachable.
const fzMaxBody = 2048

// fzFleet starts the default fleet with a small body limit and trace cap.
func fzFleet(t testing.TB) (*Fleet, []*host) {
	cfg := DefaultConfig()
	cfg.Limits = Limits{MaxBody: fzMaxBody, MaxTraceEvents: 2000, MaxTasks: 2000}
	f := tStart(t, cfg)
	var rpcHosts []*host
	for _, h := range f.hosts {
		if h.cfg.RPCPath != "" {
			rpcHosts = append(rpcHosts, h)
		}
	}
	return f, rpcHosts
}

// FuzzRPC drives arbitrary bytes as a JSON-RPC POST body through every
// JSON-RPC host of the default fleet (every dialect: the method picks it,
// the A2A-Version header picks it for shared names), calling the host's
// handler in process. The answer must be HTTP 200 or 413, JSON-RPC 2.0 with
// the request's id (or null when the request has no usable id), exactly one
// of result and error, an error code from the known set, and the trace must
// hold a completed event with the answered status.
func FuzzRPC(f *testing.F) {
	fl, hosts := fzFleet(f)
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m1","parts":[{"text":"hi"}]}}}`), uint8(1), uint8(4))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a","method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m1","parts":[{"kind":"text","text":"hi"}]}}}`), uint8(2), uint8(2))
	f.Add([]byte(`{"jsonrpc":"2.0","id":null,"method":"tasks/send","params":{"id":"t1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}}`), uint8(0), uint8(0))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"tasks/get"}]`), uint8(2), uint8(1))
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"method":"message/stream","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"x"}]},"metadata":{"skillId":"nope"}}}`), uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, body []byte, sel uint8, hostSel uint8) {
		h := hosts[int(hostSel)%len(hosts)]
		version := fzVersions[int(sel)%len(fzVersions)]
		chunked := sel&0x80 != 0 // no Content-Length: the body limit hits while reading
		fzCheckRPC(t, fl, h, body, version, chunked)
	})
}

// fzCheckRPC sends one request to h's handler and checks the answer.
func fzCheckRPC(t *testing.T, fl *Fleet, h *host, body []byte, version string, chunked bool) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "https://"+h.name+h.cfg.RPCPath, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if version != "" {
		r.Header.Set("A2A-Version", version)
	}
	if chunked {
		r.ContentLength = -1
	}
	before := fl.trace.Seq()
	w := httptest.NewRecorder()
	h.serve(w, r)
	res := w.Result()
	out := w.Body.Bytes()

	tooBig := len(body) > fzMaxBody
	if !tooBig && res.StatusCode == http.StatusNoContent {
		// A notification (a request object without an id member) gets no
		// answer at all.
		var env map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimSpace(body), &env) != nil || env["id"] != nil || len(out) != 0 {
			t.Fatalf("answered 204 (a notification's no answer) to a request with an id or with a body\n%s\n%s", body, out)
		}
		if evs := fl.trace.Since(before); len(evs) != 1 || evs[0].Status != http.StatusNoContent {
			t.Fatalf("trace %+v for a notification", evs)
		}
		return
	}
	switch {
	case tooBig && res.StatusCode != http.StatusRequestEntityTooLarge:
		t.Fatalf("body of %d bytes answered %d, want 413", len(body), res.StatusCode)
	case !tooBig && res.StatusCode != http.StatusOK:
		t.Fatalf("answered HTTP %d, want 200\n%s", res.StatusCode, out)
	}
	wantID := []byte("null")
	if !tooBig {
		wantID = fzRequestID(body)
	}
	ct := res.Header.Get("Content-Type")
	var answers [][]byte
	switch ct {
	case "application/json":
		answers = [][]byte{out}
	case "text/event-stream":
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				answers = append(answers, []byte(d))
			} else if sc.Text() != "" {
				t.Fatalf("stream line %q is not a data line", sc.Text())
			}
		}
		if len(answers) == 0 {
			t.Fatalf("empty stream")
		}
	default:
		t.Fatalf("content type %q", ct)
	}
	for _, a := range answers {
		fzCheckAnswer(t, a, wantID, res.StatusCode)
	}
	evs := fl.trace.Since(before)
	if len(evs) != 1 {
		t.Fatalf("trace gained %d events for one request", len(evs))
	}
	if ev := evs[0]; ev.Status != res.StatusCode || ev.ContentType != ct || ev.Host != h.name {
		t.Fatalf("trace event %+v does not match the answer %d %s", ev, res.StatusCode, ct)
	}
}

// fzRequestID is the id the answer must carry: the request's id when the
// body is a JSON object whose id is a string, a number or null; else null.
func fzRequestID(body []byte) []byte {
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	trimmed := bytes.TrimSpace(body)
	if !json.Valid(trimmed) || len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &env) != nil {
		return []byte("null")
	}
	id := bytes.TrimSpace(env.ID)
	if len(id) == 0 {
		return []byte("null")
	}
	switch c := id[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9', string(id) == "null":
		var b bytes.Buffer
		_ = json.Compact(&b, id)
		return b.Bytes()
	}
	return []byte("null")
}

// fzCheckAnswer checks one JSON-RPC response object.
func fzCheckAnswer(t *testing.T, a, wantID []byte, status int) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(a, &m); err != nil {
		t.Fatalf("answer is not a JSON object: %v\n%s", err, a)
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("answer jsonrpc %s\n%s", m["jsonrpc"], a)
	}
	if !fzSameID(m["id"], wantID) {
		t.Fatalf("answer id %s, want %s\n%s", m["id"], wantID, a)
	}
	res, hasRes := m["result"]
	e, hasErr := m["error"]
	if hasRes == hasErr {
		t.Fatalf("answer must hold exactly one of result and error\n%s", a)
	}
	if hasRes {
		if status != http.StatusOK || len(res) == 0 || res[0] != '{' {
			t.Fatalf("result is not an object (HTTP %d)\n%s", status, a)
		}
		return
	}
	var we struct {
		Code    *int            `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(e, &we); err != nil || we.Code == nil || we.Message == nil {
		t.Fatalf("malformed error object\n%s", a)
	}
	if !fzKnownCodes[*we.Code] {
		t.Fatalf("unknown error code %d\n%s", *we.Code, a)
	}
	if status == http.StatusRequestEntityTooLarge && *we.Code != -32600 {
		t.Fatalf("413 with code %d", *we.Code)
	}
}

// fzSameID reports whether the answer's id is the request's: the same
// string (json.Marshal may escape <, > and & in it, as \u003c and so on), or
// the same number or null byte for byte once compacted.
func fzSameID(got, want []byte) bool {
	isString := func(b []byte) bool { b = bytes.TrimSpace(b); return len(b) > 0 && b[0] == '"' }
	var gs, ws string
	if isString(got) && isString(want) && json.Unmarshal(got, &gs) == nil && json.Unmarshal(want, &ws) == nil {
		return gs == ws
	}
	var id bytes.Buffer
	return json.Compact(&id, got) == nil && bytes.Equal(id.Bytes(), want)
}
