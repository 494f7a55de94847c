package mockvendor

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
)

// tHonestConfig is the default fleet with C serving 1.0 only and a work
// time long enough for a non-blocking task to stay live through a test.
func tHonestConfig() Config {
	cfg := DefaultConfig()
	for i := range cfg.Vendors {
		if cfg.Vendors[i].ID == "c" {
			cfg.Vendors[i].Versions = []string{"1.0"}
			cfg.Vendors[i].Faults = nil
		}
	}
	cfg.Limits.WorkTime = 3 * time.Second
	return cfg
}

var tRPCC = "https://" + HostC + DefaultRPCPath

// TestVersionNegotiation: each vendor serves its versions (A2A 1.0 §3.6):
// no header is 0.3, an unsupported version is -32009 with the supported
// versions (0.x: an object; 1.0: ErrorInfo), a method of another
// generation than the version's is -32601, patch numbers do not count.
func TestVersionNegotiation(t *testing.T) {
	f := tStart(t, tHonestConfig())
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		name, url, version, method string
		d                          Dialect
		code                       int
		supported                  []string
	}{
		{"1.0 at D", tRPCD, "1.0", "SendMessage", Dialect10, 0, nil},
		{"1.0 patch at D", tRPCD, "1.0.1", "SendMessage", Dialect10, 0, nil},
		{"0.3 at D", tRPCD, "0.3", "message/send", Dialect03, 0, nil},
		{"no header is 0.3", tRPCD, "", "message/send", Dialect03, 0, nil},
		{"0.1 names without header", tRPCD, "", "tasks/send", Dialect01, 0, nil},
		{"99.0 at D (1.0 method)", tRPCD, "99.0", "SendMessage", Dialect10, -32009, []string{"1.0", "0.3"}},
		{"2.0 at D (0.3 method)", tRPCD, "2.0", "message/send", Dialect03, -32009, []string{"1.0", "0.3"}},
		{"0.1 names with 1.0 (the seeds' mix)", tRPCD, "1.0", "tasks/send", Dialect01, -32601, nil},
		{"0.3 method with 1.0", tRPCD, "1.0", "message/send", Dialect03, -32601, nil},
		{"1.0 method without header", tRPCD, "", "SendMessage", Dialect10, -32601, nil},
		{"1.0 method with 0.3", tRPCD, "0.3", "SendMessage", Dialect10, -32601, nil},
		{"1.0-only C without header", tRPCC, "", "message/send", Dialect03, -32009, []string{"1.0"}},
		{"1.0-only C with 0.3", tRPCC, "0.3", "message/send", Dialect03, -32009, []string{"1.0"}},
		{"1.0-only C with 1.0", tRPCC, "1.0", "SendMessage", Dialect10, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tRPC(t, c, tc.url, tc.version, tc.method, tSendParams(tc.d, "x", ""))
			if tc.code == 0 {
				tWantState(t, tc.name, r, "completed")
				return
			}
			tWantCode(t, tc.name, r, tc.code)
			if tc.supported == nil {
				return
			}
			got := tStrings(tPath(r.Err(), "data", "supportedVersions"))
			if tc.d == Dialect10 {
				// A 1.0 request's error data is the ErrorInfo array.
				got = tStrings(tPath(r.Err(), "data", 1, "supportedVersions"))
				if tPath(r.Err(), "data", 0, "reason") != "VERSION_NOT_SUPPORTED" {
					t.Errorf("ErrorInfo %v", tPath(r.Err(), "data"))
				}
			}
			if !slices.Equal(got, tc.supported) {
				t.Errorf("supportedVersions %v, want %v (%s)", got, tc.supported, r.Body)
			}
		})
	}
	t.Run("query parameter", func(t *testing.T) {
		r := tRPC(t, c, tRPCD+"?A2A-Version=1.0", "", "SendMessage", tSendParams(Dialect10, "x", ""))
		tWantState(t, "A2A-Version as a query parameter", r, "completed")
	})
}

// tLiveSend sends a non-blocking task in dialect d (it stays live for the
// fleet's work time); ctx names its context when not "".
func tLiveSend(t *testing.T, c *http.Client, d Dialect, ctx string) map[string]any {
	t.Helper()
	dc := tDialectOf(t, d)
	p := tSendParams(d, "live", "")
	if ctx != "" {
		p["message"].(map[string]any)["contextId"] = ctx
	}
	if d == Dialect10 {
		p["configuration"] = map[string]any{"returnImmediately": true}
	} else {
		p["configuration"] = map[string]any{"blocking": false}
	}
	r := tRPC(t, c, tRPCD, dc.Version, dc.Send, p)
	task := tTask(r)
	if task["id"] == nil || tasks.Terminal(tState(r)) {
		t.Fatalf("live send: %s", r.Body)
	}
	return task
}

