package admin_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/mockvendor/admin"
)

const token = "0123456789abcdef0123456789abcdef"

// env is a running default fleet with its admin server.
type env struct {
	f   *mockvendor.Fleet
	srv *admin.Server
	c   *http.Client // to the admin server
	fc  *http.Client // through the fleet's proxy
}

func start(t *testing.T) *env {
	t.Helper()
	return startWith(t, mockvendor.DefaultConfig())
}

// startWith starts the fleet of cfg and its admin server.
func startWith(t *testing.T, cfg mockvendor.Config) *env {
	t.Helper()
	f, err := mockvendor.NewFleet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := admin.Start(f, token)
	if err != nil {
		f.Close()
		t.Fatal(err)
	}
	tr := &http.Transport{}
	ftr := f.Transport()
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		ftr.CloseIdleConnections()
		srv.Close()
		f.Close()
	})
	return &env{f: f, srv: srv, c: &http.Client{Transport: tr, Timeout: 10 * time.Second}, fc: &http.Client{Transport: ftr, Timeout: 10 * time.Second}}
}

// do sends an admin request with the token (auth "" sends none).
func (e *env) do(t *testing.T, method, path, body, auth string) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

var rpcID atomic.Int64

// send posts a 0.3 message/send for skill to an RPC URL through the proxy
// and returns the JSON-RPC error code (0 when none).
func (e *env) send(t *testing.T, url, skill string) int {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-%d","role":"user","parts":[{"kind":"text","text":"reconcile INV-1042"}]},"metadata":{"skillId":%q}}}`,
		rpcID.Add(1), rpcID.Add(1), skill)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "0.3")
	resp, err := e.fc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("answer of %s: %v", url, err)
	}
	if out.Error == nil {
		return 0
	}
	return out.Error.Code
}

const rpcD = "https://" + mockvendor.HostRPCD + mockvendor.DefaultRPCPath

