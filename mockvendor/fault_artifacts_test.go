package mockvendor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("artifacts", tFaultArtifacts)
}

// tArtConfig is the artifacts config the tests attach: a report of every
// part kind (a text, a file by URI, a file by bytes with metadata, a data
// part) in three chunks of 2, 1 and 1 parts, and an unnamed artifact of
// one text part left empty (the task's usual answer).
var tArtConfig = TaskArtifacts{Artifacts: []ArtifactSpec{{
	Name: "report", Description: "the quarterly report", Chunks: 3, Metadata: map[string]any{"pages": 2},
	Parts: []ArtifactPart{
		{Kind: "text", Text: "page one"},
		{Kind: "file", URI: "https://files.agent.example/r.pdf", MimeType: "application/pdf", Name: "r.pdf"},
		{Kind: "file", Bytes: "aGVsbG8=", MimeType: "text/plain", Name: "hello.txt", Metadata: map[string]any{"k": "v"}},
		{Kind: "data", Data: json.RawMessage(`{"total": 42, "ok": true}`)},
	},
}, {
	Parts: []ArtifactPart{{}},
}}}

// tArtParts are tArtConfig's parts as each dialect spells them (0.1 parts
// in 0.1 a2a.json, 0.3 in types.ts at v0.3.0, 1.0 in a2a.proto's Part),
// OUT standing for the task's usual answer.
var tArtParts = map[Dialect][]string{
	Dialect01: {
		`{"type":"text","text":"page one"}`,
		`{"type":"file","file":{"uri":"https://files.agent.example/r.pdf","mimeType":"application/pdf","name":"r.pdf"}}`,
		`{"type":"file","file":{"bytes":"aGVsbG8=","mimeType":"text/plain","name":"hello.txt"},"metadata":{"k":"v"}}`,
		`{"type":"data","data":{"total":42,"ok":true}}`,
		`{"type":"text","text":"OUT"}`,
	},
	Dialect03: {
		`{"kind":"text","text":"page one"}`,
		`{"kind":"file","file":{"uri":"https://files.agent.example/r.pdf","mimeType":"application/pdf","name":"r.pdf"}}`,
		`{"kind":"file","file":{"bytes":"aGVsbG8=","mimeType":"text/plain","name":"hello.txt"},"metadata":{"k":"v"}}`,
		`{"kind":"data","data":{"total":42,"ok":true}}`,
		`{"kind":"text","text":"OUT"}`,
	},
	Dialect10: {
		`{"text":"page one"}`,
		`{"url":"https://files.agent.example/r.pdf","mediaType":"application/pdf","filename":"r.pdf"}`,
		`{"raw":"aGVsbG8=","mediaType":"text/plain","filename":"hello.txt","metadata":{"k":"v"}}`,
		`{"data":{"total":42,"ok":true}}`,
		`{"text":"OUT"}`,
	},
}

// tArtWant is artifact i of tArtConfig (parts from..to) as dialect d
// spells it for task tid, out being the task's usual answer.
func tArtWant(d Dialect, tid, out string, i, from, to int) map[string]any {
	var a map[string]any
	if i == 0 {
		a = map[string]any{"name": "report", "description": "the quarterly report", "metadata": map[string]any{"pages": 2}}
	} else {
		a, from, to = map[string]any{}, 4, 5
	}
	if d == Dialect01 {
		a["index"] = i
	} else {
		a["artifactId"] = fmt.Sprintf("a-%s-%d", tid, i)
	}
	var parts []any
	quoted, _ := json.Marshal(out)
	for _, p := range tArtParts[d][from:to] {
		var v any
		if err := json.Unmarshal([]byte(strings.Replace(p, `"OUT"`, string(quoted), 1)), &v); err != nil {
			panic(err)
		}
		parts = append(parts, v)
	}
	a["parts"] = parts
	return a
}