// tFollowUp is the params of a message to task id in context ctx.
func tFollowUp(d Dialect, id, ctx string) map[string]any {
	m := tMessage(d, "more", nil)
	m["taskId"] = id
	if ctx != "" {
		m["contextId"] = ctx
	}
	return map[string]any{"message": m}
}

// TestTaskContinuation: a message naming a taskId continues that task,
// per dialect: unknown -32001, terminal -32004, another contextId -32602;
// a live task takes it and shows it in its history, which historyLength
// cuts on the send and on the get.
func TestTaskContinuation(t *testing.T) {
	f := tStart(t, tHonestConfig())
	c := tClient(t, f, tViaProxy)
	for _, d := range []Dialect{Dialect03, Dialect10} {
		dc := tDialectOf(t, d)
		t.Run(string(d), func(t *testing.T) {
			done := tTask(tSend(t, c, tRPCD, d, "first", ""))
			live := tLiveSend(t, c, d, "")
			liveID, liveCtx := live["id"].(string), live["contextId"].(string)
			cases := []struct {
				name   string
				params map[string]any
				code   int
			}{
				{"unknown task", tFollowUp(d, "t-nope", ""), -32001},
				{"terminal task", tFollowUp(d, done["id"].(string), ""), -32004},
				{"other context", tFollowUp(d, liveID, "ctx-other"), -32602},
				{"live task", tFollowUp(d, liveID, liveCtx), 0},
				{"live task, context inferred", tFollowUp(d, liveID, ""), 0},
			}
			for _, tc := range cases {
				r := tRPC(t, c, tRPCD, dc.Version, dc.Send, tc.params)
				if tc.code != 0 {
					tWantCode(t, tc.name, r, tc.code)
					continue
				}
				if task := tTask(r); task["id"] != liveID || task["contextId"] != liveCtx {
					t.Errorf("%s: answered task %v, want %s in %s", tc.name, task["id"], liveID, liveCtx)
				}
			}
			if h := tAsList(tTask(tRPC(t, c, tRPCD, dc.Version, dc.Get, map[string]any{"id": liveID}))["history"]); len(h) != 3 {
				t.Errorf("history holds %d messages, want 3", len(h))
			}
			count := 3
			for _, n := range []int{0, 1, 2, 10} {
				r := tRPC(t, c, tRPCD, dc.Version, dc.Get, map[string]any{"id": liveID, "historyLength": n})
				if h := tAsList(tTask(r)["history"]); len(h) != min(n, count) {
					t.Errorf("get historyLength %d: %d messages of %d", n, len(h), count)
				}
				p := tFollowUp(d, liveID, "")
				p["configuration"] = map[string]any{"historyLength": n}
				count++
				if h := tAsList(tTask(tRPC(t, c, tRPCD, dc.Version, dc.Send, p))["history"]); len(h) != min(n, count) {
					t.Errorf("send historyLength %d: %d messages of %d", n, len(h), count)
				}
			}
			tWantCode(t, "negative historyLength", tRPC(t, c, tRPCD, dc.Version, dc.Get, map[string]any{"id": liveID, "historyLength": -1}), -32602)
		})
	}
}

// TestStrictShapes: each dialect reads its own shapes only, with -32602.
func TestStrictShapes(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	m10 := func(edit func(m map[string]any)) map[string]any {
		m := tMessage(Dialect10, "x", nil)
		edit(m)
		return map[string]any{"message": m}
	}
	m03 := func(edit func(m map[string]any)) map[string]any {
		m := tMessage(Dialect03, "x", nil)
		edit(m)
		return map[string]any{"message": m}
	}
	cases := []struct {
		name    string
		d       Dialect
		params  map[string]any
		code    int
		message string
	}{
		{"1.0 with role user", Dialect10, m10(func(m map[string]any) { m["role"] = "user" }), -32602, "role"},
		{"1.0 with kind parts", Dialect10, m10(func(m map[string]any) { m["parts"] = []any{map[string]any{"kind": "text", "text": "x"}} }), -32602, "kind"},
		{"1.0 with message kind", Dialect10, m10(func(m map[string]any) { m["kind"] = "message" }), -32602, "kind"},
		{"0.3 with ROLE_USER", Dialect03, m03(func(m map[string]any) { m["role"] = "ROLE_USER" }), -32602, "role"},
		{"0.3 with member parts", Dialect03, m03(func(m map[string]any) { m["parts"] = []any{map[string]any{"text": "x"}} }), -32602, "kind"},
		{"1.0 without messageId", Dialect10, m10(func(m map[string]any) { delete(m, "messageId") }), -32602, "messageId"},
		{"0.3 without messageId", Dialect03, m03(func(m map[string]any) { delete(m, "messageId") }), -32602, "messageId"},
		{"0.1 without id", Dialect01, map[string]any{"message": tMessage(Dialect01, "x", nil)}, -32602, "params.id"},
		{"0.1 with id", Dialect01, tSendParams(Dialect01, "x", ""), 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dc := tDialectOf(t, tc.d)
			r := tRPC(t, c, tRPCD, dc.Version, dc.Send, tc.params)
			if tc.code == 0 {
				tWantState(t, tc.name, r, "completed")
				return
			}
			tWantCode(t, tc.name, r, tc.code)
			if msg, _ := r.Err()["message"].(string); !strings.Contains(msg, tc.message) {
				t.Errorf("message %q does not name %q", msg, tc.message)
			}
		})
	}
}

