package mockvendor

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// tPushMethods are a dialect's push-config method names: set, get, list,
// delete ("" where the dialect has none).
var tPushMethods = map[Dialect][4]string{
	Dialect01: {"tasks/pushNotification/set", "tasks/pushNotification/get", "", ""},
	Dialect03: {"tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete"},
	Dialect10: {"CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig"},
}

// tPushSetParams is a set's params in dialect d for task, config id cfg.
func tPushSetParams(d Dialect, task, cfg, url string) map[string]any {
	auth := map[string]any{"scheme": "Bearer", "credentials": "tok"}
	switch d {
	case Dialect01:
		return map[string]any{"id": task, "pushNotificationConfig": map[string]any{"url": url, "token": "t1", "authentication": map[string]any{"schemes": []string{"Bearer"}}}}
	case Dialect03:
		return map[string]any{"taskId": task, "pushNotificationConfig": map[string]any{"id": cfg, "url": url, "token": "t1", "authentication": map[string]any{"schemes": []string{"Bearer"}}}}
	}
	return map[string]any{"taskId": task, "id": cfg, "url": url, "token": "t1", "authentication": auth}
}

// tPushRef is the params naming task's config cfg in dialect d.
func tPushRef(d Dialect, task, cfg string) map[string]any {
	switch d {
	case Dialect01:
		return map[string]any{"id": task}
	case Dialect03:
		return map[string]any{"id": task, "pushNotificationConfigId": cfg}
	}
	return map[string]any{"taskId": task, "id": cfg}
}

// tPushURLOf reads the url of a TaskPushNotificationConfig in dialect d.
func tPushURLOf(d Dialect, v any) any {
	if d == Dialect10 {
		return tPath(v, "url")
	}
	return tPath(v, "pushNotificationConfig", "url")
}