// tArtWhole are tArtConfig's artifacts, whole, as a task holds them.
func tArtWhole(d Dialect, tid, out string) []any {
	return []any{tArtWant(d, tid, out, 0, 0, 4), tArtWant(d, tid, out, 1, 0, 0)}
}

// tArtOutput is the usual answer a task's second artifact carries, which
// must be the vendor's "<organization> ran ...".
func tArtOutput(t *testing.T, what string, arts any, org string) string {
	t.Helper()
	s, _ := tPath(arts, 1, "parts", 0, "text").(string)
	if !strings.HasPrefix(s, org+" ran ") {
		t.Errorf("%s: the empty text part says %q, want the task's usual answer (%s ran ...)", what, s, org)
	}
	return s
}

// tCheckTaskArtifacts checks that the task holds tArtConfig's artifacts,
// whole, in dialect d.
func tCheckTaskArtifacts(t *testing.T, what string, d Dialect, task map[string]any, org string) {
	t.Helper()
	tid, _ := task["id"].(string)
	out := tArtOutput(t, what, task["artifacts"], org)
	if want := tArtWhole(d, tid, out); !tJSONEqual(task["artifacts"], want) {
		t.Errorf("%s: artifacts\n got %s\nwant %s", what, tMarshal(t, task["artifacts"]), tMarshal(t, want))
	}
}

// tArtUpdate is the TaskArtifactUpdateEvent a stream result carries (the
// result of a JSON-RPC event, or a bare HTTP+JSON StreamResponse), or nil.
func tArtUpdate(d Dialect, res map[string]any) map[string]any {
	switch d {
	case Dialect01:
		if res["artifact"] != nil {
			return res
		}
	case Dialect03:
		if res["kind"] == "artifact-update" {
			return res
		}
	default:
		u, _ := res["artifactUpdate"].(map[string]any)
		return u
	}
	return nil
}

// tCheckArtifactStream checks the results of a stream (or subscription) of
// task tid: the task's status events around four artifact updates, the
// report in its three chunks (append false, true, true; lastChunk on the
// last) and the second artifact in one, whose parts, appended per
// artifact, make the artifacts the task holds.
func tCheckArtifactStream(t *testing.T, what string, d Dialect, results []map[string]any, tid, org string) {
	t.Helper()
	var ups []map[string]any
	firstUp, lastUp := -1, -1
	for i, res := range results {
		if u := tArtUpdate(d, res); u != nil {
			ups = append(ups, u)
			if firstUp < 0 {
				firstUp = i
			}
			lastUp = i
		}
	}
	if len(ups) != 4 || lastUp-firstUp != 3 || lastUp != len(results)-2 {
		t.Fatalf("%s: %d artifact updates at %d..%d of %d results, want 4 in a row before the final status: %v", what, len(ups), firstUp, lastUp, len(results), results)
	}
	if s := tEventState(map[string]any{"result": results[len(results)-1]}); s != "completed" {
		t.Errorf("%s: the last result says %q, want completed", what, s)
	}
	out := tArtOutput(t, what, []any{nil, ups[3]["artifact"]}, org)
	type chunk struct {
		art, from, to int
		appendChunk   bool
		last          bool
	}
	want := []chunk{{0, 0, 2, false, false}, {0, 2, 3, true, false}, {0, 3, 4, true, true}, {1, 0, 0, false, true}}
	merged := map[int]map[string]any{}
	for k, w := range want {
		u := ups[k]
		a, _ := u["artifact"].(map[string]any)
		flags := u // 0.3 and 1.0: beside the artifact
		if d == Dialect01 {
			flags = a // 0.1: inside it
			if u["id"] != tid {
				t.Errorf("%s: update %d names task %v", what, k, u["id"])
			}
		} else if u["taskId"] != tid || u["contextId"] == nil {
			t.Errorf("%s: update %d names task %v context %v", what, k, u["taskId"], u["contextId"])
		}
		if flags["append"] != w.appendChunk || flags["lastChunk"] != w.last {
			t.Errorf("%s: update %d append %v lastChunk %v, want %v %v", what, k, flags["append"], flags["lastChunk"], w.appendChunk, w.last)
		}
		wa := tArtWant(d, tid, out, w.art, w.from, w.to)
		if d == Dialect01 {
			wa["append"], wa["lastChunk"] = w.appendChunk, w.last
		}
		if !tJSONEqual(a, wa) {
			t.Errorf("%s: update %d artifact\n got %s\nwant %s", what, k, tMarshal(t, a), tMarshal(t, wa))
		}
		// A client's merge: a new artifact, or the chunk's parts appended.
		if m := merged[w.art]; m != nil && w.appendChunk {
			m["parts"] = append(m["parts"].([]any), a["parts"].([]any)...)
		} else {
			m := map[string]any{}
			for key, v := range a {
				m[key] = v
			}
			merged[w.art] = m
		}
	}
	whole := []any{merged[0], merged[1]}
	if d == Dialect01 {
		for _, m := range merged {
			delete(m, "append")
			delete(m, "lastChunk")
		}
	}
	if wantWhole := tArtWhole(d, tid, out); !tJSONEqual(whole, wantWhole) {
		t.Errorf("%s: the chunks merged\n got %s\nwant %s", what, tMarshal(t, whole), tMarshal(t, wantWhole))
	}
}

