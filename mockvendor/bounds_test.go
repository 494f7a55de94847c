package mockvendor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// strictJSON reports whether b is JSON a strict parser accepts (RFC 7493
// text: valid UTF-8, escapes of valid code points; encoding/json alone
// accepts invalid UTF-8 inside strings).
func strictJSON(b []byte) bool {
	return jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true))
}

// TestTraceBounds sends requests a hostile orchestrator might send and
// checks what one event keeps: bodies only while the trace's body budget
// lasts, never invalid UTF-8, every text field within MaxTracedField bytes,
// and a trace that marshals to strict JSON.
func TestTraceBounds(t *testing.T) {
	send := `{"jsonrpc":"2.0","id":%s,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":"%s"}]}}}`
	cases := []struct {
		name     string
		limits   Limits
		bodies   [][]byte
		hdr      map[string]string
		kept     int    // how many events keep their body
		notKept  string // what RequestNotKept says of the others
		clipped  string // a field Clipped names in every event
		checkIDs bool   // every rpcId is a JSON string within the cap
	}{
		{
			name:   "budget",
			limits: Limits{MaxTraceBodyBytes: 4 << 10},
			bodies: func() [][]byte {
				var out [][]byte
				for i := 0; i < 10; i++ {
					out = append(out, fmt.Appendf(nil, send, fmt.Sprint(i), strings.Repeat("x", 800)))
				}
				return out
			}(),
			kept: 4, notKept: "over the trace's body budget",
		},
		{
			name:    "invalid-utf8",
			bodies:  [][]byte{fmt.Appendf(nil, send, "1", "caf\xe9 \xff\xfe")},
			notKept: "not valid UTF-8",
		},
		{
			name:     "invalid-utf8-id",
			bodies:   [][]byte{fmt.Appendf(nil, send, "\"\xff\xfe\"", "hello")},
			notKept:  "not valid UTF-8",
			clipped:  "rpcId",
			checkIDs: true,
		},
		{
			name:    "lone-surrogate",
			bodies:  [][]byte{fmt.Appendf(nil, send, "1", `a \ud800 b`)},
			notKept: "lone surrogate",
		},
		{
			name:     "lone-surrogate-id",
			bodies:   [][]byte{fmt.Appendf(nil, send, `"\udc00"`, "hello")},
			notKept:  "lone surrogate",
			clipped:  "rpcId",
			checkIDs: true,
		},
		{
			name:     "long-id",
			bodies:   [][]byte{fmt.Appendf(nil, send, `"`+strings.Repeat("i", 4000)+`"`, "hello")},
			kept:     1,
			clipped:  "rpcId",
			checkIDs: true,
		},
		{
			// Nested exactly MaxTracedDepth deep: kept as JSON.
			name:   "depth-32",
			bodies: [][]byte{nested(MaxTracedDepth)},
			kept:   1,
		},
		{
			// One level deeper: kept as text (a JSON string), marked.
			name:    "depth-33",
			bodies:  [][]byte{nested(MaxTracedDepth + 1), nested(9_990)},
			notKept: "nested deeper than 32 levels: kept as text in requestText",
		},
		{
			name:    "long-headers",
			bodies:  [][]byte{fmt.Appendf(nil, send, "1", "hello")},
			hdr:     map[string]string{"A2A-Version": strings.Repeat("1", 8000), "Cache-Control": strings.Repeat("é", 4000)},
			kept:    1,
			clipped: "cacheControl",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: c.limits})
			cl := tClient(t, f, tViaResolve)
			u := tURL(t, f, HostRPCD, DefaultRPCPath)
			for _, b := range c.bodies {
				if r := tPost(t, cl, u, b, c.hdr); r.Status != http.StatusOK {
					t.Fatalf("answered %d: %s", r.Status, r.Body)
				}
			}
			evs := f.Trace().Events()
			if len(evs) != len(c.bodies) {
				t.Fatalf("%d events for %d requests", len(evs), len(c.bodies))
			}
			kept, keptBytes := 0, 0
			for i, e := range evs {
				if e.Request != nil {
					kept++
					keptBytes += len(e.Request)
					if !bytes.Equal(e.Request, c.bodies[i]) {
						t.Errorf("event %d keeps %q, not the body sent", i, e.Request)
					}
					continue
				}
				if !strings.Contains(e.RequestNotKept, c.notKept) || e.RequestSize != len(c.bodies[i]) {
					t.Errorf("event %d keeps no body and says %q (size %d); want %q and %d", i, e.RequestNotKept, e.RequestSize, c.notKept, len(c.bodies[i]))
				}
				deep := strings.Contains(c.notKept, "nested deeper")
				if deep && (e.RequestText != string(c.bodies[i]) || !bytes.Equal(e.Body(), c.bodies[i])) {
					t.Errorf("event %d keeps %.80q as text, not the body sent (Body %.80q)", i, e.RequestText, e.Body())
				}
				if !deep && (e.RequestText != "" || e.Body() != nil) {
					t.Errorf("event %d keeps %d bytes of text for a body not kept", i, len(e.RequestText))
				}
				if e.Method != "SendMessage" || e.Op != OpSend {
					t.Errorf("event %d lost its parsed fields: %+v", i, e)
				}
			}
			if kept != c.kept {
				t.Errorf("%d events keep their body, want %d", kept, c.kept)
			}
			if budget := f.limits.MaxTraceBodyBytes; int64(keptBytes) > budget {
				t.Errorf("the trace keeps %d body bytes, budget %d", keptBytes, budget)
			}
			if got := f.Trace().BodiesLeftOut(); c.notKept == "over the trace's body budget" && got != int64(len(c.bodies)-c.kept) {
				t.Errorf("BodiesLeftOut = %d, want %d", got, len(c.bodies)-c.kept)
			}
			for i, e := range evs {
				if c.clipped != "" && !strings.Contains(strings.Join(e.Clipped, ","), c.clipped) {
					t.Errorf("event %d: Clipped = %q, want %s in it", i, e.Clipped, c.clipped)
				}
				for _, s := range []string{e.A2AVersion, e.CacheControl, e.Path, e.Method, e.Skill, e.TaskID, e.ErrorMessage} {
					if len(s) > MaxTracedField || !utf8.ValidString(s) {
						t.Errorf("event %d keeps a field of %d bytes (valid UTF-8: %v)", i, len(s), utf8.ValidString(s))
					}
				}
				if c.checkIDs {
					var id string
					if len(e.RPCID) > MaxTracedField || json.Unmarshal(e.RPCID, &id) != nil {
						t.Errorf("event %d: rpcId %q is not a short JSON string", i, e.RPCID)
					}
				}
			}
			b, err := json.Marshal(f.Trace())
			if err != nil || !strictJSON(b) {
				t.Fatalf("the trace does not marshal to strict JSON (%v): %q", err, b)
			}
			// The events' array and objects: two levels over what they keep.
			if trace.NestedDeeper(b, MaxTracedDepth+2) {
				t.Errorf("the trace marshals to JSON nested deeper than %d", MaxTracedDepth+2)
			}
		})
	}
}

// nested is a SendMessage whose params nest arrays until the body is
// depth levels deep.
func nested(depth int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"x":` + strings.Repeat("[", depth-2) + strings.Repeat("]", depth-2) + `}}`)
}

// tbHeap is the live heap after two collections (hostile_bench_test.go).
func tbHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
