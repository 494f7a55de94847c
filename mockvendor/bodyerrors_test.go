package mockvendor

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// tBodyLimit is the MaxBody of the fleets below: over it, not over the
// deepest body they send.
const tBodyLimit = 256 << 10

// tDeepBody is a send whose params.metadata.x nests arrays so that the
// whole body is nested exactly depth deep: over JSON-RPC in dialect d, or
// (rest) the HTTP+JSON binding's SendMessageRequest.
func tDeepBody(d Dialect, rest bool, depth int) []byte {
	msg := `{"role":"ROLE_USER","messageId":"m-deep","parts":[{"text":"deep"}]}`
	method := "SendMessage"
	if d == Dialect03 {
		msg = `{"kind":"message","role":"user","messageId":"m-deep","parts":[{"kind":"text","text":"deep"}]}`
		method = "message/send"
	}
	params := func(k int) string {
		return `{"message":` + msg + `,"metadata":{"x":` + strings.Repeat("[", k) + strings.Repeat("]", k) + `}}`
	}
	if rest {
		return []byte(params(depth - 2)) // the object, metadata
	}
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params(depth-3) + `}`) // the envelope, params, metadata
}

// tBodyPost posts body to D's JSON-RPC endpoint (or its HTTP+JSON
// message:send) with the given Content-Type ("-" for none) and version.
func tBodyPost(t *testing.T, c *http.Client, rest bool, version, ct string, body []byte) *tResp {
	t.Helper()
	u := tRPCD
	if rest {
		u = tRESTD + "/message:send"
	}
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "-" {
		req.Header.Set("Content-Type", ct)
	}
	if version != "" {
		req.Header.Set("A2A-Version", version)
	}
	return tDo(t, c, req)
}

// TestBodyErrors: every error the fleet answers about a request body as a
// whole (too large, nested too deep, not JSON by its Content-Type, not
// JSON) says why and carries its data the way the other errors do: a
// data object in 0.3, the spec's ErrorInfo (and the vendor data) in 1.0,
// and the same ErrorInfo in the details of the HTTP+JSON binding's
// google.rpc.Status. The two bindings agree: a body that is not JSON by
// its Content-Type is refused with 415 and ContentTypeNotSupportedError,
// and no task runs.
func TestBodyErrors(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxBody: tBodyLimit}})
	c := tClient(t, f, tViaResolve)
	plain := func(d Dialect, rest bool) []byte { return tDeepBody(d, rest, 4) }
	cases := []struct {
		name string
		ct   string // the request's Content-Type ("-": none)
		body func(d Dialect, rest bool) []byte
		// status and code are the HTTP status and JSON-RPC code; msg a
		// part of the message; reason the ErrorInfo reason and key a member
		// of the data (0.3) or of the ErrorInfo metadata and vendor data.
		status int
		code   int
		msg    string
		reason string
		key    string
	}{
		{"body too large", "application/json", func(d Dialect, rest bool) []byte {
			return append(plain(d, rest), bytes.Repeat([]byte(" "), tBodyLimit)...)
		}, 413, -32600, fmt.Sprintf("over the %d byte limit", tBodyLimit), "INVALID_REQUEST", "maxBodyBytes"},
		{"nested too deep", "application/json", func(d Dialect, rest bool) []byte { return tDeepBody(d, rest, MaxBodyDepth+1) },
			http.StatusOK, -32700, fmt.Sprintf("nested deeper than %d", MaxBodyDepth), "PARSE_ERROR", "maxDepth"},
		{"nested 100,000 deep", "application/json", func(d Dialect, rest bool) []byte { return tDeepBody(d, rest, 100_000) },
			http.StatusOK, -32700, fmt.Sprintf("nested deeper than %d", MaxBodyDepth), "PARSE_ERROR", "maxDepth"},
		{"text plain", "text/plain", plain, http.StatusUnsupportedMediaType, -32005, `"text/plain"`, "CONTENT_TYPE_NOT_SUPPORTED", "contentType"},
		{"no Content-Type", "-", plain, http.StatusUnsupportedMediaType, -32005, "Content-Type", "CONTENT_TYPE_NOT_SUPPORTED", "contentType"},
		{"form", "application/x-www-form-urlencoded", plain, http.StatusUnsupportedMediaType, -32005, "x-www-form-urlencoded", "CONTENT_TYPE_NOT_SUPPORTED", "contentType"},
		{"not JSON", "application/json", func(Dialect, bool) []byte { return []byte(`{"jsonrpc":"2.0","id":1,"method":`) },
			http.StatusOK, -32700, "not JSON", "PARSE_ERROR", "offset"},
	}
	for _, tc := range cases {
		for _, b := range []struct {
			name    string
			d       Dialect
			version string
			rest    bool
		}{{"JSON-RPC 0.3", Dialect03, "", false}, {"JSON-RPC 1.0", Dialect10, "1.0", false}, {"HTTP+JSON", Dialect10, "1.0", true}} {
			t.Run(tc.name+"/"+b.name, func(t *testing.T) {
				seq := f.Trace().Seq()
				r := tBodyPost(t, c, b.rest, b.version, tc.ct, tc.body(b.d, b.rest))
				want := tc.status
				if b.rest && want == http.StatusOK {
					want = http.StatusBadRequest
				}
				if r.Status != want {
					t.Errorf("HTTP %d, want %d: %.300s", r.Status, want, r.Body)
				}
				tCheckBodyError(t, r, b.d, b.rest, tc.code, tc.msg, tc.reason, tc.key)
				ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Host == HostRPCD && e.Status != 0 })
				if ev.TaskID != "" || ev.ErrorCode != tc.code || ev.Status != r.Status {
					t.Errorf("trace: task %q, error %d, status %d; want no task, %d, %d", ev.TaskID, ev.ErrorCode, ev.Status, tc.code, r.Status)
				}
			})
		}
	}
	tCheckStillServes(t, f)
}