// tResults are the results of JSON-RPC stream events.
func tResults(t *testing.T, evs []map[string]any) []map[string]any {
	t.Helper()
	out := make([]map[string]any, 0, len(evs))
	for _, ev := range evs {
		res, ok := ev["result"].(map[string]any)
		if !ok {
			t.Fatalf("stream event without a result: %v", ev)
		}
		out = append(out, res)
	}
	return out
}

// tStreamTaskID is the task id a stream's first result names.
func tStreamTaskID(d Dialect, first map[string]any) string {
	if d == Dialect10 {
		first, _ = first["task"].(map[string]any)
	}
	id, _ := first["id"].(string)
	return id
}

// tFaultArtifacts is the artifacts case of TestFaults: in every dialect a
// blocking send and a get hold the configured artifacts whole, a stream
// sends them in their chunks, the trace names the fault, probes and a
// task that fails are left without them, and the zero config gives its
// documented default.
func tFaultArtifacts(t *testing.T, e *tFaultEnv) {
	id := e.add(t, "x", Spec("artifacts", tArtConfig))
	for _, d := range tDialects {
		seq := e.f.Trace().Seq()
		r := e.send(t, d.D, "report", "")
		tWantState(t, string(d.D)+" send", r, "completed")
		tCheckTaskArtifacts(t, string(d.D)+" send", d.D, tTask(r), "Vendor X")
		ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
		if !slices.Contains(ev.Faults, "artifacts") {
			t.Errorf("%s: trace faults %v", d.D, ev.Faults)
		}
		tid, _ := tTask(r)["id"].(string)
		g := tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": tid})
		tCheckTaskArtifacts(t, string(d.D)+" get", d.D, tTask(g), "Vendor X")

		resp := tStream(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "streamed report", ""))
		res := tResults(t, tReadSSE(t, resp.Body))
		if len(res) == 0 {
			t.Fatalf("%s: empty stream", d.Stream)
		}
		sid := tStreamTaskID(d.D, res[0])
		if d.D == Dialect01 {
			sid, _ = res[0]["id"].(string)
		}
		tCheckArtifactStream(t, d.Stream, d.D, res, sid, "Vendor X")
		g = tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": sid})
		tCheckTaskArtifacts(t, d.Stream+" then get", d.D, tTask(g), "Vendor X")
	}
	// A probe keeps the honest single artifact.
	p := tTask(e.send(t, Dialect10, ProbeText, ""))
	if arts := tAsList(p["artifacts"]); len(arts) != 1 || tPath(arts, 0, "name") != "result" {
		t.Errorf("probe artifacts %v", p["artifacts"])
	}
	// A task that fails has none (task-outcome after artifacts).
	fid := e.add(t, "x", Spec("task-outcome", TaskOutcome{State: "failed"}))
	if r := e.send(t, Dialect03, "fails", ""); tTask(r)["artifacts"] != nil || tState(r) != "failed" {
		t.Errorf("failed task: %s", r.Body)
	}
	e.remove(t, fid)
	e.remove(t, id)

	// {"type":"artifacts"} alone: one artifact "result" of a text, a file
	// and a data part, streamed in three chunks.
	e.add(t, "x", FaultSpec{Type: "artifacts"})
	r := e.send(t, Dialect10, "default", "")
	a := tPath(tTask(r), "artifacts", 0)
	if tPath(a, "name") != "result" || tPath(a, "parts", 1, "url") == nil || tPath(a, "parts", 1, "mediaType") != "application/pdf" || tPath(a, "parts", 2, "data", "status") != "done" {
		t.Errorf("default artifacts: %s", r.Body)
	}
	resp := tStream(t, e.c, e.rpc, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "default", ""))
	n := 0
	for _, res := range tResults(t, tReadSSE(t, resp.Body)) {
		if tArtUpdate(Dialect10, res) != nil {
			n++
		}
	}
	if n != 3 {
		t.Errorf("default artifacts: %d artifact updates, want 3", n)
	}
}

