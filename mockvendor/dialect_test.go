package mockvendor

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

var tRPCD = "https://" + HostRPCD + DefaultRPCPath

// TestDialectSend sends the same task in each dialect and checks the shape
// of the answer.
func TestDialectSend(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		d      tDialectCase
		params map[string]any
		check  func(t *testing.T, r *tResp)
	}{
		{tDialects[0], map[string]any{"id": "client-task-1", "sessionId": "sess-1", "message": tMessage(Dialect01, "reconcile", nil)}, func(t *testing.T, r *tResp) {
			task := r.Result()
			if task["id"] != "client-task-1" || task["sessionId"] != "sess-1" || tPath(task, "status", "state") != "completed" {
				t.Errorf("0.1 task %v", task)
			}
			for _, k := range []string{"kind", "contextId", "history"} {
				if _, ok := task[k]; ok {
					t.Errorf("0.1 task has %q", k)
				}
			}
			if p := tPath(task, "artifacts", 0, "parts", 0); tPath(p, "type") != "text" || tPath(p, "kind") != nil {
				t.Errorf("0.1 artifact part %v", p)
			}
			if tPath(task, "artifacts", 0, "index") != 0.0 {
				t.Errorf("0.1 artifact %v", tPath(task, "artifacts", 0))
			}
			if _, ok := r.Header["A2a-Version"]; ok {
				t.Errorf("0.1 answer carries A2A-Version %q", r.Header.Get("A2A-Version"))
			}
		}},
		{tDialects[1], map[string]any{"message": tMessage(Dialect03, "reconcile", nil)}, func(t *testing.T, r *tResp) {
			task := r.Result()
			if task["kind"] != "task" || tPath(task, "status", "state") != "completed" || task["contextId"] == nil {
				t.Errorf("0.3 task %v", task)
			}
			h := tPath(task, "history", 0)
			if tPath(h, "kind") != "message" || tPath(h, "role") != "user" || tPath(h, "taskId") != task["id"] || !tJSONEqual(tPath(h, "parts"), []any{map[string]any{"kind": "text", "text": "reconcile"}}) {
				t.Errorf("0.3 history %v", h)
			}
			if a := tPath(task, "artifacts", 0); tPath(a, "artifactId") == nil || tPath(a, "parts", 0, "kind") != "text" {
				t.Errorf("0.3 artifact %v", a)
			}
			if r.Header.Get("A2A-Version") != "0.3" {
				t.Errorf("A2A-Version %q", r.Header.Get("A2A-Version"))
			}
		}},
		{tDialects[2], map[string]any{"message": tMessage(Dialect10, "reconcile", nil)}, func(t *testing.T, r *tResp) {
			if len(r.Result()) != 1 {
				t.Errorf("1.0 result %v is not {task}", r.Result())
			}
			task := tTask(r)
			if tPath(task, "status", "state") != "TASK_STATE_COMPLETED" || task["kind"] != nil || task["contextId"] == nil {
				t.Errorf("1.0 task %v", task)
			}
			h := tPath(task, "history", 0)
			if tPath(h, "role") != "ROLE_USER" || tPath(h, "kind") != nil || !tJSONEqual(tPath(h, "parts"), []any{map[string]any{"text": "reconcile"}}) {
				t.Errorf("1.0 history %v", h)
			}
			if p := tPath(task, "artifacts", 0, "parts", 0); tPath(p, "kind") != nil || tPath(p, "type") != nil || tPath(p, "text") == nil {
				t.Errorf("1.0 artifact part %v", p)
			}
			if r.Header.Get("A2A-Version") != "1.0" {
				t.Errorf("A2A-Version %q", r.Header.Get("A2A-Version"))
			}
		}},
	}
	for _, tc := range cases {
		t.Run(string(tc.d.D), func(t *testing.T) {
			seq := f.Trace().Seq()
			r := tRPC(t, c, tRPCD, tc.d.Version, tc.d.Send, tc.params)
			if r.Status != 200 || r.Err() != nil || r.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("HTTP %d: %s", r.Status, r.Body)
			}
			if r.JSON["jsonrpc"] != "2.0" || r.JSON["id"] == nil {
				t.Errorf("envelope %v", r.JSON)
			}
			tc.check(t, r)
			ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Op == OpSend })
			if ev.Dialect != string(tc.d.D) || ev.Method != tc.d.Send || ev.State != "completed" || ev.TaskID != tTask(r)["id"] {
				t.Errorf("trace %+v", ev)
			}
		})
	}
}

