package mockvendor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
)

// FuzzREST drives an arbitrary HTTP method, path (below D's RESTPath),
// query, Content-Type and body through D's HTTP+JSON binding in process.
// The answer must be 200 with a JSON object or a stream of JSON objects,
// or an error status with a google.rpc.Status body whose code is that
// status and whose details start with an ErrorInfo; the trace must hold
// one completed event with the answered status and the binding.
func FuzzREST(f *testing.F) {
	fl, _ := fzFleet(f)
	var h *host
	for _, x := range fl.hosts {
		if x.cfg.RESTPath != "" {
			h = x
		}
	}
	f.Add("POST", "/message:send", "", "application/json", []byte(tRESTMsg), uint8(1))
	f.Add("POST", "/message:stream", "", "application/json", []byte(tRESTMsg), uint8(1))
	f.Add("GET", "/tasks", "pageSize=2&includeArtifacts=true", "", []byte(nil), uint8(1))
	f.Add("GET", "/t1/tasks/t-x", "historyLength=1", "", []byte(nil), uint8(1))
	f.Add("POST", "/tasks/t-x:subscribe", "", "text/plain", []byte("x"), uint8(0))
	f.Add("DELETE", "/tasks/t-x/pushNotificationConfigs/c", "", "", []byte(nil), uint8(6))
	f.Fuzz(func(t *testing.T, method, path, query, ct string, body []byte, sel uint8) {
		if !validMethod(method) || strings.ContainsAny(path, " \r\n\t#?") || strings.ContainsAny(query, " \r\n\t#") {
			return
		}
		u := "https://" + h.name + h.cfg.RESTPath + "/" + strings.TrimPrefix(path, "/")
		if query != "" {
			u += "?" + query
		}
		r, err := http.NewRequest(method, u, bytes.NewReader(body))
		if err != nil {
			return
		}
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		if v := fzVersions[int(sel)%len(fzVersions)]; v != "" {
			r.Header.Set("A2A-Version", v)
		}
		before := fl.trace.Seq()
		w := httptest.NewRecorder()
		h.serve(w, r)
		res := w.Result()
		out := w.Body.Bytes()
		evs := fl.trace.Since(before)
		if len(evs) != 1 || evs[0].Status != res.StatusCode {
			t.Fatalf("trace %+v for HTTP %d", evs, res.StatusCode)
		}
		if !h.isREST(r) {
			return // a path the binding does not own (the card, a 404)
		}
		if evs[0].Binding != BindingREST {
			t.Fatalf("trace event without the binding: %+v", evs[0])
		}
		switch {
		case res.StatusCode == http.StatusOK && res.Header.Get("Content-Type") == "text/event-stream":
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					var ev map[string]any
					if json.Unmarshal([]byte(d), &ev) != nil || ev["jsonrpc"] != nil {
						t.Fatalf("stream event %q is not a bare StreamResponse", d)
					}
				}
			}
		case res.StatusCode == http.StatusOK:
			var v map[string]any
			if json.Unmarshal(out, &v) != nil || v["jsonrpc"] != nil {
				t.Fatalf("answer %q is not a bare JSON object", out)
			}
		default:
			var st struct {
				Error struct {
					Code    int              `json:"code"`
					Status  string           `json:"status"`
					Message string           `json:"message"`
					Details []map[string]any `json:"details"`
				} `json:"error"`
			}
			if err := json.Unmarshal(out, &st); err != nil || st.Error.Code != res.StatusCode || st.Error.Status == "" || st.Error.Message == "" {
				t.Fatalf("HTTP %d with body %q: not a google.rpc.Status of that code", res.StatusCode, out)
			}
			if len(st.Error.Details) == 0 || st.Error.Details[0]["@type"] != a2a.ErrorInfoType {
				t.Fatalf("error details %v lack the ErrorInfo", st.Error.Details)
			}
		}
	})
}

// validMethod reports whether m is an HTTP token (http.NewRequest's rule).
func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, c := range m {
		if c <= ' ' || c >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", c) {
			return false
		}
	}
	return true
}