// tCheckBodyError checks an error answer: its message and its data in the
// dialect's (or the binding's) form.
func tCheckBodyError(t *testing.T, r *tResp, d Dialect, rest bool, code int, msg, reason, key string) {
	t.Helper()
	e := r.Err()
	if e == nil {
		t.Fatalf("no error object: %.300s", r.Body)
	}
	if m, _ := e["message"].(string); !strings.Contains(m, msg) {
		t.Errorf("message %q, want it to say %q", m, msg)
	}
	if rest {
		info, _ := tPath(e, "details", 0).(map[string]any)
		if info["@type"] != a2a.ErrorInfoType || info["reason"] != reason || info["domain"] != a2a.SpecDomain || tPath(info, "metadata", key) == nil {
			t.Errorf("details %v, want an ErrorInfo %s of %s with metadata %s", e["details"], reason, a2a.SpecDomain, key)
		}
		return
	}
	if r.Code() != code {
		t.Errorf("code %d, want %d", r.Code(), code)
	}
	switch d {
	case Dialect10:
		info, _ := tPath(e, "data", 0).(map[string]any)
		if info["@type"] != a2a.ErrorInfoType || info["reason"] != reason || info["domain"] != a2a.SpecDomain || tPath(info, "metadata", key) == nil {
			t.Errorf("data %v, want an ErrorInfo %s of %s with metadata %s", e["data"], reason, a2a.SpecDomain, key)
		}
		if vd, _ := tPath(e, "data", 1).(map[string]any); vd["@type"] != VendorDataType || vd[key] == nil {
			t.Errorf("data %v, want the vendor data with %s", e["data"], key)
		}
	default:
		if data, _ := e["data"].(map[string]any); data[key] == nil {
			t.Errorf("data %v, want an object with %s", e["data"], key)
		}
	}
}

// TestBodyAccepted: a JSON body is taken by both bindings with either
// JSON media type, with parameters and in any case (media types are
// case-insensitive, RFC 9110 §8.3.1), and nested up to MaxBodyDepth.
func TestBodyAccepted(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxBody: tBodyLimit}})
	c := tClient(t, f, tViaResolve)
	cases := []struct {
		name, ct string
		depth    int
	}{
		{"json", "application/json", 4},
		{"json with charset", "application/json; charset=utf-8", 4},
		{"json in capitals", "Application/JSON", 4},
		{"a2a+json", "application/a2a+json", 4},
		{"a2a+json with charset", "application/a2a+json;charset=UTF-8", 4},
		{"nested MaxBodyDepth deep", "application/json", MaxBodyDepth},
	}
	for _, tc := range cases {
		for _, b := range []struct {
			name    string
			d       Dialect
			version string
			rest    bool
		}{{"JSON-RPC 0.3", Dialect03, "", false}, {"JSON-RPC 1.0", Dialect10, "1.0", false}, {"HTTP+JSON", Dialect10, "1.0", true}} {
			t.Run(tc.name+"/"+b.name, func(t *testing.T) {
				r := tBodyPost(t, c, b.rest, b.version, tc.ct, tDeepBody(b.d, b.rest, tc.depth))
				state := tState(r)
				if b.rest {
					state, _ = tPath(r.JSON, "task", "status", "state").(string)
				}
				if r.Status != 200 || (state != "completed" && state != "TASK_STATE_COMPLETED") {
					t.Errorf("HTTP %d state %q: %.300s", r.Status, state, r.Body)
				}
			})
		}
	}
}
