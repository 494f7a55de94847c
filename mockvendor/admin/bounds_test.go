package admin_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestTraceOutputBounded sends request bodies that grow when re-indented
// or break strict parsers, and checks that GET /admin/trace stays within
// a small multiple of what was sent and is strict JSON.
func TestTraceOutputBounded(t *testing.T) {
	const depth = 9_990
	deep := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}`
	cases := []struct {
		name string
		body string
	}{
		{"nested-9990", deep},
		{"invalid-utf8", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"SendMessage\",\"params\":{\"x\":\"\xfe\xc0\"}}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t)
			u, _ := e.f.HostURL(mockvendor.HostRPCD)
			resp, err := e.fc.Post(u+mockvendor.DefaultRPCPath, "application/json", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			status, _, b := e.do(t, http.MethodGet, "/admin/trace?host="+mockvendor.HostRPCD, "", "Bearer "+token)
			if status != http.StatusOK {
				t.Fatalf("GET /admin/trace answered %d: %s", status, b)
			}
			if !json.Valid(b) || !utf8.Valid(b) {
				t.Fatalf("GET /admin/trace is not strict JSON: %q", b[:min(len(b), 300)])
			}
			if limit := 2*len(c.body) + 4096; len(b) > limit {
				t.Errorf("GET /admin/trace is %d bytes for a %d-byte body (limit %d)", len(b), len(c.body), limit)
			}
			if !bytes.Contains(b, []byte(`"method":"SendMessage"`)) {
				t.Errorf("the event lost its method: %.300s", b)
			}
			t.Logf("%s: body %d bytes, /admin/trace %d bytes", c.name, len(c.body), len(b))
		})
	}
}