// TestDialectStream checks the SSE stream of each dialect.
func TestDialectStream(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaResolve)
	for _, d := range tDialects {
		t.Run(string(d.D), func(t *testing.T) {
			seq := f.Trace().Seq()
			body := tEnvelope(d.Stream, tSendParams(d.D, "stream me", ""))
			var env map[string]any
			_ = json.Unmarshal(body, &env)
			req, _ := http.NewRequest(http.MethodPost, tRPCD, strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			if d.Version != "" {
				req.Header.Set("A2A-Version", d.Version)
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("HTTP %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			evs := tReadSSE(t, resp.Body) // returns at the server's end of stream
			if len(evs) < 2 {
				t.Fatalf("%d events", len(evs))
			}
			var results []map[string]any
			for i, e := range evs {
				if e["jsonrpc"] != "2.0" || e["id"] != env["id"] || e["error"] != nil {
					t.Errorf("event %d envelope %v", i, e)
				}
				res, _ := e["result"].(map[string]any)
				results = append(results, res)
			}
			first, last := results[0], results[len(results)-1]
			var taskID string
			switch d.D {
			case Dialect01:
				taskID, _ = first["id"].(string)
				for i, r := range results {
					if r["id"] != taskID {
						t.Errorf("event %d id %v", i, r["id"])
					}
					if fin, _ := r["final"].(bool); fin != (i == len(results)-1) {
						t.Errorf("event %d final=%v", i, r["final"])
					}
					if s, ok := tPath(r, "status", "state").(string); ok && s != strings.ToLower(s) {
						t.Errorf("0.1 state %q", s)
					}
				}
				if tPath(last, "status", "state") != "completed" {
					t.Errorf("last %v", last)
				}
			case Dialect03:
				taskID, _ = first["id"].(string)
				if first["kind"] != "task" || taskID == "" {
					t.Errorf("first %v", first)
				}
				if last["kind"] != "status-update" || last["final"] != true || tPath(last, "status", "state") != "completed" || last["taskId"] != taskID {
					t.Errorf("last %v", last)
				}
				for i, r := range results[:len(results)-1] {
					if r["final"] == true {
						t.Errorf("event %d is final before the end", i)
					}
				}
			case Dialect10:
				taskID, _ = tPath(first, "task", "id").(string)
				if taskID == "" {
					t.Errorf("first %v", first)
				}
				if tPath(last, "statusUpdate", "status", "state") != "TASK_STATE_COMPLETED" || tPath(last, "statusUpdate", "taskId") != taskID {
					t.Errorf("last %v", last)
				}
				for i, r := range results {
					if len(r) != 1 {
						t.Errorf("event %d result has %d members: %v", i, len(r), r)
					}
					if b, _ := json.Marshal(r); strings.Contains(string(b), `"final"`) {
						t.Errorf("1.0 event %d has final: %s", i, b)
					}
				}
			}
			ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Op == OpStream })
			if ev.TaskID != taskID || ev.State != "completed" || ev.ContentType != "text/event-stream" || ev.Dialect != string(d.D) {
				t.Errorf("trace %+v", ev)
			}
			dc := tDialectOf(t, d.D)
			if r := tRPC(t, c, tRPCD, dc.Version, dc.Get, map[string]any{"id": taskID}); tState(r) != "completed" {
				t.Errorf("get after stream: %s", r.Body)
			}
		})
	}
}

