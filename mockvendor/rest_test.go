package mockvendor

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

var tRESTD = "https://" + HostRPCD + DefaultRESTPath

// tREST sends one request to D's HTTP+JSON binding with A2A-Version 1.0
// (unless hdr says otherwise) and a JSON content type for a body.
func tREST(t *testing.T, c *http.Client, method, path, body string, hdr map[string]string) *tResp {
	t.Helper()
	var rd *bytes.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, tRESTD+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("A2A-Version", "1.0")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return tDo(t, c, req)
}

// tRESTStream posts body (JSON) to a stream route of D's HTTP+JSON binding
// and returns the response with its body open; the test ends it.
func tRESTStream(t *testing.T, c *http.Client, path string, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", tRESTD+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("A2A-Version", "1.0")
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// tRESTError checks an HTTP+JSON error: the HTTP status, a google.rpc.Status
// body whose code is that status, and an ErrorInfo with the reason.
func tRESTError(t *testing.T, what string, r *tResp, status int, reason string) {
	t.Helper()
	if r.Status != status || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		t.Errorf("%s: HTTP %d %s, want %d: %s", what, r.Status, r.Header.Get("Content-Type"), status, r.Body)
		return
	}
	e, _ := r.JSON["error"].(map[string]any)
	if e["code"] != float64(status) || e["status"] == "" || e["message"] == "" {
		t.Errorf("%s: error body %s", what, r.Body)
	}
	if reason != "" && (tPath(e, "details", 0, "@type") != a2a.ErrorInfoType || tPath(e, "details", 0, "reason") != reason) {
		t.Errorf("%s: details %v, want ErrorInfo %s", what, tPath(e, "details"), reason)
	}
}

const tRESTMsg = `{"message":{"role":"ROLE_USER","messageId":"m-rest","parts":[{"text":"hi"}]}}`