func TestRoutes(t *testing.T) {
	e := start(t)
	bearer := "Bearer " + token
	// One card fetch so the trace has something.
	resp, err := e.fc.Get("https://" + mockvendor.HostCardD + mockvendor.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != 0 {
		t.Fatalf("send to D: error %d", code)
	}

	type check func(t *testing.T, h http.Header, body []byte)
	jsonHas := func(subs ...string) check {
		return func(t *testing.T, _ http.Header, body []byte) {
			for _, s := range subs {
				if !bytes.Contains(body, []byte(s)) {
					t.Errorf("body lacks %s:\n%s", s, body)
				}
			}
		}
	}
	errIs := func(msg, field string) check {
		return func(t *testing.T, _ http.Header, body []byte) {
			var b struct{ Error, Field string }
			if err := json.Unmarshal(body, &b); err != nil {
				t.Fatalf("error body is not JSON: %v: %s", err, body)
			}
			if !strings.Contains(b.Error, msg) || b.Field != field {
				t.Errorf("error body = %s, want error containing %q and field %q", body, msg, field)
			}
		}
	}
	cases := []struct {
		name, method, path, body, auth string
		status                         int
		check                          check
	}{
		// auth
		{"no token", "GET", "/admin/vendors", "", "", 401, errIs("bearer token", "")},
		{"wrong token", "GET", "/admin/vendors", "", "Bearer nope", 401, errIs("bearer token", "")},
		{"basic auth", "GET", "/admin/vendors", "", "Basic " + token, 401, nil},
		{"query token on the API", "GET", "/admin/vendors?token=" + token, "", "", 401, nil},
		{"no token on an unknown route", "GET", "/nope", "", "", 401, nil},
		{"query token on the diagram", "GET", "/admin/diagram.svg?token=" + token, "", "", 401, nil},
		{"query token on the stream", "GET", "/admin/trace/stream?token=" + token, "", "", 401, nil},
		{"page", "GET", "/", "", bearer, 200, jsonHas("<title>a2a-conform fleet</title>")},
		// vendors and fault types
		{"vendors", "GET", "/admin/vendors", "", bearer, 200, jsonHas(`"id":"b"`, `"rpc.agent-b.example"`, `"type":"stale-card"`, `"id":"stale-card-1"`, `"faults":[]`)},
		{"one vendor", "GET", "/admin/vendors/c", "", bearer, 200, jsonHas(`"input-mode-coercion"`)},
		{"vendor faults", "GET", "/admin/vendors/b/faults", "", bearer, 200, jsonHas(`"region-gate-2"`)},
		{"unknown vendor", "GET", "/admin/vendors/z", "", bearer, 404, errIs(`no vendor "z"`, "")},
		{"fault types", "GET", "/admin/faults", "", bearer, 200, jsonHas(`"name":"region-gate"`, `"name":"gatedSkills"`, `"type":"array of string"`)},
		// attaching and detaching
		{"add fault", "POST", "/admin/vendors/d/faults", `{"type":"region-gate","config":{"region":"eu-west-1","gatedSkills":["fx-hedging"],"availableSkills":["fx-hedging-v2"]}}`, bearer, 201, jsonHas(`"id":"region-gate-1"`)},
		{"add fault to unknown vendor", "POST", "/admin/vendors/z/faults", `{"type":"stub-endpoint"}`, bearer, 404, errIs(`no vendor "z"`, "")},
		{"unknown fault type", "POST", "/admin/vendors/d/faults", `{"type":"nope"}`, bearer, 400, errIs(`unknown fault type "nope"`, "type")},
		{"unknown config field", "POST", "/admin/vendors/d/faults", `{"type":"region-gate","config":{"regoin":"x"}}`, bearer, 400, errIs(`unknown field "regoin"`, "config")},
		{"bad config value", "POST", "/admin/vendors/d/faults", `{"type":"server-error","config":{"code":1}}`, bearer, 400, errIs("outside -32000..-32099", "config")},
		{"unknown host", "POST", "/admin/vendors/d/faults", `{"type":"stub-endpoint","hosts":["agent-b.example"]}`, bearer, 400, errIs(`no host "agent-b.example"`, "hosts")},
		{"unknown spec field", "POST", "/admin/vendors/d/faults", `{"typ":"stub-endpoint"}`, bearer, 400, errIs(`unknown field "typ"`, "typ")},
		{"spec field of the wrong type", "POST", "/admin/vendors/d/faults", `{"type":7}`, bearer, 400, errIs("want string", "type")},
		{"no type", "POST", "/admin/vendors/d/faults", `{}`, bearer, 400, errIs("needs a type", "type")},
		{"not JSON", "POST", "/admin/vendors/d/faults", `{"type":`, bearer, 400, errIs("invalid JSON", "")},
		{"trailing data", "POST", "/admin/vendors/d/faults", `{"type":"stub-endpoint"} {}`, bearer, 400, errIs("data after", "")},
		{"empty body", "POST", "/admin/vendors/d/faults", ``, bearer, 400, errIs("empty body", "")},
		{"delete fault", "DELETE", "/admin/vendors/d/faults/region-gate-1", "", bearer, 204, nil},
		{"delete it again", "DELETE", "/admin/vendors/d/faults/region-gate-1", "", bearer, 404, errIs(`no fault "region-gate-1"`, "")},
		{"delete from unknown vendor", "DELETE", "/admin/vendors/z/faults/x", "", bearer, 404, nil},
		{"reset", "POST", "/admin/reset", "", bearer, 204, nil},
		// trace
		{"trace", "GET", "/admin/trace", "", bearer, 200, jsonHas(`"op":"card-fetch"`, `"op":"send"`)},
		{"trace by host", "GET", "/admin/trace?host=agent-d.example", "", bearer, 200, func(t *testing.T, _ http.Header, b []byte) {
			var evs []mockvendor.Event
			_ = json.Unmarshal(b, &evs)
			if len(evs) != 1 || evs[0].Op != mockvendor.OpCardFetch {
				t.Errorf("?host= gave %s", b)
			}
		}},
		{"trace by op", "GET", "/admin/trace?op=send", "", bearer, 200, func(t *testing.T, _ http.Header, b []byte) {
			var evs []mockvendor.Event
			_ = json.Unmarshal(b, &evs)
			if len(evs) != 1 || evs[0].Host != mockvendor.HostRPCD || evs[0].Skill != mockvendor.SkillFXHedging {
				t.Errorf("?op=send gave %s", b)
			}
		}},
		{"trace since", "GET", "/admin/trace?since=1", "", bearer, 200, func(t *testing.T, _ http.Header, b []byte) {
			var evs []mockvendor.Event
			_ = json.Unmarshal(b, &evs)
			if len(evs) != 1 || evs[0].Seq != 2 {
				t.Errorf("?since=1 gave %s", b)
			}
		}},
		{"trace since the end", "GET", "/admin/trace?since=99", "", bearer, 200, jsonHas("[]")},
		{"bad since", "GET", "/admin/trace?since=x", "", bearer, 400, errIs("sequence number", "since")},
		{"bad op", "GET", "/admin/trace?op=dance", "", bearer, 400, errIs(`unknown op "dance"`, "op")},
		{"diagram", "GET", "/admin/diagram.svg?highlight=2", "", bearer, 200, jsonHas(`id="ev-2"`, "sq-hl", "message/send skill=fx-hedging")},
		{"bad highlight", "GET", "/admin/diagram.svg?highlight=x", "", bearer, 400, errIs("sequence number", "highlight")},
		{"bad last", "GET", "/admin/diagram.svg?last=-1", "", bearer, 400, errIs("count", "last")},
		{"clear trace", "DELETE", "/admin/trace", "", bearer, 204, nil},
		{"trace after clearing", "GET", "/admin/trace", "", bearer, 200, jsonHas("[]")},
		// routing
		{"wrong method on vendors", "DELETE", "/admin/vendors", "", bearer, 405, errIs("method not allowed", "")},
		{"wrong method on reset", "GET", "/admin/reset", "", bearer, 405, nil},
		{"wrong method on a fault", "GET", "/admin/vendors/d/faults/x", "", bearer, 405, nil},
		{"unknown route", "GET", "/admin/nope", "", bearer, 404, errIs("no such route", "")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, h, body := e.do(t, c.method, c.path, c.body, c.auth)
			if status != c.status {
				t.Fatalf("%s %s: status %d, want %d: %s", c.method, c.path, status, c.status, body)
			}
			if status >= 400 {
				if ct := h.Get("Content-Type"); ct != "application/json" {
					t.Errorf("error content type %q", ct)
				}
				if status == 401 && !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("401 without WWW-Authenticate: Bearer")
				}
			}
			if c.check != nil {
				c.check(t, h, body)
			}
		})
	}
}