// TestPushNotificationCapability: push-config methods follow
// capabilities.pushNotifications (A2A 1.0.1 §3.3.4). Without it (D with
// the flag turned off; the default D has it) every method of every
// dialect and binding answers -32003; with it a config is set, read,
// listed and deleted per dialect, over JSON-RPC and HTTP+JSON, on a real
// TLS fleet.
func TestPushNotificationCapability(t *testing.T) {
	rpc := "https://" + HostRPCD + DefaultRPCPath
	if !VendorD().Card.PushNotifications {
		t.Error("the default D does not claim push notifications")
	}
	t.Run("off", func(t *testing.T) {
		off := VendorD()
		off.Card.PushNotifications = false
		f := tStart(t, Config{Vendors: []VendorConfig{off}})
		c := tClient(t, f, tViaProxy)
		card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil)
		if tPath(card.JSON, "capabilities", "pushNotifications") != false {
			t.Errorf("card capabilities %v", tPath(card.JSON, "capabilities"))
		}
		for _, dc := range tDialects {
			task, _ := tTask(tSend(t, c, rpc, dc.D, "x", ""))["id"].(string)
			for _, m := range tPushMethods[dc.D] {
				if m == "" {
					continue
				}
				r := tRPC(t, c, rpc, dc.Version, m, tPushSetParams(dc.D, task, "c1", "https://hook.example/a"))
				tWantCode(t, m, r, -32003)
			}
		}
		for _, rt := range []struct{ method, path, body string }{
			{"POST", "/tasks/t-1/pushNotificationConfigs", `{"url":"https://hook.example/a"}`},
			{"GET", "/tasks/t-1/pushNotificationConfigs", ""},
			{"GET", "/tasks/t-1/pushNotificationConfigs/c1", ""},
			{"DELETE", "/tenant-a/tasks/t-1/pushNotificationConfigs/c1", ""},
		} {
			tRESTError(t, rt.method+" "+rt.path, tREST(t, c, rt.method, rt.path, rt.body, nil), http.StatusBadRequest, "PUSH_NOTIFICATION_NOT_SUPPORTED")
		}
	})

	cfg := VendorD()
	cfg.Card.PushNotifications = true
	f := tStart(t, Config{Vendors: []VendorConfig{cfg}})
	for _, route := range tRoutes {
		c := tClient(t, f, route)
		t.Run(string(route), func(t *testing.T) {
			card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil)
			if tPath(card.JSON, "capabilities", "pushNotifications") != true {
				t.Fatalf("card capabilities %v", tPath(card.JSON, "capabilities"))
			}
			for _, dc := range tDialects {
				d, ms := dc.D, tPushMethods[dc.D]
				t.Run(string(d), func(t *testing.T) {
					task, _ := tTask(tSend(t, c, rpc, d, "x", ""))["id"].(string)
					if task == "" {
						t.Fatal("no task")
					}
					r := tRPC(t, c, rpc, dc.Version, ms[0], tPushSetParams(d, task, "c1", "https://hook.example/a"))
					if r.Code() != 0 || tPushURLOf(d, r.JSON["result"]) != "https://hook.example/a" {
						t.Fatalf("set: %s", r.Body)
					}
					r = tRPC(t, c, rpc, dc.Version, ms[1], tPushRef(d, task, "c1"))
					if r.Code() != 0 || tPushURLOf(d, r.JSON["result"]) != "https://hook.example/a" || tPath(r.JSON["result"], "token") == nil && tPath(r.JSON["result"], "pushNotificationConfig", "token") != "t1" {
						t.Errorf("get: %s", r.Body)
					}
					tWantCode(t, "set on an unknown task", tRPC(t, c, rpc, dc.Version, ms[0], tPushSetParams(d, "t-none", "c1", "https://hook.example/a")), -32001)
					tWantCode(t, "set without a url", tRPC(t, c, rpc, dc.Version, ms[0], tPushSetParams(d, task, "c2", "")), -32602)
					if ms[2] == "" {
						return // 0.1 has set and get only
					}
					// A second config, replaced once: two in the list.
					tRPC(t, c, rpc, dc.Version, ms[0], tPushSetParams(d, task, "c2", "https://hook.example/b"))
					tRPC(t, c, rpc, dc.Version, ms[0], tPushSetParams(d, task, "c2", "https://hook.example/c"))
					r = tRPC(t, c, rpc, dc.Version, ms[2], map[string]any{"id": task, "taskId": task})
					list := tAsList(r.JSON["result"])
					if d == Dialect10 {
						list = tAsList(tPath(r.JSON["result"], "configs"))
					}
					if r.Code() != 0 || len(list) != 2 || tPushURLOf(d, list[1]) != "https://hook.example/c" {
						t.Errorf("list: %s", r.Body)
					}
					tWantCode(t, "get of an unknown config", tRPC(t, c, rpc, dc.Version, ms[1], tPushRef(d, task, "nope")), -32602)
					for i := range 2 { // delete is idempotent
						if r = tRPC(t, c, rpc, dc.Version, ms[3], tPushRef(d, task, "c1")); r.Code() != 0 {
							t.Errorf("delete %d: %s", i, r.Body)
						}
					}
					tWantCode(t, "get after delete", tRPC(t, c, rpc, dc.Version, ms[1], tPushRef(d, task, "c1")), -32602)
				})
			}
			t.Run("proto field names", func(t *testing.T) {
				// task_id, as the official TCK's JSON-RPC client sends it
				// (ProtoJSON parsers take the proto name too).
				task, _ := tTask(tSend(t, c, rpc, Dialect10, "x", ""))["id"].(string)
				r := tRPC(t, c, rpc, "1.0", "CreateTaskPushNotificationConfig", map[string]any{"task_id": task, "id": "p1", "url": "https://hook.example/p"})
				if r.Code() != 0 || tPath(r.JSON["result"], "taskId") != task {
					t.Fatalf("create with task_id: %s", r.Body)
				}
				r = tRPC(t, c, rpc, "1.0", "GetTaskPushNotificationConfig", map[string]any{"task_id": task, "id": "p1"})
				if r.Code() != 0 || tPath(r.JSON["result"], "url") != "https://hook.example/p" {
					t.Errorf("get with task_id: %s", r.Body)
				}
			})
			t.Run("http+json", func(t *testing.T) {
				r := tREST(t, c, http.MethodPost, "/message:send", tRESTMsg, nil)
				task, _ := tPath(r.JSON, "task", "id").(string)
				base := "/tasks/" + task + "/pushNotificationConfigs"
				r = tREST(t, c, http.MethodPost, base, `{"id":"r1","url":"https://hook.example/r","token":"tk"}`, nil)
				if r.Status != 200 || tPath(r.JSON, "taskId") != task || tPath(r.JSON, "id") != "r1" {
					t.Fatalf("create: %d %s", r.Status, r.Body)
				}
				r = tREST(t, c, http.MethodPost, "/tenant-a"+base, `{"url":"https://hook.example/s"}`, nil)
				if id, _ := tPath(r.JSON, "id").(string); r.Status != 200 || !strings.HasPrefix(id, "pnc-") {
					t.Errorf("create without id (tenant path): %d %s", r.Status, r.Body)
				}
				if r = tREST(t, c, http.MethodGet, base+"/r1", "", nil); r.Status != 200 || tPath(r.JSON, "url") != "https://hook.example/r" {
					t.Errorf("get: %d %s", r.Status, r.Body)
				}
				if r = tREST(t, c, http.MethodGet, base, "", nil); r.Status != 200 || len(tAsList(tPath(r.JSON, "configs"))) != 2 {
					t.Errorf("list: %d %s", r.Status, r.Body)
				}
				for range 2 {
					if r = tREST(t, c, http.MethodDelete, base+"/r1", "", nil); r.Status != 200 {
						t.Errorf("delete: %d %s", r.Status, r.Body)
					}
				}
				tRESTError(t, "get after delete", tREST(t, c, http.MethodGet, base+"/r1", "", nil), http.StatusBadRequest, "INVALID_PARAMS")
				tRESTError(t, "unknown task", tREST(t, c, http.MethodGet, "/tasks/t-none/pushNotificationConfigs", "", nil), http.StatusNotFound, "TASK_NOT_FOUND")
				tRESTError(t, "PUT is no route", tREST(t, c, http.MethodPut, base+"/r1", "", nil), http.StatusNotFound, "")
			})
		})
	}
}