// TestREST: every route of the binding, with a tenant and without, on the
// same tasks as JSON-RPC, and the trace records the binding.
func TestREST(t *testing.T) {
	cfg := tHonestConfig()
	cfg.Limits.WorkTime = 400 * time.Millisecond
	f := tStart(t, cfg)
	c := tClient(t, f, tViaProxy)
	send := tREST(t, c, "POST", "/message:send", tRESTMsg, nil)
	task, _ := send.JSON["task"].(map[string]any)
	id, _ := task["id"].(string)
	if send.Status != 200 || id == "" || tPath(task, "status", "state") != "TASK_STATE_COMPLETED" || send.JSON["jsonrpc"] != nil {
		t.Fatalf("send: %d %s", send.Status, send.Body)
	}
	for _, prefix := range []string{"", "/tenant-1"} {
		t.Run("prefix "+prefix, func(t *testing.T) {
			cases := []struct {
				name, method, path, body string
				status                   int
				reason                   string
				check                    func(t *testing.T, r *tResp)
			}{
				{"send", "POST", "/message:send", tRESTMsg, 200, "", func(t *testing.T, r *tResp) {
					if tPath(r.JSON, "task", "id") == nil {
						t.Errorf("send answer %s", r.Body)
					}
				}},
				{"get", "GET", "/tasks/" + id, "", 200, "", func(t *testing.T, r *tResp) {
					if r.JSON["id"] != id || r.JSON["history"] == nil {
						t.Errorf("get answer %s", r.Body)
					}
				}},
				{"get historyLength 0", "GET", "/tasks/" + id + "?historyLength=0", "", 200, "", func(t *testing.T, r *tResp) {
					if r.JSON["history"] != nil {
						t.Errorf("history with historyLength 0: %s", r.Body)
					}
				}},
				{"list", "GET", "/tasks?pageSize=1", "", 200, "", func(t *testing.T, r *tResp) {
					if len(tAsList(r.JSON["tasks"])) != 1 || r.JSON["nextPageToken"] == "" {
						t.Errorf("list answer %s", r.Body)
					}
				}},
				{"get unknown", "GET", "/tasks/t-nope", "", 404, "TASK_NOT_FOUND", nil},
				{"cancel terminal", "POST", "/tasks/" + id + ":cancel", "", 409, "TASK_NOT_CANCELABLE", nil},
				{"cancel unknown", "POST", "/tasks/t-nope:cancel", "", 404, "TASK_NOT_FOUND", nil},
				{"subscribe terminal", "POST", "/tasks/" + id + ":subscribe", "", 400, "UNSUPPORTED_OPERATION", nil},
				{"subscribe unknown", "GET", "/tasks/t-nope:subscribe", "", 404, "TASK_NOT_FOUND", nil},
				{"message to terminal task", "POST", "/message:send", `{"message":{"role":"ROLE_USER","messageId":"m2","taskId":"` + id + `","parts":[{"text":"more"}]}}`, 400, "UNSUPPORTED_OPERATION", nil},
				// D claims push notifications: the config is kept (and,
				// its URL not being loopback, never delivered).
				{"push config", "POST", "/tasks/" + id + "/pushNotificationConfigs", `{"url":"https://example.com"}`, 200, "", func(t *testing.T, r *tResp) {
					if r.JSON["taskId"] != id || r.JSON["url"] != "https://example.com" {
						t.Errorf("push config answer %s", r.Body)
					}
				}},
				{"push config without url", "POST", "/tasks/" + id + "/pushNotificationConfigs", `{"token":"x"}`, 400, "", nil},
				{"extended card", "GET", "/extendedAgentCard", "", 400, "UNSUPPORTED_OPERATION", nil},
			}
			for _, tc := range cases {
				r := tREST(t, c, tc.method, prefix+tc.path, tc.body, nil)
				if tc.status != 200 {
					tRESTError(t, tc.name, r, tc.status, tc.reason)
					continue
				}
				if r.Status != 200 || r.Header.Get("A2A-Version") != "1.0" {
					t.Errorf("%s: HTTP %d A2A-Version %q: %s", tc.name, r.Status, r.Header.Get("A2A-Version"), r.Body)
					continue
				}
				tc.check(t, r)
			}
		})
	}
	t.Run("stream", func(t *testing.T) {
		resp := tRESTStream(t, c, "/message:stream", []byte(tRESTMsg))
		evs := tReadSSE(t, resp.Body)
		if resp.Header.Get("Content-Type") != "text/event-stream" || len(evs) < 2 || tPath(evs[0], "task", "id") == nil || evs[0]["jsonrpc"] != nil {
			t.Errorf("stream %s: %v", resp.Header.Get("Content-Type"), evs)
		}
	})
	t.Run("subscribe live", func(t *testing.T) {
		r := tREST(t, c, "POST", "/message:send", `{"message":{"role":"ROLE_USER","messageId":"m3","parts":[{"text":"live"}]},"configuration":{"returnImmediately":true}}`, nil)
		live := tPath(r.JSON, "task", "id").(string)
		req, _ := http.NewRequest("POST", tRESTD+"/tasks/"+live+":subscribe", nil)
		req.Header.Set("A2A-Version", "1.0")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		evs := tReadSSE(t, resp.Body)
		if len(evs) < 2 || tPath(evs[0], "task", "id") != live || tPath(evs[len(evs)-1], "statusUpdate", "status", "state") != "TASK_STATE_COMPLETED" {
			t.Errorf("subscribe: %v", evs)
		}
	})
	t.Run("trace", func(t *testing.T) {
		ev := tLastEvent(t, f, HostRPCD)
		if ev.Binding != BindingREST || ev.Method != "SubscribeToTask" || ev.Dialect != "1.0" {
			t.Errorf("trace event %+v", ev)
		}
	})
	t.Run("streaming false", func(t *testing.T) {
		// C has no REST interface; D with a card that says streaming false
		// would answer 400 UNSUPPORTED_OPERATION: TestRESTBadInput covers
		// the error path, TestSubscribe the rule.
		if tGet(t, c, "https://"+HostC+DefaultRESTPath+"/tasks", nil).Status != 404 {
			t.Error("a host without restPath answers the binding")
		}
	})
}