// TestDialectGetCancel checks get and cancel in each dialect, and unknown ids.
func TestDialectGetCancel(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorC(), VendorD()}, Limits: Limits{WorkTime: 5 * time.Second}})
	c := tClient(t, f, tViaProxy)
	for _, d := range tDialects {
		t.Run(string(d.D), func(t *testing.T) {
			r := tSend(t, c, tRPCD, d.D, "x", "")
			id, _ := tTask(r)["id"].(string)
			g := tRPC(t, c, tRPCD, d.Version, d.Get, map[string]any{"id": id})
			tWantState(t, "get", g, "completed")
			if _, wrapped := g.Result()["task"]; wrapped {
				t.Errorf("get result is wrapped: %v", g.Result())
			}
			if d.D == Dialect10 && tRawState(g) != "TASK_STATE_COMPLETED" || d.D != Dialect10 && tRawState(g) != "completed" {
				t.Errorf("get state %q", tRawState(g))
			}
			cr := tRPC(t, c, tRPCD, d.Version, d.Cancel, map[string]any{"id": id})
			tWantCode(t, "cancel completed", cr, -32002)
			for _, m := range []string{d.Get, d.Cancel} {
				r := tRPC(t, c, tRPCD, d.Version, m, map[string]any{"id": "t-never-issued"})
				tWantCode(t, m+" unknown", r, -32001)
				if d.D == Dialect10 {
					if tPath(r.Err(), "data", 0, "reason") != "TASK_NOT_FOUND" {
						t.Errorf("1.0 data %v", tPath(r.Err(), "data"))
					}
				} else if tPath(r.Err(), "data", "taskId") != "t-never-issued" {
					t.Errorf("data %v", tPath(r.Err(), "data"))
				}
			}
			// Another vendor never sees the task.
			tWantCode(t, "other vendor", tRPC(t, c, "https://"+HostC+DefaultRPCPath, d.Version, d.Get, map[string]any{"id": id}), -32001)
			// A cancelable (non-blocking) task.
			if d.D == Dialect01 {
				return
			}
			p := tSendParams(d.D, "long", "")
			p["configuration"] = map[string]any{"blocking": false, "returnImmediately": true}
			r = tRPC(t, c, tRPCD, d.Version, d.Send, p)
			id, _ = tTask(r)["id"].(string)
			tWantState(t, "cancel", tRPC(t, c, tRPCD, d.Version, d.Cancel, map[string]any{"id": id}), "canceled")
			tWantState(t, "get canceled", tRPC(t, c, tRPCD, d.Version, d.Get, map[string]any{"id": id}), "canceled")
		})
	}
	t.Run("GetTask by name", func(t *testing.T) {
		id, _ := tTask(tSend(t, c, tRPCD, Dialect10, "x", ""))["id"].(string)
		tWantState(t, "name", tRPC(t, c, tRPCD, "1.0", "GetTask", map[string]any{"name": "tasks/" + id}), "completed")
		tWantCode(t, "no id", tRPC(t, c, tRPCD, "1.0", "GetTask", map[string]any{}), -32602)
	})
}

// TestDialectNonBlocking: blocking:false / returnImmediately:true answer
// submitted; a get after Limits.WorkTime shows completed.
func TestDialectNonBlocking(t *testing.T) {
	const work = 200 * time.Millisecond
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{WorkTime: work}})
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		d    tDialectCase
		conf map[string]any
		raw  string
	}{
		{tDialects[1], map[string]any{"blocking": false}, "submitted"},
		{tDialects[2], map[string]any{"returnImmediately": true}, "TASK_STATE_SUBMITTED"},
	}
	for _, tc := range cases {
		t.Run(string(tc.d.D), func(t *testing.T) {
			p := tSendParams(tc.d.D, "later", "")
			p["configuration"] = tc.conf
			start := time.Now()
			r := tRPC(t, c, tRPCD, tc.d.Version, tc.d.Send, p)
			if tRawState(r) != tc.raw || tTask(r)["artifacts"] != nil {
				t.Fatalf("send answered %s", r.Body)
			}
			id, _ := tTask(r)["id"].(string)
			if time.Since(start) < work/2 {
				if s := tState(tRPC(t, c, tRPCD, tc.d.Version, tc.d.Get, map[string]any{"id": id})); s == "completed" {
					t.Errorf("completed before WorkTime")
				}
			}
			time.Sleep(time.Until(start.Add(work + 50*time.Millisecond)))
			g := tRPC(t, c, tRPCD, tc.d.Version, tc.d.Get, map[string]any{"id": id})
			tWantState(t, "get after WorkTime", g, "completed")
			if tPath(tTask(g), "artifacts", 0) == nil {
				t.Errorf("completed task without artifact: %s", g.Body)
			}
		})
	}
}