// TestPushDeleteFirst: a delete that is the vendor's first push-config
// method succeeds (a delete is idempotent), in every dialect that has one,
// rather than breaking off the connection.
func TestPushDeleteFirst(t *testing.T) {
	for _, dc := range tDialects {
		m := tPushMethods[dc.D][3]
		if m == "" {
			continue
		}
		t.Run(dc.Version, func(t *testing.T) {
			f := tPushD(t, time.Minute)
			c := tClient(t, f, tViaProxy)
			task, _ := tTask(tSend(t, c, tRPCD, dc.D, "x", ""))["id"].(string)
			tWantCode(t, m, tRPC(t, c, tRPCD, dc.Version, m, tPushRef(dc.D, task, "c1")), 0)
		})
	}
}

// TestExtendedCardCapability: the extended card follows its card flag
// (A2A 1.0.1 §3.3.4): undeclared, GetExtendedAgentCard and
// agent/getAuthenticatedExtendedCard answer -32004 (HTTP+JSON 400);
// declared, the card says so in both generations' members and the methods
// answer the extended card in the request's generation; declared but
// unconfigured, -32007.
func TestExtendedCardCapability(t *testing.T) {
	rpc := "https://" + HostRPCD + DefaultRPCPath
	served, unconf := VendorD(), VendorD()
	// Public: no Auth (TestExtendedCardAuth has the authenticated case).
	served.Card.ExtendedCard = &ExtendedCardConfig{Public: true}
	unconf.Card.ExtendedCard = &ExtendedCardConfig{Unconfigured: true, Public: true}
	for _, tc := range []struct {
		name string
		cfg  VendorConfig
		code int // 0: the card
	}{
		{"undeclared", VendorD(), -32004},
		{"declared", served, 0},
		{"unconfigured", unconf, -32007},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tStart(t, Config{Vendors: []VendorConfig{tc.cfg}})
			c := tClient(t, f, tViaResolve)
			card := tGet(t, c, tURL(t, f, HostCardD, CardPath), nil).JSON
			declared := tc.cfg.Card.ExtendedCard != nil
			if got := tPath(card, "capabilities", "extendedAgentCard"); declared != (got == true) {
				t.Errorf("capabilities.extendedAgentCard %v", got)
			}
			if got := tPath(card, "supportsAuthenticatedExtendedCard"); declared != (got == true) {
				t.Errorf("supportsAuthenticatedExtendedCard %v", got)
			}
			for _, call := range []struct {
				version, method string
				legacy          bool // the answer keeps the 0.3 members
			}{
				{"1.0", "GetExtendedAgentCard", false},
				{"0.3", "agent/getAuthenticatedExtendedCard", true},
				{"", "agent/getAuthenticatedExtendedCard", true},
			} {
				r := tRPC(t, c, rpc, call.version, call.method, map[string]any{})
				if tc.code != 0 {
					tWantCode(t, call.method, r, tc.code)
					continue
				}
				res := r.Result()
				if r.Code() != 0 || tPath(res, "name") != tPath(card, "name") || !strings.HasSuffix(tPath(res, "description").(string), "(extended card)") {
					t.Errorf("%s: %s", call.method, r.Body)
				}
				if _, has := res["url"]; has != call.legacy {
					t.Errorf("%s: url present %v, want %v", call.method, has, call.legacy)
				}
				if tPath(res, "supportedInterfaces") == nil {
					t.Errorf("%s: no supportedInterfaces", call.method)
				}
			}
			r := tREST(t, c, http.MethodGet, "/extendedAgentCard", "", nil)
			switch tc.code {
			case 0:
				if r.Status != 200 || tPath(r.JSON, "url") != nil || tPath(r.JSON, "capabilities", "extendedAgentCard") != true {
					t.Errorf("REST extended card: %d %s", r.Status, r.Body)
				}
			case -32004:
				tRESTError(t, "REST extended card", r, http.StatusBadRequest, "UNSUPPORTED_OPERATION")
			case -32007:
				tRESTError(t, "REST extended card", r, http.StatusBadRequest, "EXTENDED_AGENT_CARD_NOT_CONFIGURED")
			}
		})
	}
	// A 1.0-only vendor's card carries no 0.3 flag.
	v10 := served
	v10.Versions = []string{"1.0"}
	f := tStart(t, Config{Vendors: []VendorConfig{v10}})
	card := tGet(t, tClient(t, f, tViaProxy), tURL(t, f, HostCardD, CardPath), nil).JSON
	if _, has := card["supportsAuthenticatedExtendedCard"]; has || tPath(card, "capabilities", "extendedAgentCard") != true {
		t.Errorf("1.0-only card: %v", card)
	}
}