// tArtBinding is a way to reach vendor D: JSON-RPC in a dialect, or the
// HTTP+JSON binding (1.0 shapes).
type tArtBinding struct {
	name string
	d    Dialect
	rest bool
}

var tArtBindings = []tArtBinding{
	{"JSON-RPC 0.1", Dialect01, false},
	{"JSON-RPC 0.3", Dialect03, false},
	{"JSON-RPC 1.0", Dialect10, false},
	{"HTTP+JSON", Dialect10, true},
}

// send sends a message to D (blocking, or returning at once) and returns
// the task.
func (b tArtBinding) send(t *testing.T, c *http.Client, blocking bool) map[string]any {
	t.Helper()
	if b.rest {
		cfg := ""
		if !blocking {
			cfg = `,"configuration":{"returnImmediately":true}`
		}
		r := tREST(t, c, "POST", "/message:send", `{"message":{"role":"ROLE_USER","messageId":"m-art","parts":[{"text":"report"}]}`+cfg+`}`, nil)
		task, _ := r.JSON["task"].(map[string]any)
		if r.Status != 200 || task == nil {
			t.Fatalf("%s send: %d %s", b.name, r.Status, r.Body)
		}
		return task
	}
	dc := tDialectOf(t, b.d)
	p := tSendParams(b.d, "report", "")
	switch {
	case blocking:
	case b.d == Dialect10:
		p["configuration"] = map[string]any{"returnImmediately": true}
	default:
		p["configuration"] = map[string]any{"blocking": false}
	}
	r := tRPC(t, c, tRPCD, dc.Version, dc.Send, p)
	if r.Err() != nil {
		t.Fatalf("%s send: %s", b.name, r.Body)
	}
	return tTask(r)
}

// get returns D's task id.
func (b tArtBinding) get(t *testing.T, c *http.Client, id string) map[string]any {
	t.Helper()
	if b.rest {
		return tREST(t, c, "GET", "/tasks/"+id, "", nil).JSON
	}
	dc := tDialectOf(t, b.d)
	return tTask(tRPC(t, c, tRPCD, dc.Version, dc.Get, map[string]any{"id": id}))
}

// sse posts to D and returns the stream's results (JSON-RPC results, or
// HTTP+JSON's bare StreamResponses).
func (b tArtBinding) sse(t *testing.T, c *http.Client, method, restPath string, params any) []map[string]any {
	t.Helper()
	if !b.rest {
		return tResults(t, tReadSSE(t, tStream(t, c, tRPCD, tDialectOf(t, b.d).Version, method, params).Body))
	}
	var body []byte
	if params != nil {
		body = tMarshal(t, params)
	}
	resp := tRESTStream(t, c, restPath, body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("%s %s: Content-Type %q", b.name, restPath, ct)
	}
	return tReadSSE(t, resp.Body)
}