// A fault attached at run time changes the answer to the very next request,
// and detaching it or resetting the fleet restores it.
func TestFaultSwitchedAtRunTime(t *testing.T) {
	e := start(t)
	bearer := "Bearer " + token
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != 0 {
		t.Fatalf("before: error %d", code)
	}
	status, _, body := e.do(t, "POST", "/admin/vendors/d/faults", `{"type":"region-gate","config":{"gatedSkills":["fx-hedging"],"availableSkills":["fx-hedging-v2"]}}`, bearer)
	if status != 201 {
		t.Fatalf("attach: %d %s", status, body)
	}
	var id struct{ ID string }
	_ = json.Unmarshal(body, &id)
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != -32004 {
		t.Fatalf("next send after region-gate: error %d, want -32004", code)
	}
	if code := e.send(t, rpcD, mockvendor.SkillInvoice); code != 0 {
		t.Fatalf("an ungated skill: error %d", code)
	}
	if status, _, body := e.do(t, "DELETE", "/admin/vendors/d/faults/"+id.ID, "", bearer); status != 204 {
		t.Fatalf("detach: %d %s", status, body)
	}
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != 0 {
		t.Fatalf("next send after detaching: error %d", code)
	}
	if status, _, body := e.do(t, "POST", "/admin/vendors/d/faults", `{"type":"stub-endpoint"}`, bearer); status != 201 {
		t.Fatalf("attach stub-endpoint: %d %s", status, body)
	}
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != -32601 {
		t.Fatalf("next send after stub-endpoint: error %d, want -32601", code)
	}
	if status, _, _ := e.do(t, "POST", "/admin/reset", "", bearer); status != 204 {
		t.Fatalf("reset: %d", status)
	}
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != 0 {
		t.Fatalf("next send after reset: error %d", code)
	}
	if faults, _ := e.f.Faults("b"); len(faults) != 3 {
		t.Errorf("after reset vendor b has %d faults, want its 3 start-up faults", len(faults))
	}
}

// sseEvent reads the next "event: trace" of a stream.
func sseEvent(t *testing.T, rd *bufio.Reader) mockvendor.Event {
	t.Helper()
	var data string
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		case line == "" && data != "":
			var ev mockvendor.Event
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("stream data %q: %v", data, err)
			}
			return ev
		}
	}
}

func openStream(t *testing.T, e *env, ctx context.Context, query string) *bufio.Reader {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.srv.URL+"/admin/trace/stream"+query, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := e.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return bufio.NewReader(resp.Body)
}