// TestNotificationNotAnswered: a request without an id member gets no
// answer (HTTP 204, no body) in every dialect, for a success and an error
// alike, and the trace records it.
func TestNotificationNotAnswered(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	for _, dc := range tDialects {
		for _, method := range []string{dc.Send, "no/such/method"} {
			t.Run(string(dc.D)+" "+method, func(t *testing.T) {
				body := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":%q,"params":%s}`, method, tMarshal(t, tSendParams(dc.D, "x", "")))
				seq := f.Trace().Seq()
				r := tPost(t, c, tRPCD, body, map[string]string{"A2A-Version": dc.Version})
				if r.Status != http.StatusNoContent || len(r.Body) != 0 {
					t.Errorf("notification answered %d %q", r.Status, r.Body)
				}
				ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Method == method })
				if ev.Status != http.StatusNoContent {
					t.Errorf("trace status %d", ev.Status)
				}
			})
		}
	}
	t.Run("id null is a call", func(t *testing.T) {
		r := tPost(t, c, tRPCD, []byte(`{"jsonrpc":"2.0","id":null,"method":"message/send","params":{}}`), nil)
		if r.Status != http.StatusOK || r.Code() != -32602 {
			t.Errorf("id null: %d %s", r.Status, r.Body)
		}
	})
}

// TestListTasks: ListTasks (1.0) pages the vendor's tasks newest first,
// filtered by context and state, artifacts only on request, with -32602
// for a bad page size or token; a 0.3 request cannot call it.
func TestListTasks(t *testing.T) {
	f := tStart(t, tHonestConfig())
	c := tClient(t, f, tViaProxy)
	ctx := "ctx-list"
	var ids []string
	for i := 0; i < 3; i++ {
		p := tSendParams(Dialect10, fmt.Sprint("list ", i), "")
		p["message"].(map[string]any)["contextId"] = ctx
		ids = append(ids, tTask(tRPC(t, c, tRPCD, "1.0", "SendMessage", p))["id"].(string))
	}
	live := tLiveSend(t, c, Dialect10, ctx)["id"].(string)
	tSend(t, c, tRPCD, Dialect10, "elsewhere", "")
	list := func(p map[string]any) *tResp { return tRPC(t, c, tRPCD, "1.0", "ListTasks", p) }
	taskIDs := func(r *tResp) []string {
		var out []string
		for _, tk := range tAsList(r.Result()["tasks"]) {
			out = append(out, tPath(tk, "id").(string))
		}
		return out
	}
	newest := []string{live, ids[2], ids[1], ids[0]}
	cases := []struct {
		name   string
		params map[string]any
		want   []string
		next   bool
		code   int
	}{
		{"context", map[string]any{"contextId": ctx}, newest, false, 0},
		{"first page", map[string]any{"contextId": ctx, "pageSize": 3}, newest[:3], true, 0},
		{"completed only", map[string]any{"contextId": ctx, "status": "TASK_STATE_COMPLETED"}, newest[1:], false, 0},
		{"unknown context", map[string]any{"contextId": "ctx-none"}, nil, false, 0},
		{"page size 0", map[string]any{"pageSize": 0}, nil, false, -32602},
		{"page size 101", map[string]any{"pageSize": 101}, nil, false, -32602},
		{"foreign token", map[string]any{"pageToken": "xyz"}, nil, false, -32602},
		{"bad timestamp", map[string]any{"statusTimestampAfter": "yesterday"}, nil, false, -32602},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := list(tc.params)
			if tc.code != 0 {
				tWantCode(t, tc.name, r, tc.code)
				return
			}
			if got := taskIDs(r); !slices.Equal(got, tc.want) {
				t.Errorf("tasks %v, want %v", got, tc.want)
			}
			if next, _ := r.Result()["nextPageToken"].(string); (next != "") != tc.next {
				t.Errorf("nextPageToken %q", next)
			}
			for _, tk := range tAsList(r.Result()["tasks"]) {
				if tPath(tk, "artifacts") != nil {
					t.Errorf("artifacts without includeArtifacts: %v", tk)
				}
			}
		})
	}
	t.Run("second page", func(t *testing.T) {
		first := list(map[string]any{"contextId": ctx, "pageSize": 3})
		r := list(map[string]any{"contextId": ctx, "pageSize": 3, "pageToken": first.Result()["nextPageToken"]})
		if got := taskIDs(r); !slices.Equal(got, newest[3:]) || r.Result()["nextPageToken"] != "" || r.Result()["totalSize"] != 4.0 {
			t.Errorf("second page %s", r.Body)
		}
	})
	t.Run("artifacts and history", func(t *testing.T) {
		r := list(map[string]any{"contextId": ctx, "includeArtifacts": true, "historyLength": 0, "status": "TASK_STATE_COMPLETED"})
		for _, tk := range tAsList(r.Result()["tasks"]) {
			if tPath(tk, "artifacts") == nil || tPath(tk, "history") != nil {
				t.Errorf("includeArtifacts, historyLength 0: %v", tk)
			}
		}
	})
	t.Run("0.3 request", func(t *testing.T) {
		tWantCode(t, "ListTasks without header", tRPC(t, c, tRPCD, "", "ListTasks", map[string]any{}), -32601)
	})
}