// TestArtifacts: vendor D with the artifacts fault, per dialect and
// binding over real TLS through the fleet's proxy: a blocking send holds
// the artifacts whole; a task sent to return at once has none while it
// works and all of them once completed (GetTask); a stream and a
// subscription send them in their chunks; ListTasks with includeArtifacts
// shows them (1.0).
func TestArtifacts(t *testing.T) {
	cfg := tHonestConfig()
	cfg.Limits.WorkTime = 300 * time.Millisecond
	f := tStart(t, cfg)
	if _, err := f.AddFault("d", Spec("artifacts", tArtConfig)); err != nil {
		t.Fatal(err)
	}
	c := tClient(t, f, tViaProxy)
	for _, b := range tArtBindings {
		t.Run(b.name, func(t *testing.T) {
			task := b.send(t, c, true)
			tCheckTaskArtifacts(t, "blocking send", b.d, task, "Vendor D")
			id, _ := task["id"].(string)
			tCheckTaskArtifacts(t, "get", b.d, b.get(t, c, id), "Vendor D")

			live := b.send(t, c, false)
			if live["artifacts"] != nil {
				t.Errorf("a task still at work has artifacts: %v", live)
			}
			lid, _ := live["id"].(string)
			if b.d != Dialect01 {
				// Subscribed while it works: the task, then its chunks.
				method := map[Dialect]string{Dialect03: "tasks/resubscribe", Dialect10: "SubscribeToTask"}[b.d]
				var params any = map[string]any{"id": lid}
				if b.rest {
					params = nil // the route names the task
				}
				res := b.sse(t, c, method, "/tasks/"+lid+":subscribe", params)
				if len(res) == 0 || tStreamTaskID(b.d, res[0]) != lid {
					t.Fatalf("subscription: %v", res)
				}
				tCheckArtifactStream(t, "subscription", b.d, res, lid, "Vendor D")
			}
			time.Sleep(cfg.Limits.WorkTime + 50*time.Millisecond)
			tCheckTaskArtifacts(t, "get after the work", b.d, b.get(t, c, lid), "Vendor D")

			var res []map[string]any
			if b.rest {
				res = b.sse(t, c, "", "/message:stream", map[string]any{"message": tMessage(Dialect10, "streamed", nil)})
			} else {
				res = b.sse(t, c, tDialectOf(t, b.d).Stream, "", tSendParams(b.d, "streamed", ""))
			}
			if len(res) == 0 {
				t.Fatal("empty stream")
			}
			sid := tStreamTaskID(b.d, res[0])
			if b.d == Dialect01 {
				sid, _ = res[0]["id"].(string)
			}
			tCheckArtifactStream(t, "stream", b.d, res, sid, "Vendor D")

			if b.d == Dialect10 {
				var list map[string]any
				if b.rest {
					list = tREST(t, c, "GET", "/tasks?includeArtifacts=true&pageSize=1", "", nil).JSON
				} else {
					list = tRPC(t, c, tRPCD, "1.0", "ListTasks", map[string]any{"includeArtifacts": true, "pageSize": 1}).Result()
				}
				newest, _ := tPath(list, "tasks", 0).(map[string]any)
				if newest["id"] != sid {
					t.Fatalf("ListTasks: %v", list)
				}
				tCheckTaskArtifacts(t, "ListTasks", b.d, newest, "Vendor D")
			}
		})
	}
}

