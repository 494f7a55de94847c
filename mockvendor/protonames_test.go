package mockvendor

import "testing"

// TestProtoNamesOnTheWire: D takes a 1.0 request's members under their
// proto names (as the official TCK's JSON-RPC client sends them) on
// JSON-RPC and HTTP+JSON, and a 0.3 request's only under their JSON names.
func TestProtoNamesOnTheWire(t *testing.T) {
	f := tStart(t, tHonestConfig())
	c := tClient(t, f, tViaProxy)
	live := tLiveSend(t, c, Dialect10, "")
	id, ctx := live["id"].(string), live["contextId"].(string)
	follow := map[string]any{"message": map[string]any{"role": "ROLE_USER", "message_id": "m-snake", "task_id": id, "context_id": ctx, "parts": []any{map[string]any{"text": "more"}}},
		"configuration": map[string]any{"history_length": 1}}
	r := tRPC(t, c, tRPCD, "1.0", "SendMessage", follow)
	if task := tTask(r); task["id"] != id || len(tAsList(task["history"])) != 1 {
		t.Fatalf("follow-up with proto names: %d %s", r.Status, r.Body)
	}
	cases := []struct {
		name   string
		method string
		params map[string]any
		check  func(r *tResp) bool
	}{
		{"GetTask history_length", "GetTask", map[string]any{"id": id, "history_length": 0}, func(r *tResp) bool {
			return tTask(r)["id"] == id && tTask(r)["history"] == nil
		}},
		{"ListTasks page_size and context_id", "ListTasks", map[string]any{"page_size": 1, "context_id": ctx, "include_artifacts": false}, func(r *tResp) bool {
			ts := tAsList(r.Result()["tasks"])
			return len(ts) == 1 && tPath(ts[0], "contextId") == ctx
		}},
		{"ListTasks bad page_size is checked", "ListTasks", map[string]any{"page_size": 0}, func(r *tResp) bool { return r.Code() == -32602 }},
	}
	for _, tc := range cases {
		if r := tRPC(t, c, tRPCD, "1.0", tc.method, tc.params); !tc.check(r) {
			t.Errorf("%s: %d %s", tc.name, r.Status, r.Body)
		}
	}
	if r := tREST(t, c, "GET", "/tasks/"+id+"?history_length=0", "", nil); r.Status != 200 || r.JSON["history"] != nil {
		t.Errorf("REST get with history_length=0: %d %s", r.Status, r.Body)
	}
	// 0.3 has no proto names: history_length is an unknown member there.
	r03 := tRPC(t, c, tRPCD, "0.3", "tasks/get", map[string]any{"id": id, "history_length": 0})
	if h := tAsList(tTask(r03)["history"]); len(h) < 2 {
		t.Errorf("0.3 tasks/get applied history_length: %s", r03.Body)
	}
}