// TestSkillRouting: params.metadata.skillId, then message.metadata.skillId,
// absent = the default skill.
func TestSkillRouting(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	cases := []struct {
		name       string
		d          Dialect
		params     map[string]any
		msgMeta    map[string]any
		wantSkill  string // skill that ran
		traceSkill string
		code       int
	}{
		{"params metadata", Dialect03, map[string]any{"skillId": SkillFXHedging}, nil, SkillFXHedging, SkillFXHedging, 0},
		{"message metadata", Dialect03, nil, map[string]any{"skillId": SkillFXHedging}, SkillFXHedging, SkillFXHedging, 0},
		{"params wins", Dialect03, map[string]any{"skillId": SkillInvoice}, map[string]any{"skillId": SkillFXHedging}, SkillInvoice, SkillInvoice, 0},
		{"empty params falls through", Dialect03, map[string]any{"skillId": ""}, map[string]any{"skillId": SkillFXHedging}, SkillFXHedging, SkillFXHedging, 0},
		{"absent is default", Dialect03, nil, nil, SkillInvoice, "", 0},
		{"1.0 params metadata", Dialect10, map[string]any{"skillId": SkillFXHedging}, nil, SkillFXHedging, SkillFXHedging, 0},
		{"1.0 message metadata", Dialect10, nil, map[string]any{"skillId": SkillFXHedging}, SkillFXHedging, SkillFXHedging, 0},
		{"0.1 params metadata", Dialect01, map[string]any{"skillId": SkillFXHedging}, nil, SkillFXHedging, SkillFXHedging, 0},
		{"unknown skill", Dialect03, map[string]any{"skillId": "nope"}, nil, "", "nope", -32004},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dc := tDialectOf(t, tc.d)
			p := map[string]any{"message": tMessage(tc.d, "route me", tc.msgMeta)}
			if tc.d == Dialect01 {
				p["id"] = "route-" + strings.ReplaceAll(tc.name, " ", "-")
			}
			if tc.params != nil {
				p["metadata"] = tc.params
			}
			seq := f.Trace().Seq()
			r := tRPC(t, c, tRPCD, dc.Version, dc.Send, p)
			ev := tWaitEvent(t, f, seq, func(e Event) bool { return e.Op == OpSend })
			if ev.Skill != tc.traceSkill {
				t.Errorf("trace skill %q, want %q", ev.Skill, tc.traceSkill)
			}
			if tc.code != 0 {
				tWantCode(t, tc.name, r, tc.code)
				if avail := tStrings(tPath(r.Err(), "data", "availableSkills")); !slices.Equal(avail, []string{SkillInvoice, SkillFXHedging}) {
					t.Errorf("availableSkills %v", avail)
				}
				return
			}
			tWantState(t, tc.name, r, "completed")
			out, _ := tPath(tTask(r), "artifacts", 0, "parts", 0, "text").(string)
			if !strings.Contains(out, " ran "+tc.wantSkill+" on ") {
				t.Errorf("artifact %q does not name skill %s", out, tc.wantSkill)
			}
		})
	}
}

// TestDialect01TaskIDsPerVendor: a 0.1 client names its task ids; the same
// id sent to two vendors must stay two tasks.
func TestDialect01TaskIDsPerVendor(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	send := func(u string) {
		p := map[string]any{"id": "shared-1", "message": tMessage(Dialect01, "x", nil)}
		tWantState(t, "send "+u, tRPC(t, c, u, "", "tasks/send", p), "completed")
	}
	send(tRPCD)
	send("https://" + HostC + DefaultRPCPath)
	g := tRPC(t, c, tRPCD, "", "tasks/get", map[string]any{"id": "shared-1"})
	tWantState(t, "D's get", g, "completed")
	if out, _ := tPath(g.Result(), "artifacts", 0, "parts", 0, "text").(string); !strings.HasPrefix(out, "Vendor D ") {
		t.Errorf("D's task answers with %q", out)
	}
	g = tRPC(t, c, "https://"+HostC+DefaultRPCPath, "", "tasks/get", map[string]any{"id": "shared-1"})
	if out, _ := tPath(g.Result(), "artifacts", 0, "parts", 0, "text").(string); !strings.HasPrefix(out, "Vendor C ") {
		t.Errorf("C's task answers with %q", out)
	}
	// Resending the same id to the same vendor replaces the task; the store
	// keeps one entry for it.
	send(tRPCD)
	tWantState(t, "get after resend", tRPC(t, c, tRPCD, "", "tasks/get", map[string]any{"id": "shared-1"}), "completed")
}

// TestTaskStoreCap: past Limits.MaxTasks the oldest tasks are forgotten and
// answer -32001.
func TestTaskStoreCap(t *testing.T) {
	f := tStart(t, Config{Vendors: []VendorConfig{VendorD()}, Limits: Limits{MaxTasks: 10}})
	c := tClient(t, f, tViaResolve)
	var ids []string
	for i := 0; i < 25; i++ {
		id, _ := tTask(tSend(t, c, tRPCD, Dialect03, "x", ""))["id"].(string)
		ids = append(ids, id)
	}
	tWantCode(t, "oldest", tRPC(t, c, tRPCD, "0.3", "tasks/get", map[string]any{"id": ids[0]}), -32001)
	tWantState(t, "newest", tRPC(t, c, tRPCD, "0.3", "tasks/get", map[string]any{"id": ids[24]}), "completed")
}