// TestPushBadInput: the push-config methods' bad-input table, with the
// capability on: wrong types and missing members are -32602 over
// JSON-RPC; over HTTP+JSON a body that is not JSON by its Content-Type is
// 415, malformed JSON 400 PARSE_ERROR, a body that is no object 400
// INVALID_PARAMS, an oversized one 413; every request is in the trace.
func TestPushBadInput(t *testing.T) {
	cfg := VendorD()
	cfg.Card.PushNotifications = true
	f := tStart(t, Config{Vendors: []VendorConfig{cfg}, Limits: Limits{MaxBody: 4096}})
	c := tClient(t, f, tViaProxy)
	rpc := "https://" + HostRPCD + DefaultRPCPath
	task, _ := tTask(tSend(t, c, rpc, Dialect10, "x", ""))["id"].(string)
	seq := f.Trace().Seq()
	for _, tc := range []struct {
		name, version, method string
		params                any
	}{
		{"params an array", "1.0", "CreateTaskPushNotificationConfig", []any{1}},
		{"taskId a number", "1.0", "CreateTaskPushNotificationConfig", map[string]any{"taskId": 5, "url": "https://h.example"}},
		{"url a number", "1.0", "CreateTaskPushNotificationConfig", map[string]any{"taskId": task, "url": 5}},
		{"no taskId", "1.0", "ListTaskPushNotificationConfigs", map[string]any{}},
		{"get without config id", "1.0", "GetTaskPushNotificationConfig", map[string]any{"taskId": task}},
		{"delete without config id", "1.0", "DeleteTaskPushNotificationConfig", map[string]any{"taskId": task}},
		{"0.3 config a string", "0.3", "tasks/pushNotificationConfig/set", map[string]any{"taskId": task, "pushNotificationConfig": "x"}},
		{"0.3 set without config", "0.3", "tasks/pushNotificationConfig/set", map[string]any{"taskId": task}},
		{"0.3 delete without config id", "0.3", "tasks/pushNotificationConfig/delete", map[string]any{"id": task}},
		{"0.1 set without id", "", "tasks/pushNotification/set", map[string]any{"pushNotificationConfig": map[string]any{"url": "https://h.example"}}},
	} {
		r := tRPC(t, c, rpc, tc.version, tc.method, tc.params)
		tWantCode(t, tc.name, r, -32602)
	}
	base := "/tasks/" + task + "/pushNotificationConfigs"
	tRESTError(t, "text/plain body", tREST(t, c, http.MethodPost, base, `{"url":"https://h.example"}`, map[string]string{"Content-Type": "text/plain"}), http.StatusUnsupportedMediaType, "CONTENT_TYPE_NOT_SUPPORTED")
	tRESTError(t, "malformed JSON", tREST(t, c, http.MethodPost, base, `{"url":`, nil), http.StatusBadRequest, "PARSE_ERROR")
	tRESTError(t, "body an array", tREST(t, c, http.MethodPost, base, `[1]`, nil), http.StatusBadRequest, "INVALID_PARAMS")
	tRESTError(t, "no url", tREST(t, c, http.MethodPost, base, `{"token":"t"}`, nil), http.StatusBadRequest, "INVALID_PARAMS")
	if r := tREST(t, c, http.MethodPost, base, `{"url":"`+strings.Repeat("a", 5000)+`"}`, nil); r.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: HTTP %d %s", r.Status, r.Body)
	}
	if n := len(tEvents(f, seq)); n != 15 {
		t.Errorf("%d trace events for 15 bad requests", n)
	}
}