// TestSubscribe: SubscribeToTask (1.0) and tasks/resubscribe (0.3) stream
// a live task, the task first and its completion last; -32001 for an
// unknown task, -32004 for a terminal one and at a vendor whose card says
// streaming false.
func TestSubscribe(t *testing.T) {
	cfg := tHonestConfig()
	cfg.Limits.WorkTime = 400 * time.Millisecond
	f := tStart(t, cfg)
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		d       Dialect
		version string
		method  string
	}{
		{Dialect03, "0.3", "tasks/resubscribe"},
		{Dialect10, "1.0", "SubscribeToTask"},
	}
	for _, tc := range cases {
		t.Run(tc.method, func(t *testing.T) {
			done := tTask(tSend(t, c, tRPCD, tc.d, "done", ""))["id"]
			for _, e := range []struct {
				name   string
				params map[string]any
				code   int
			}{
				{"unknown task", map[string]any{"id": "t-nope"}, -32001},
				{"terminal task", map[string]any{"id": done}, -32004},
				{"missing id", map[string]any{}, -32602},
			} {
				if tc.d == Dialect10 {
					tWantCode(t, e.name, tRPC(t, c, tRPCD, tc.version, tc.method, e.params), e.code)
					continue
				}
				// A 0.3 subscription's error is the stream's one event
				// (a2a-go reads nothing else).
				resp := tStream(t, c, tRPCD, tc.version, tc.method, e.params)
				evs := tReadSSE(t, resp.Body)
				resp.Body.Close()
				if resp.Header.Get("Content-Type") != "text/event-stream" || len(evs) != 1 || tPath(evs[0], "error", "code") != float64(e.code) {
					t.Errorf("%s: %s %v, want one error event %d", e.name, resp.Header.Get("Content-Type"), evs, e.code)
				}
			}
			live := tLiveSend(t, c, tc.d, "")["id"]
			resp := tStream(t, c, tRPCD, tc.version, tc.method, map[string]any{"id": live})
			evs := tReadSSE(t, resp.Body)
			resp.Body.Close()
			if len(evs) < 2 {
				t.Fatalf("%d events", len(evs))
			}
			first := tPath(evs[0], "result")
			if tc.d == Dialect10 {
				first = tPath(first, "task")
			}
			if tPath(first, "id") != live {
				t.Errorf("first event %v is not the task", evs[0])
			}
			last := tPath(evs[len(evs)-1], "result")
			if tc.d == Dialect10 {
				last = tPath(last, "statusUpdate")
			}
			if s, _ := tPath(last, "status", "state").(string); a2a.NormalState(s) != "completed" {
				t.Errorf("last event %v", evs[len(evs)-1])
			}
		})
	}
	t.Run("streaming false", func(t *testing.T) {
		tWantCode(t, "SubscribeToTask at C", tRPC(t, c, tRPCC, "1.0", "SubscribeToTask", map[string]any{"id": "t-any"}), -32004)
		// A vendor that does not stream opens no stream: its refusal is
		// plain JSON (the official TCK's CORE-CAP-002 reads it so).
		resp := tStream(t, c, tRPCC, "1.0", "SendStreamingMessage", tSendParams(Dialect10, "x", ""))
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var rr map[string]any
		if json.Unmarshal(b, &rr) != nil || tPath(rr, "error", "code") != -32004.0 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("stream at C: %s %s", resp.Header.Get("Content-Type"), b)
		}
	})
}

func tMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