func TestTraceStream(t *testing.T) {
	e := start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.c.Timeout = 0
	// A card fetch before the stream opens comes as backlog with ?since=0.
	r, err := e.fc.Get("https://" + mockvendor.HostCardB + mockvendor.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	all := openStream(t, e, ctx, "?since=0")
	sends := openStream(t, e, ctx, "?op=send")
	if ev := sseEvent(t, all); ev.Seq != 1 || ev.Op != mockvendor.OpCardFetch || ev.Served != "cdn" {
		t.Errorf("backlog event = %+v", ev)
	}
	if code := e.send(t, rpcD, mockvendor.SkillFXHedging); code != 0 {
		t.Fatalf("send: %d", code)
	}
	if ev := sseEvent(t, all); ev.Seq != 2 || ev.Op != mockvendor.OpSend {
		t.Errorf("live event = %+v", ev)
	}
	if ev := sseEvent(t, sends); ev.Seq != 2 || ev.Host != mockvendor.HostRPCD {
		t.Errorf("filtered live event = %+v", ev)
	}
}

// Closing the fleet closes the admin server and ends open streams: no
// goroutine is left.
func TestCloseWithFleetLeavesNoGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f, err := mockvendor.NewFleet(mockvendor.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := admin.Start(f, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.Token) != 32 {
		t.Errorf("generated token %q is not 32 hex characters", srv.Token)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/admin/trace/stream", nil)
	req.Header.Set("Authorization", "Bearer "+srv.Token)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		done <- err
	}()
	f.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the event stream did not end when the fleet closed")
	}
	resp.Body.Close()
	srv.Close()
	if _, err := c.Get(srv.URL + "/admin/vendors"); err == nil {
		t.Error("the admin server still answers after the fleet closed")
	}
}

// The handler also works without Server, in an httptest server, and a
// client going away ends its stream.
func TestHandlerStreamEndsOnDisconnect(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f, err := mockvendor.NewFleet(mockvendor.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts := httptest.NewServer(admin.New(f, token))
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/admin/trace/stream", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(resp.Body).ReadString('\n')
	if !strings.HasPrefix(line, ":") {
		t.Errorf("first stream line %q", line)
	}
	cancel()
	resp.Body.Close()
	ts.Client().Transport.(*http.Transport).CloseIdleConnections()
}

func TestEmptyTokenRefusesEverything(t *testing.T) {
	f, err := mockvendor.NewFleet(mockvendor.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts := httptest.NewServer(admin.New(f, ""))
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/admin/vendors", nil)
	req.Header.Set("Authorization", "Bearer ")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("status %d, want 401", resp.StatusCode)
	}
}

// TestVendorsNameTheirUpstream: GET /admin/vendors names the agent a
// proxied vendor stands in front of and the faults it takes (the live
// page offers only those); a fleet vendor names neither.
func TestVendorsNameTheirUpstream(t *testing.T) {
	agent := httptest.NewServer(http.NotFoundHandler()) // never asked: the list does not contact the agent
	defer agent.Close()
	d := mockvendor.VendorD()
	e := startWith(t, mockvendor.Config{Vendors: []mockvendor.VendorConfig{d, {
		ID: "partner", Organization: "partner",
		Hosts:    []mockvendor.HostConfig{{Name: "agent.partner.example", Card: true, RPCPath: mockvendor.DefaultRPCPath}},
		Upstream: &mockvendor.UpstreamConfig{URL: agent.URL},
	}}})
	status, _, body := e.do(t, "GET", "/admin/vendors", "", "Bearer "+token)
	if status != http.StatusOK {
		t.Fatalf("GET /admin/vendors: %d %s", status, body)
	}
	var vendors []admin.VendorInfo
	if err := json.Unmarshal(body, &vendors); err != nil || len(vendors) != 2 {
		t.Fatalf("vendors %s (%v)", body, err)
	}
	byID := map[string]admin.VendorInfo{vendors[0].ID: vendors[0], vendors[1].ID: vendors[1]}
	if v := byID["d"]; v.Upstream != "" || v.ApplicableFaults != nil {
		t.Errorf("fleet vendor d: upstream %q, applicable faults %v, want neither", v.Upstream, v.ApplicableFaults)
	}
	p := byID["partner"]
	if p.Upstream != agent.URL {
		t.Errorf("partner's upstream %q, want %q", p.Upstream, agent.URL)
	}
	if len(p.ApplicableFaults) != len(mockvendor.UpstreamFaults) || !slices.IsSorted(p.ApplicableFaults) {
		t.Errorf("partner's applicable faults %v, want the %d of mockvendor.UpstreamFaults, sorted", p.ApplicableFaults, len(mockvendor.UpstreamFaults))
	}
	for _, f := range p.ApplicableFaults {
		if !mockvendor.UpstreamFaults[f] {
			t.Errorf("%s is listed as applicable to a proxied vendor", f)
		}
	}
}