// TestRESTBadInput: malformed bodies, wrong types, wrong content types and
// versions, unknown routes and oversized bodies get the binding's error
// (HTTP status + google.rpc.Status), and each is in the trace.
func TestRESTBadInput(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{ReadTimeout: tReadTimeout, MaxBody: 4096}})
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		name, method, path, body string
		hdr                      map[string]string
		status                   int
		reason                   string
	}{
		{"malformed JSON", "POST", "/message:send", `{"message":`, nil, 400, "PARSE_ERROR"},
		{"a JSON array", "POST", "/message:send", `[1]`, nil, 400, "INVALID_PARAMS"},
		{"message missing", "POST", "/message:send", `{}`, nil, 400, "INVALID_PARAMS"},
		{"message a string", "POST", "/message:send", `{"message":"hi"}`, nil, 400, "INVALID_PARAMS"},
		{"0.3 shapes", "POST", "/message:send", `{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":"hi"}]}}`, nil, 400, "INVALID_PARAMS"},
		{"text/plain", "POST", "/message:send", tRESTMsg, map[string]string{"Content-Type": "text/plain"}, 415, "CONTENT_TYPE_NOT_SUPPORTED"},
		{"a2a+json accepted", "POST", "/message:send", tRESTMsg, map[string]string{"Content-Type": "application/a2a+json"}, 200, ""},
		{"version 99.0", "POST", "/message:send", tRESTMsg, map[string]string{"A2A-Version": "99.0"}, 400, "VERSION_NOT_SUPPORTED"},
		{"no version is 0.3", "POST", "/message:send", tRESTMsg, map[string]string{"A2A-Version": ""}, 400, "VERSION_NOT_SUPPORTED"},
		{"version 0.3", "GET", "/tasks", "", map[string]string{"A2A-Version": "0.3"}, 400, "VERSION_NOT_SUPPORTED"},
		{"historyLength not a number", "GET", "/tasks/t-1?historyLength=x", "", nil, 400, "INVALID_PARAMS"},
		{"includeArtifacts not a bool", "GET", "/tasks?includeArtifacts=maybe", "", nil, 400, "INVALID_PARAMS"},
		{"pageSize 0", "GET", "/tasks?pageSize=0", "", nil, 400, "INVALID_PARAMS"},
		{"unknown route", "GET", "/frobnicate", "", nil, 404, "METHOD_NOT_FOUND"},
		{"send with GET", "GET", "/message:send", "", nil, 404, "METHOD_NOT_FOUND"},
		{"get with DELETE", "DELETE", "/tasks/t-1", "", nil, 404, "METHOD_NOT_FOUND"},
		{"empty task id", "GET", "/tasks/:cancel", "", nil, 404, "METHOD_NOT_FOUND"},
		{"oversized", "POST", "/message:send", `{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"` + strings.Repeat("x", 5000) + `"}]}}`, nil, 413, "INVALID_REQUEST"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seq := f.Trace().Seq()
			r := tREST(t, c, tc.method, tc.path, tc.body, tc.hdr)
			if tc.status == 200 {
				if r.Status != 200 {
					t.Errorf("HTTP %d: %s", r.Status, r.Body)
				}
			} else {
				tRESTError(t, tc.name, r, tc.status, tc.reason)
			}
			ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Host == HostRPCD })
			if ev.Status != r.Status || ev.Binding != BindingREST {
				t.Errorf("trace event %+v for HTTP %d", ev, r.Status)
			}
		})
	}
	t.Run("slow body", func(t *testing.T) {
		conn := tRawTLS(t, f, HostRPCD)
		defer conn.Close()
		_, _ = conn.Write([]byte("POST " + DefaultRESTPath + "/message:send HTTP/1.1\r\nHost: " + HostRPCD + "\r\nA2A-Version: 1.0\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mess"))
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 512)
		n, _ := conn.Read(buf)
		if n > 0 && !strings.Contains(string(buf[:n]), "400") && !strings.Contains(string(buf[:n]), "408") {
			t.Errorf("a body that stalls got %q", buf[:n])
		}
	})
}