// TestArtifactsPlainJSONSame: with the artifacts fault the JSON fast path
// (which leaves such tasks to the maps) and Config.PlainJSON answer sends,
// streams and gets byte for byte alike, in every dialect.
func TestArtifactsPlainJSONSame(t *testing.T) {
	norm := regexp.MustCompile(`(t|ctx|a-t)-[0-9a-f]{16}|\d{4}-\d\d-\d\dT[0-9:.]+Z`)
	answers := func(plain bool) []string {
		cfg := DefaultConfig()
		cfg.PlainJSON = plain
		f := tStart(t, cfg)
		if _, err := f.AddFault("d", Spec("artifacts", tArtConfig)); err != nil {
			t.Fatal(err)
		}
		var h *host
		for _, hh := range f.hosts {
			if hh.name == HostRPCD {
				h = hh
			}
		}
		var out []string
		for _, d := range tDialects {
			for _, body := range [][]byte{tEnvelope(d.Send, tSendParams(d.D, "hi <b>&</b> \u00e9", "")), tEnvelope(d.Stream, tSendParams(d.D, "s", ""))} {
				body = regexp.MustCompile(`"id":\d+`).ReplaceAll(body, []byte(`"id":1`))
				body = regexp.MustCompile(`"(m|t01)-\d+"`).ReplaceAll(body, []byte(`"$1-1"`))
				r := httptest.NewRequest(http.MethodPost, "https://"+HostRPCD+DefaultRPCPath, bytes.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("A2A-Version", d.Version)
				w := httptest.NewRecorder()
				h.serve(w, r)
				out = append(out, norm.ReplaceAllString(fmt.Sprintf("%s\n%d\n%s", body, w.Code, w.Body), "X"))
			}
		}
		return out
	}
	fast, plain := answers(false), answers(true)
	if len(fast) != len(plain) {
		t.Fatalf("%d answers with the fast path, %d without", len(fast), len(plain))
	}
	for i := range fast {
		if fast[i] != plain[i] {
			t.Errorf("fast path:\n%s\nplain JSON:\n%s", fast[i], plain[i])
		}
		if !strings.Contains(fast[i], "hello.txt") {
			t.Errorf("answer %d has no configured artifact: %s", i, fast[i])
		}
	}
}

// TestArtifactsConfig: what the fault refuses, each with the field at
// fault, through AddFault, a fleet's config and a fleet file.
func TestArtifactsConfig(t *testing.T) {
	cases := []struct {
		name, config, field string
	}{
		{"no parts", `{"artifacts":[{"name":"a"}]}`, "config.artifacts[0].parts"},
		{"empty parts", `{"artifacts":[{"parts":[]}]}`, "config.artifacts[0].parts"},
		{"unknown kind", `{"artifacts":[{"parts":[{"kind":"image"}]}]}`, "config.artifacts[0].parts[0].kind"},
		{"file without uri or bytes", `{"artifacts":[{"parts":[{"kind":"text"},{"kind":"file","name":"x"}]}]}`, "config.artifacts[0].parts[1].uri"},
		{"file with both", `{"artifacts":[{"parts":[{"kind":"file","uri":"https://h.example/x","bytes":"aGk="}]}]}`, "config.artifacts[0].parts[0].bytes"},
		{"relative uri", `{"artifacts":[{"parts":[{"kind":"file","uri":"/x.pdf"}]}]}`, "config.artifacts[0].parts[0].uri"},
		{"bytes not base64", `{"artifacts":[{"parts":[{"kind":"file","bytes":"not base64!"}]}]}`, "config.artifacts[0].parts[0].bytes"},
		{"data not an object", `{"artifacts":[{"parts":[{"kind":"data","data":[1,2]}]}]}`, "config.artifacts[0].parts[0].data"},
		{"data null", `{"artifacts":[{"parts":[{"kind":"data","data":null}]}]}`, "config.artifacts[0].parts[0].data"},
		{"text with data", `{"artifacts":[{"parts":[{"text":"t","data":{}}]}]}`, "config.artifacts[0].parts[0].data"},
		{"data with text", `{"artifacts":[{"parts":[{"kind":"data","text":"t"}]}]}`, "config.artifacts[0].parts[0].text"},
		{"file with text", `{"artifacts":[{"parts":[{"kind":"file","uri":"https://h.example/x","text":"t"}]}]}`, "config.artifacts[0].parts[0].text"},
		{"mimeType on text", `{"artifacts":[{"parts":[{"text":"t","mimeType":"text/plain"}]}]}`, "config.artifacts[0].parts[0].mimeType"},
		{"chunks past the parts", `{"artifacts":[{"parts":[{}],"chunks":2}]}`, "config.artifacts[0].chunks"},
		{"an empty artifact first", `{"artifacts":[{},{"parts":[{}],"chunks":-1}]}`, "config.artifacts[0].parts"},
		{"negative chunks", `{"artifacts":[{"parts":[{}]},{"parts":[{}],"chunks":-1}]}`, "config.artifacts[1].chunks"},
		{"unknown field", `{"artifacts":[{"parts":[{"kind":"file","url":"https://h.example/x"}]}]}`, "config"},
		{"ill-typed", `{"artifacts":{"parts":[]}}`, "config"},
	}
	f := tStart(t, tFaultConfig())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.AddFault("x", FaultSpec{Type: "artifacts", Config: json.RawMessage(tc.config)})
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(ce.Msg, "artifacts") {
				t.Errorf("AddFault(%s) = %v, want a ConfigError on %s", tc.config, err, tc.field)
			}
		})
	}
	for _, ok := range []string{`{}`, `{"artifacts":[]}`, `{"artifacts":[{"parts":[{}]}]}`, string(tMarshal(t, tArtConfig))} {
		id, err := f.AddFault("x", FaultSpec{Type: "artifacts", Config: json.RawMessage(ok)})
		if err != nil {
			t.Errorf("%s refused: %v", ok, err)
			continue
		}
		if err := f.RemoveFault("x", id); err != nil {
			t.Fatal(err)
		}
	}

	// At start-up the field is placed under the vendor's fault.
	cfg := tFaultConfig()
	cfg.Vendors[0].Faults = []FaultSpec{{Type: "artifacts", Config: json.RawMessage(`{"artifacts":[{"parts":[{"kind":"file"}]}]}`)}}
	_, err := NewUnstartedFleet(cfg)
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != "vendors[0].faults[0].config.artifacts[0].parts[0].uri" {
		t.Errorf("NewUnstartedFleet: %v", err)
	}

	// A fleet file (fleet up --config): the example of docs/fleet-config.md
	// reads, and a bad part is an error with its line and field.
	doc, err := os.ReadFile(filepath.Join("..", "docs", "fleet-config.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(faults:\n  - type: artifacts\n.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/fleet-config.md has no artifacts example")
	}
	head := "vendors:\n  - id: x\n    hosts:\n      - name: agent-x.example\n        rpcPath: /a2a\n"
	file := head + regexp.MustCompile(`(?m)^`).ReplaceAllString(string(m[1]), "    ")
	path := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadConfig(path)
	if err != nil {
		t.Fatalf("the documented example:\n%s\n%v", file, err)
	}
	fs := got.Vendors[0].Faults
	if len(fs) != 1 || fs[0].Type != "artifacts" {
		t.Fatalf("faults %+v", fs)
	}
	var a TaskArtifacts
	err = json.Unmarshal(fs[0].Config, &a)
	if err != nil || len(a.Artifacts) != 2 || a.Artifacts[0].Chunks != 2 || a.Artifacts[1].Parts[1].Bytes != "aGVsbG8=" {
		t.Errorf("the documented example reads as %+v, %v", a, err)
	}
	if _, err := f.AddFault("x", fs[0]); err != nil {
		t.Errorf("the documented example is refused: %v", err)
	}
	bad := strings.Replace(file, `uri: "https://files.agent-d.example/q3.pdf", `, "", 1)
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadConfig(path)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Field != "vendors[0].faults[0].config.artifacts[0].parts[1].uri" || fe.Line == 0 {
		t.Errorf("a file part without uri: %v", err)
	}
}
