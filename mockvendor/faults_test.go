package mockvendor

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

const (
	tHostX  = "agent-x.example"
	tHostX2 = "rpc2.agent-x.example"
	tHostS  = "agent-s.example"
	tKIDS   = "s-kid"
)

// tFaultConfig is the fleet the fault table runs on: vendor x (unsigned,
// region r1, a text skill alpha, a JSON-only skill beta and gamma) and
// vendor s (signs its card).
func tFaultConfig() Config {
	return Config{Vendors: []VendorConfig{{
		ID:           "x",
		Organization: "Vendor X",
		Hosts: []HostConfig{
			{Name: tHostX, Card: true, RPCPath: DefaultRPCPath, Region: "r1"},
			{Name: tHostX2, RPCPath: DefaultRPCPath, Region: "r2"},
		},
		Card:   CardConfig{Streaming: true},
		Skills: []SkillConfig{{ID: "alpha"}, {ID: "beta", InputModes: []string{"application/json"}}, {ID: "gamma"}},
	}, {
		ID:           "s",
		Organization: "Vendor S",
		Hosts:        []HostConfig{{Name: tHostS, Card: true, RPCPath: DefaultRPCPath}},
		Skills:       []SkillConfig{{ID: "summarize"}},
		Signing:      &SigningConfig{KID: tKIDS},
	}}}
}

// tFaultEnv is what a fault case works with.
type tFaultEnv struct {
	f     *Fleet
	route tRoute
	c     *http.Client
	rpc   string // vendor x's JSON-RPC URL
	added map[string]string
}

func (e *tFaultEnv) add(t *testing.T, vendor string, spec FaultSpec) string {
	t.Helper()
	id, err := e.f.AddFault(vendor, spec)
	if err != nil {
		t.Fatalf("AddFault(%s, %s): %v", vendor, spec.Type, err)
	}
	e.added[id] = vendor
	return id
}

func (e *tFaultEnv) remove(t *testing.T, id string) {
	t.Helper()
	if err := e.f.RemoveFault(e.added[id], id); err != nil {
		t.Fatalf("RemoveFault(%s): %v", id, err)
	}
	delete(e.added, id)
}

func (e *tFaultEnv) removeAll(t *testing.T) {
	t.Helper()
	for id := range e.added {
		e.remove(t, id)
	}
}

// fresh returns a new client on the env's route (no pooled connections).
func (e *tFaultEnv) fresh(t *testing.T) *http.Client { return tClient(t, e.f, e.route) }

func (e *tFaultEnv) card(t *testing.T, host string, bypass bool) *tResp {
	t.Helper()
	var hdr map[string]string
	if bypass {
		hdr = map[string]string{"Cache-Control": "no-cache"}
	}
	r := tGet(t, e.c, "https://"+host+CardPath, hdr)
	if r.Status != 200 || r.JSON == nil {
		t.Fatalf("card %s: %d %s", host, r.Status, r.Body)
	}
	return r
}

func (e *tFaultEnv) jwks(t *testing.T) []string {
	t.Helper()
	r := tGet(t, e.c, "https://"+tHostS+JWKSPath, nil)
	if r.Status != 200 {
		t.Fatalf("JWKS: %d", r.Status)
	}
	return tJWKSKids(t, r.JSON)
}

// send sends text for skill to vendor x in dialect d.
func (e *tFaultEnv) send(t *testing.T, d Dialect, text, skill string) *tResp {
	t.Helper()
	return tSend(t, e.c, e.rpc, d, text, skill)
}

func tWantCode(t *testing.T, what string, r *tResp, code int) {
	t.Helper()
	if r.Status != 200 {
		t.Errorf("%s: HTTP %d, want 200", what, r.Status)
	}
	if r.Code() != code {
		t.Errorf("%s: error code %d, want %d: %s", what, r.Code(), code, r.Body)
	}
}

func tWantState(t *testing.T, what string, r *tResp, state string) {
	t.Helper()
	if r.Status != 200 || r.Err() != nil || tState(r) != state {
		t.Errorf("%s: HTTP %d state %q, want %q: %s", what, r.Status, tState(r), state, r.Body)
	}
}

// tBaseline is what the fleet serves with no fault attached.
type tBaseline struct {
	cardX, cardXOrigin []byte
	cardS              string // without signatures
	jwks               []string
}

func tTakeBaseline(t *testing.T, e *tFaultEnv) tBaseline {
	t.Helper()
	b := tBaseline{
		cardX:       e.card(t, tHostX, false).Body,
		cardXOrigin: e.card(t, tHostX, true).Body,
		cardS:       tWithoutSignatures(t, e.card(t, tHostS, false).Body),
		jwks:        e.jwks(t),
	}
	return b
}

// tCheckBaseline checks the fleet is back to b: cards, JWKS, certificates,
// version header and a send.
func tCheckBaseline(t *testing.T, e *tFaultEnv, b tBaseline) {
	t.Helper()
	if got := e.card(t, tHostX, false).Body; string(got) != string(b.cardX) {
		t.Errorf("x CDN card not restored:\n got %s\nwant %s", got, b.cardX)
	}
	if got := e.card(t, tHostX, true).Body; string(got) != string(b.cardXOrigin) {
		t.Errorf("x origin card not restored:\n got %s\nwant %s", got, b.cardXOrigin)
	}
	cs := e.card(t, tHostS, false)
	if got := tWithoutSignatures(t, cs.Body); got != b.cardS {
		t.Errorf("s card not restored:\n got %s\nwant %s", got, b.cardS)
	}
	if h := tJWSHeader(t, cs.JSON); h["alg"] != "ES256" || h["kid"] != tKIDS {
		t.Errorf("s signature header not restored: %v", h)
	}
	if got := e.jwks(t); !slices.Equal(got, b.jwks) {
		t.Errorf("JWKS kids %v, want %v", got, b.jwks)
	}
	for _, host := range []string{tHostX, tHostS} {
		if _, err := tPresented(t, e.f, e.route, host+":443", host); err != nil {
			t.Errorf("%s certificate does not verify after removal: %v", host, err)
		}
	}
	c := e.fresh(t)
	for _, d := range tDialects {
		r := tSend(t, c, e.rpc, d.D, "after", "alpha")
		tWantState(t, "send after removal ("+string(d.D)+")", r, "completed")
		if d.D == Dialect10 && r.Header.Get("A2A-Version") != "1.0" {
			t.Errorf("A2A-Version after removal = %q", r.Header.Get("A2A-Version"))
		}
	}
	for _, v := range []string{"x", "s"} {
		if fs, _ := e.f.Faults(v); len(fs) != 0 {
			t.Errorf("vendor %s still has faults %v", v, fs)
		}
	}
}

type tFaultCase struct {
	typ   string
	check func(t *testing.T, e *tFaultEnv)
}

// tFaultCases has one case per registered fault type.
var tFaultCases = []tFaultCase{
	{"stale-card", func(t *testing.T, e *tFaultEnv) {
		off := false
		e.add(t, "x", Spec("stale-card", StaleCard{Skills: []string{"old-skill", "alpha"}, Streaming: &off}))
		cdn := e.card(t, tHostX, false)
		if got := tSkillIDs(cdn.JSON); !slices.Equal(got, []string{"old-skill", "alpha"}) {
			t.Errorf("CDN skills %v", got)
		}
		if tPath(cdn.JSON, "capabilities", "streaming") != false {
			t.Error("CDN copy still claims streaming")
		}
		origin := e.card(t, tHostX, true)
		if got := tSkillIDs(origin.JSON); !slices.Equal(got, []string{"alpha", "beta", "gamma"}) {
			t.Errorf("origin skills %v", got)
		}
		if tPath(origin.JSON, "capabilities", "streaming") != true {
			t.Error("origin lost streaming")
		}
		if cdn.Header.Get("ETag") == origin.Header.Get("ETag") {
			t.Error("CDN and origin share an ETag")
		}
		again := e.card(t, tHostX, false)
		if again.Header.Get("ETag") != cdn.Header.Get("ETag") {
			t.Error("CDN ETag is not stable")
		}
	}},
	{"region-gate", func(t *testing.T, e *tFaultEnv) {
		id := e.add(t, "x", Spec("region-gate", RegionGate{Region: "r1", GatedSkills: []string{"gamma"}, AvailableSkills: []string{"beta"}}))
		r := e.send(t, Dialect03, "x", "gamma")
		tWantCode(t, "0.3 gated send", r, -32004)
		if d, _ := tPath(r.Err(), "data").(map[string]any); d["region"] != "r1" || !slices.Equal(tStrings(d["availableSkills"]), []string{"beta"}) {
			t.Errorf("0.3 data %v", tPath(r.Err(), "data"))
		}
		r = e.send(t, Dialect10, "x", "gamma")
		tWantCode(t, "1.0 gated send", r, -32004)
		data := tAsList(tPath(r.Err(), "data"))
		if len(data) != 2 || tPath(data, 0, "@type") != "type.googleapis.com/google.rpc.ErrorInfo" || tPath(data, 0, "reason") == nil {
			t.Errorf("1.0 data %v", data)
		}
		if tPath(data, 1, "@type") == nil || tPath(data, 1, "region") != "r1" || !slices.Equal(tStrings(tPath(data, 1, "availableSkills")), []string{"beta"}) {
			t.Errorf("1.0 data object %v", tPath(data, 1))
		}
		r = e.send(t, Dialect01, "x", "gamma")
		tWantCode(t, "0.1 gated send", r, -32004)
		tWantState(t, "probe for a gated skill", e.send(t, Dialect03, ProbeText, "gamma"), "completed")
		tWantState(t, "ungated skill", e.send(t, Dialect03, "x", "alpha"), "completed")
		tWantState(t, "other region", tSend(t, e.c, "https://"+tHostX2+DefaultRPCPath, Dialect03, "x", "gamma"), "completed")
		if got := tSkillIDs(e.card(t, tHostX, true).JSON); !slices.Equal(got, []string{"alpha", "beta"}) {
			t.Errorf("origin card with the gate closed lists %v", got)
		}
		if got := tSkillIDs(e.card(t, tHostX, false).JSON); !slices.Equal(got, []string{"alpha", "beta", "gamma"}) {
			t.Errorf("CDN card lists %v", got)
		}
		e.remove(t, id)

		// afterSends: two sends pass, then the gate closes and the origin card changes.
		id = e.add(t, "x", Spec("region-gate", RegionGate{GatedSkills: []string{"gamma"}, AfterSends: 2}))
		if got := tSkillIDs(e.card(t, tHostX, true).JSON); !slices.Contains(got, "gamma") {
			t.Errorf("origin card before the gate closed lists %v", got)
		}
		tWantState(t, "pass 1", e.send(t, Dialect03, "x", "gamma"), "completed")
		tWantState(t, "probe does not count", e.send(t, Dialect03, ProbeText, "gamma"), "completed")
		tWantState(t, "pass 2", e.send(t, Dialect10, "x", "gamma"), "completed")
		r = e.send(t, Dialect03, "x", "gamma")
		tWantCode(t, "after the gate closed", r, -32004)
		if avail := tStrings(tPath(r.Err(), "data", "availableSkills")); slices.Contains(avail, "gamma") || !slices.Equal(avail, []string{"alpha", "beta"}) {
			t.Errorf("availableSkills %v names the gated skill or misses the served ones", avail)
		}
		if got := tSkillIDs(e.card(t, tHostX, true).JSON); slices.Contains(got, "gamma") {
			t.Errorf("origin card after the gate closed lists %v", got)
		}
		e.remove(t, id)

		e.add(t, "x", Spec("region-gate", RegionGate{GatedSkills: []string{"gamma"}, GateProbes: true}))
		tWantCode(t, "gated probe", e.send(t, Dialect03, ProbeText, "gamma"), -32004)
	}},
	{"server-error", func(t *testing.T, e *tFaultEnv) {
		id := e.add(t, "x", Spec("server-error", ServerError{Code: -32042, Message: "busy", Data: map[string]any{"retryAfter": 1.0}, Times: 2}))
		tWantState(t, "probe passes", e.send(t, Dialect03, ProbeText, ""), "completed")
		r := e.send(t, Dialect03, "x", "")
		tWantCode(t, "first send", r, -32042)
		if tPath(r.Err(), "message") != "busy" || tPath(r.Err(), "data", "retryAfter") != 1.0 {
			t.Errorf("error %v", r.Err())
		}
		r = e.send(t, Dialect10, "x", "")
		tWantCode(t, "second send", r, -32042)
		if tPath(r.Err(), "data", 1, "retryAfter") != 1.0 {
			t.Errorf("1.0 error data %v", tPath(r.Err(), "data"))
		}
		tWantState(t, "third send", e.send(t, Dialect03, "x", ""), "completed")
		e.remove(t, id)
		e.add(t, "x", Spec("server-error", ServerError{Probes: true}))
		for i := 0; i < 3; i++ {
			r := e.send(t, Dialect03, "x", "")
			tWantCode(t, "default server error", r, -32005)
			if tPath(r.Err(), "message") != "server error" {
				t.Errorf("message %v", tPath(r.Err(), "message"))
			}
		}
		tWantCode(t, "probe with probes:true", e.send(t, Dialect03, ProbeText, ""), -32005)
		if r := tGet(t, e.c, "https://"+tHostX+CardPath, nil); r.Status != 200 {
			t.Errorf("card fetch under server-error: %d", r.Status)
		}
	}},
	{"stub-endpoint", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "x", Spec("stub-endpoint", nil))
		calls := []struct{ version, method string }{
			{"", "tasks/send"}, {"0.3", "message/send"}, {"0.3", "message/stream"}, {"1.0", "SendMessage"},
			{"0.3", "tasks/get"}, {"1.0", "GetTask"}, {"0.3", "tasks/cancel"}, {"1.0", "CancelTask"}, {"0.3", "no/such"},
		}
		for _, c := range calls {
			var params any = map[string]any{"id": "t-1"}
			if strings.Contains(c.method, "send") || strings.Contains(c.method, "Send") || strings.Contains(c.method, "stream") {
				params = tSendParams(tDialectForMethod(c.method), ProbeText, "")
			}
			r := tRPC(t, e.c, e.rpc, c.version, c.method, params)
			tWantCode(t, c.method, r, -32601)
			wantCT := "application/json"
			if c.method == "message/stream" {
				wantCT = "text/event-stream" // the error is the stream's one event
			}
			if r.Header.Get("Content-Type") != wantCT {
				t.Errorf("%s: content type %q, want %q", c.method, r.Header.Get("Content-Type"), wantCT)
			}
		}
		if r := tGet(t, e.c, "https://"+tHostX+CardPath, nil); r.Status != 200 {
			t.Errorf("the stub's card is not served: %d", r.Status)
		}
	}},
	{"probe-accept", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "x", Spec("probe-accept", nil))
		for _, d := range tDialects {
			seq := e.f.Trace().Seq()
			r := e.send(t, d.D, ProbeText, "")
			tWantState(t, string(d.D)+" probe", r, "working")
			id, _ := tTask(r)["id"].(string)
			ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
			if !ev.Probe || !slices.Contains(ev.Faults, "probe-accept") || ev.State != "working" {
				t.Errorf("%s probe event %+v", d.D, ev)
			}
			tWantState(t, string(d.D)+" get", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": id}), "working")
			time.Sleep(10 * time.Millisecond)
			tWantState(t, string(d.D)+" get later", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": id}), "working")
			tWantState(t, string(d.D)+" cancel", tRPC(t, e.c, e.rpc, d.Version, d.Cancel, map[string]any{"id": id}), "canceled")
			tWantState(t, string(d.D)+" get after cancel", tRPC(t, e.c, e.rpc, d.Version, d.Get, map[string]any{"id": id}), "canceled")
			tWantCode(t, string(d.D)+" second cancel", tRPC(t, e.c, e.rpc, d.Version, d.Cancel, map[string]any{"id": id}), -32002)
			tWantState(t, string(d.D)+" real send", e.send(t, d.D, "real work", ""), "completed")
		}
		// A probe marked by metadata is a probe too.
		p := tSendParams(Dialect03, "ping", "")
		p["metadata"] = map[string]any{"a2a_probe": true}
		tWantState(t, "metadata probe", tRPC(t, e.c, e.rpc, "0.3", "message/send", p), "working")
	}},
	{"input-mode-coercion", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "x", Spec("input-mode-coercion", nil))
		want := map[Dialect]map[string]any{
			Dialect03: {"kind": "data", "data": map[string]any{"text": "hello"}},
			Dialect10: {"data": map[string]any{"text": "hello"}},
		}
		for _, d := range []Dialect{Dialect03, Dialect10} {
			seq := e.f.Trace().Seq()
			r := e.send(t, d, "hello", "beta")
			tWantState(t, string(d), r, "completed")
			part := tPath(tTask(r), "history", 0, "parts", 0)
			if !tJSONEqual(part, want[d]) {
				t.Errorf("%s: history part %v, want %v", d, part, want[d])
			}
			ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend })
			if !slices.Equal(ev.Coercions, []Coercion{{Part: 0, From: "text", To: "data"}}) || !slices.Contains(ev.Faults, "input-mode-coercion") {
				t.Errorf("%s: trace %+v", d, ev)
			}
			seq = e.f.Trace().Seq()
			r = e.send(t, d, "hello", "alpha")
			if part := tPath(tTask(r), "history", 0, "parts", 0, "text"); part != "hello" {
				t.Errorf("%s: text skill got %v", d, tPath(tTask(r), "history", 0))
			}
			if ev := tWaitEvent(t, e.f, seq, func(ev Event) bool { return ev.Op == OpSend }); len(ev.Coercions) != 0 {
				t.Errorf("%s: text skill coerced: %+v", d, ev.Coercions)
			}
		}
	}},
	{"stream-content-type-lie", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "x", Spec("stream-content-type-lie", nil))
		for _, d := range tDialects {
			r := tRPC(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "s", ""))
			if ct := r.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s: content type %q", d.Stream, ct)
			}
			tWantState(t, d.Stream, r, "completed")
			_, wrapped := r.Result()["task"]
			if wrapped != (d.D == Dialect10) {
				t.Errorf("%s: result %v", d.Stream, r.Result())
			}
		}
		tWantState(t, "send unaffected", e.send(t, Dialect03, "x", ""), "completed")
	}},
	{"slow-first-frame", func(t *testing.T, e *tFaultEnv) {
		const delay = 300 * time.Millisecond
		e.add(t, "x", Spec("slow-first-frame", SlowFirstFrame{DelayMs: int(delay / time.Millisecond)}))
		for _, d := range []tDialectCase{tDialects[1], tDialects[2]} {
			start := time.Now()
			resp := tStream(t, e.c, e.rpc, d.Version, d.Stream, tSendParams(d.D, "slow", ""))
			headers := time.Since(start)
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("%s: content type %q", d.Stream, ct)
			}
			sr := tNewSSE(resp.Body)
			first, err := sr.Next()
			firstAt := time.Since(start)
			if err != nil {
				t.Fatalf("%s: first event: %v", d.Stream, err)
			}
			if firstAt < delay {
				t.Errorf("%s: first event after %v, want >= %v", d.Stream, firstAt, delay)
			}
			if headers >= delay {
				t.Errorf("%s: headers took %v; they should come before the delay", d.Stream, headers)
			}
			if first["result"] == nil {
				t.Errorf("%s: first event %v", d.Stream, first)
			}
			rest := tReadSSE(t, resp.Body)
			if len(rest) != 3 {
				t.Errorf("%s: %d more events, want 3", d.Stream, len(rest))
			}
		}
		start := time.Now()
		tWantState(t, "send unaffected", e.send(t, Dialect03, "x", ""), "completed")
		if d := time.Since(start); d >= delay {
			t.Errorf("a plain send took %v", d)
		}
	}},
	{"version-header-lie", func(t *testing.T, e *tFaultEnv) {
		if v := e.send(t, Dialect10, "x", "").Header.Get("A2A-Version"); v != "1.0" {
			t.Fatalf("honest A2A-Version %q", v)
		}
		id := e.add(t, "x", Spec("version-header-lie", VersionHeaderLie{Version: "0.3"}))
		r := e.send(t, Dialect10, "x", "")
		tWantState(t, "send", r, "completed")
		if v := r.Header.Get("A2A-Version"); v != "0.3" {
			t.Errorf("A2A-Version %q, want the lie 0.3", v)
		}
		e.remove(t, id)
		e.add(t, "x", Spec("version-header-lie", nil))
		r = e.send(t, Dialect10, "x", "")
		if _, ok := r.Header["A2a-Version"]; ok {
			t.Errorf("A2A-Version present: %q", r.Header.Get("A2A-Version"))
		}
	}},
	{"skill-rollout", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "x", Spec("skill-rollout", SkillRollout{Skill: "alpha", WindowMs: 300}))
		tWantState(t, "generation 1 serves alpha", e.send(t, Dialect03, "x", "alpha"), "completed")
		time.Sleep(320 * time.Millisecond)
		r := e.send(t, Dialect03, "x", "alpha")
		tWantCode(t, "alpha after the rollout", r, -32004)
		if got := tStrings(tPath(r.Err(), "data", "availableSkills")); !slices.Equal(got, []string{"alpha-v2"}) {
			t.Errorf("availableSkills %v, want [alpha-v2]", got)
		}
		tWantState(t, "alpha-v2 served", e.send(t, Dialect10, "x", "alpha-v2"), "completed")
		if got := tSkillIDs(e.card(t, tHostX, true).JSON); !slices.Contains(got, "alpha-v2") || slices.Contains(got, "alpha") {
			t.Errorf("origin card skills %v, want alpha-v2 in place of alpha", got)
		}
		if got := tSkillIDs(e.card(t, tHostX, false).JSON); !slices.Contains(got, "alpha") {
			t.Errorf("CDN card skills %v, want the stale alpha", got)
		}
	}},
	{"version-reject", func(t *testing.T, e *tFaultEnv) {
		id := e.add(t, "x", Spec("version-reject", nil))
		tWantCode(t, "0.3 header", e.send(t, Dialect03, "x", ""), -32009)
		r := tRPC(t, e.c, e.rpc, "", "message/send", tSendParams(Dialect03, "x", ""))
		tWantCode(t, "no header", r, -32009)
		if tPath(r.Err(), "data", "requested") != "0.3" {
			t.Errorf("data %v", tPath(r.Err(), "data"))
		}
		tWantState(t, "1.0", e.send(t, Dialect10, "x", ""), "completed")
		r = tRPC(t, e.c, e.rpc, "2.0", "SendMessage", tSendParams(Dialect10, "x", ""))
		tWantCode(t, "2.0 header", r, -32009)
		if tPath(r.Err(), "data", 0, "reason") != "VERSION_NOT_SUPPORTED" {
			t.Errorf("1.0 data %v", tPath(r.Err(), "data"))
		}
		e.remove(t, id)
		e.add(t, "x", Spec("version-reject", VersionReject{Accepted: []string{"0.3", "1.0"}}))
		tWantState(t, "0.3 accepted", e.send(t, Dialect03, "x", ""), "completed")
		tWantState(t, "no header accepted as 0.3", e.send(t, Dialect01, "x", ""), "completed")
	}},
	{"reseller-gateway", func(t *testing.T, e *tFaultEnv) {
		tWantCode(t, "unknown skill without the fault", e.send(t, Dialect03, "x", "anything"), -32004)
		e.add(t, "x", Spec("reseller-gateway", ResellerGateway{RefusedTools: []string{"ledger-write"}}))
		tWantState(t, "any skill", e.send(t, Dialect03, "x", "anything"), "completed")
		tWantState(t, "any skill 1.0", e.send(t, Dialect10, "x", "anything"), "completed")
		r := e.send(t, Dialect03, "x", "ledger-write")
		tWantCode(t, "refused tool", r, -32601)
		if tPath(r.Err(), "data", "tool") != "ledger-write" {
			t.Errorf("data %v", tPath(r.Err(), "data"))
		}
		p := map[string]any{"message": tMessage(Dialect03, "x", map[string]any{"tool": "ledger-write"}), "metadata": map[string]any{"skillId": "alpha"}}
		tWantCode(t, "refused tool in message metadata", tRPC(t, e.c, e.rpc, "0.3", "message/send", p), -32601)
	}},
	{"wrong-san", func(t *testing.T, e *tFaultEnv) {
		id := e.add(t, "x", Spec("wrong-san", nil))
		tCheckBadCert(t, e, []string{"wrong-host.example"}, true)
		e.remove(t, id)
		e.add(t, "x", Spec("wrong-san", WrongSAN{SANs: []string{"a.example", "b.example"}}))
		tCheckBadCert(t, e, []string{"a.example", "b.example"}, true)
	}},
	{"self-signed", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "x", Spec("self-signed", nil))
		tCheckBadCert(t, e, []string{tHostX}, false)
	}},
	{"tampered-card", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "s", Spec("tampered-card", nil))
		card := e.card(t, tHostS, false).JSON
		if !slices.Equal(tSkillIDs(card), []string{"summarize", "wire-transfer"}) {
			t.Errorf("skills %v", tSkillIDs(card))
		}
		if h := tJWSHeader(t, card); h["kid"] != tKIDS || h["alg"] != "ES256" {
			t.Errorf("header %v", h)
		}
	}},
	{"unknown-kid", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "s", Spec("unknown-kid", nil))
		if h := tJWSHeader(t, e.card(t, tHostS, false).JSON); h["kid"] != tKIDS+"-unknown" {
			t.Errorf("header %v", h)
		}
		for i := 0; i < 2; i++ {
			if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
				t.Errorf("JWKS kids %v", kids)
			}
		}
	}},
	{"key-rotation", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "s", Spec("key-rotation", nil))
		if h := tJWSHeader(t, e.card(t, tHostS, false).JSON); h["kid"] != tKIDS+"-next" {
			t.Errorf("header %v", h)
		}
		if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
			t.Errorf("first JWKS after the rotation: kids %v, want the stale set", kids)
		}
		if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS, tKIDS + "-next"}) {
			t.Errorf("second JWKS: kids %v", kids)
		}
	}},
	{"duplicate-kid", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "s", Spec("duplicate-kid", nil))
		r := tGet(t, e.c, "https://"+tHostS+JWKSPath, nil)
		keys := tAsList(r.JSON["keys"])
		if kids := tJWKSKids(t, r.JSON); !slices.Equal(kids, []string{tKIDS, tKIDS}) {
			t.Fatalf("JWKS kids %v", kids)
		}
		if tJSONEqual(keys[0], keys[1]) {
			t.Error("the two keys are the same key")
		}
		if h := tJWSHeader(t, e.card(t, tHostS, false).JSON); h["kid"] != tKIDS {
			t.Errorf("header %v", h)
		}
	}},
	{"alg-none", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "s", Spec("alg-none", nil))
		card := e.card(t, tHostS, false).JSON
		if h := tJWSHeader(t, card); h["alg"] != "none" || h["kid"] != tKIDS {
			t.Errorf("header %v", h)
		}
		if sig := tPath(card, "signatures", 0, "signature"); sig != "" {
			t.Errorf("signature %q, want empty", sig)
		}
	}},
	{"hs256-confusion", func(t *testing.T, e *tFaultEnv) {
		e.add(t, "s", Spec("hs256-confusion", nil))
		card := e.card(t, tHostS, false).JSON
		if h := tJWSHeader(t, card); h["alg"] != "HS256" || h["kid"] != tKIDS {
			t.Errorf("header %v", h)
		}
		if sig, _ := tPath(card, "signatures", 0, "signature").(string); sig == "" {
			t.Error("no HMAC signature")
		}
	}},
	{"unsigned-card", func(t *testing.T, e *tFaultEnv) {
		before := tWithoutSignatures(t, e.card(t, tHostS, false).Body)
		e.add(t, "s", Spec("unsigned-card", nil))
		card := e.card(t, tHostS, false)
		if _, ok := card.JSON["signatures"]; ok {
			t.Error("card still signed")
		}
		if tWithoutSignatures(t, card.Body) != before {
			t.Error("the unsigned card differs beyond its signatures")
		}
		if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
			t.Errorf("JWKS %v", kids)
		}
	}},
}

// tCheckBadCert checks that vendor x's host presents a certificate with
// the given DNS names that does not verify for its name, that a request
// on a new connection fails, and that vendor s is unaffected.
func tCheckBadCert(t *testing.T, e *tFaultEnv, dns []string, caSigned bool) {
	t.Helper()
	leaf, err := tPresented(t, e.f, e.route, tHostX+":443", tHostX)
	if err == nil {
		t.Errorf("%s certificate verifies", tHostX)
	}
	if !slices.Equal(leaf.DNSNames, dns) {
		t.Errorf("DNSNames %v, want %v", leaf.DNSNames, dns)
	}
	if signed := leaf.CheckSignatureFrom(e.f.CA().Cert) == nil; signed != caSigned {
		t.Errorf("signed by the fleet CA: %v, want %v", signed, caSigned)
	}
	var uae x509.UnknownAuthorityError
	var hne x509.HostnameError
	if caSigned && !errors.As(err, &hne) || !caSigned && !errors.As(err, &uae) {
		t.Errorf("verification error %T %v", err, err)
	}
	if _, err := e.fresh(t).Get("https://" + tHostX + CardPath); err == nil {
		t.Error("a new client reached the host")
	}
	if _, err := tPresented(t, e.f, e.route, tHostS+":443", tHostS); err != nil {
		t.Errorf("other vendor's certificate: %v", err)
	}
}

func tDialectForMethod(m string) Dialect {
	switch {
	case strings.HasPrefix(m, "tasks/"):
		return Dialect01
	case strings.HasPrefix(m, "message/"):
		return Dialect03
	}
	return Dialect10
}

func tStrings(v any) []string {
	var out []string
	for _, e := range tAsList(v) {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

func tJSONEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestFaultTableCoversFaultTypes fails when a fault type has no case.
func TestFaultTableCoversFaultTypes(t *testing.T) {
	var registered, tested []string
	for _, ft := range FaultTypes() {
		registered = append(registered, ft.Name)
		if ft.Doc == "" {
			t.Errorf("fault %s has no doc", ft.Name)
		}
	}
	for _, c := range tFaultCases {
		tested = append(tested, c.typ)
	}
	sort.Strings(tested)
	if !slices.Equal(registered, tested) {
		t.Errorf("fault table covers %v\nregistered faults are %v", tested, registered)
	}
	if !sort.StringsAreSorted(registered) {
		t.Error("FaultTypes is not sorted")
	}
}

// TestFaults runs every fault case through the proxy and through the
// resolve map. Each case attaches its faults at run time, checks them from
// the very next request on, removes them and checks the fleet is restored.
func TestFaults(t *testing.T) {
	for _, fc := range tFaultCases {
		for _, r := range tRoutes {
			t.Run(fc.typ+"/"+string(r), func(t *testing.T) {
				f := tStart(t, tFaultConfig())
				e := &tFaultEnv{f: f, route: r, c: tClient(t, f, r), rpc: "https://" + tHostX + DefaultRPCPath, added: map[string]string{}}
				base := tTakeBaseline(t, e)
				fc.check(t, e)
				if len(e.added) == 0 {
					t.Fatal("the case attached no fault")
				}
				e.removeAll(t)
				tCheckBaseline(t, e, base)
			})
		}
	}
}

// TestFaultsAtStartup attaches each fault type through Config (the JSON
// form) and checks the fleet starts and serves a card.
func TestFaultsAtStartup(t *testing.T) {
	for _, ft := range FaultTypes() {
		t.Run(ft.Name, func(t *testing.T) {
			cfg := tFaultConfig()
			v := 0
			if slices.Contains([]string{"tampered-card", "unknown-kid", "key-rotation", "duplicate-kid", "alg-none", "hs256-confusion", "unsigned-card"}, ft.Name) {
				v = 1
			}
			var spec FaultSpec
			if err := json.Unmarshal([]byte(`{"type":"`+ft.Name+`"}`), &spec); err != nil {
				t.Fatal(err)
			}
			cfg.Vendors[v].Faults = []FaultSpec{spec}
			f := tStart(t, cfg)
			fs, err := f.Faults(cfg.Vendors[v].ID)
			if err != nil || len(fs) != 1 || fs[0].Type != ft.Name || fs[0].ID == "" {
				t.Errorf("Faults = %v, %v", fs, err)
			}
			c := tClient(t, f, tViaResolve)
			if ft.Name == "wrong-san" || ft.Name == "self-signed" {
				if _, err := c.Get("https://" + tHostX + CardPath); err == nil {
					t.Error("the bad certificate verified")
				}
				return
			}
			host := []string{tHostX, tHostS}[v]
			if r := tGet(t, c, "https://"+host+CardPath, nil); r.Status != 200 {
				t.Errorf("card: %d", r.Status)
			}
		})
	}
}

// TestFaultRuntime checks AddFault takes effect on the very next request on
// a kept-alive connection, RemoveFault and Reset restore, and errors.
func TestFaultRuntime(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	rpcD := "https://" + HostRPCD + DefaultRPCPath
	tWantState(t, "before", tSend(t, c, rpcD, Dialect03, "x", ""), "completed")
	id, err := f.AddFault("d", Spec("stub-endpoint", nil))
	if err != nil {
		t.Fatal(err)
	}
	tWantCode(t, "next request", tSend(t, c, rpcD, Dialect03, "x", ""), -32601)
	cardID, err := f.AddFault("d", Spec("stale-card", StaleCard{Skills: []string{"zzz"}}))
	if err != nil {
		t.Fatal(err)
	}
	if got := tSkillIDs(tGet(t, c, "https://"+HostCardD+CardPath, nil).JSON); !slices.Equal(got, []string{"zzz"}) {
		t.Errorf("CDN card after AddFault lists %v", got)
	}
	fs, _ := f.Faults("d")
	if len(fs) != 2 || fs[0].ID != id || fs[1].ID != cardID {
		t.Errorf("Faults(d) = %+v", fs)
	}
	if err := f.RemoveFault("d", id); err != nil {
		t.Fatal(err)
	}
	tWantState(t, "after RemoveFault", tSend(t, c, rpcD, Dialect03, "x", ""), "completed")
	var nf *NotFoundError
	if err := f.RemoveFault("d", id); !errors.As(err, &nf) {
		t.Errorf("removing twice: %v", err)
	}
	if _, err := f.AddFault("nope", Spec("stub-endpoint", nil)); !errors.As(err, &nf) {
		t.Errorf("unknown vendor: %v", err)
	}
	if _, err := f.Faults("nope"); !errors.As(err, &nf) {
		t.Errorf("Faults of unknown vendor: %v", err)
	}
	// Reset puts back the start-up faults (B's stale card) and drops d's.
	if _, err := f.AddFault("b", Spec("stub-endpoint", nil)); err != nil {
		t.Fatal(err)
	}
	if err := f.Reset(); err != nil {
		t.Fatal(err)
	}
	if got := tSkillIDs(tGet(t, c, "https://"+HostCardD+CardPath, nil).JSON); !slices.Equal(got, []string{SkillInvoice, SkillFXHedging}) {
		t.Errorf("D's card after Reset lists %v", got)
	}
	if fs, _ := f.Faults("b"); len(fs) != 3 {
		t.Errorf("B's faults after Reset: %+v", fs)
	}
	tWantState(t, "B after Reset", tSend(t, c, "https://"+HostRPCB+DefaultRPCPath, Dialect03, "x", SkillInvoiceV2), "completed")
	tWantCode(t, "B gate after Reset", tSend(t, c, "https://"+HostRPCB+DefaultRPCPath, Dialect03, "x", SkillInvoice), -32004)
}

// TestFaultBadJSON checks that a bad fault gives a *ConfigError naming the field.
func TestFaultBadJSON(t *testing.T) {
	f := tDefault(t)
	cases := []struct {
		name    string
		vendor  string
		spec    string
		field   string
		mention string
	}{
		{"unknown type", "d", `{"type":"no-such-fault"}`, "type", "no-such-fault"},
		{"empty type", "d", `{"type":""}`, "type", "unknown fault type"},
		{"unknown field", "d", `{"type":"slow-first-frame","config":{"delay":5}}`, "config", `"delay"`},
		{"wrong type", "d", `{"type":"slow-first-frame","config":{"delayMs":"soon"}}`, "config", "delayMs"},
		{"negative delay", "d", `{"type":"slow-first-frame","config":{"delayMs":-1}}`, "config", "delayMs"},
		{"code out of range", "d", `{"type":"server-error","config":{"code":-32603}}`, "config", "code"},
		{"negative times", "d", `{"type":"server-error","config":{"times":-1}}`, "config", "times"},
		{"list of wrong type", "b", `{"type":"region-gate","config":{"gatedSkills":"x"}}`, "config", "gatedSkills"},
		{"config not an object", "d", `{"type":"stub-endpoint","config":[1]}`, "config", "stub-endpoint"},
		{"unknown host", "d", `{"type":"wrong-san","hosts":["agent-b.example"]}`, "hosts", "agent-b.example"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var spec FaultSpec
			if err := json.Unmarshal([]byte(tc.spec), &spec); err != nil {
				t.Fatal(err)
			}
			_, err := f.AddFault(tc.vendor, spec)
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want *ConfigError", err, err)
			}
			if ce.Field != tc.field || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("err = %q (field %q), want field %q mentioning %q", err, ce.Field, tc.field, tc.mention)
			}
			if fs, _ := f.Faults(tc.vendor); len(fs) != len(f.Vendor(tc.vendor).Config().Faults) {
				t.Errorf("a refused fault was attached: %+v", fs)
			}
		})
	}
}

// TestFaultHostScope limits a fault to one host of a vendor.
func TestFaultHostScope(t *testing.T) {
	f := tDefault(t)
	if _, err := f.AddFault("d", Spec("wrong-san", nil, HostRPCD)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.AddFault("d", Spec("stub-endpoint", nil, HostRPCD)); err != nil {
		t.Fatal(err)
	}
	for _, r := range tRoutes {
		if _, err := tPresented(t, f, r, HostRPCD+":443", HostRPCD); err == nil {
			t.Errorf("%s: %s verifies", r, HostRPCD)
		}
		if _, err := tPresented(t, f, r, HostCardD+":443", HostCardD); err != nil {
			t.Errorf("%s: %s: %v", r, HostCardD, err)
		}
	}
	// B's reseller fault applies to its gateway host only.
	c := tClient(t, f, tViaProxy)
	tWantState(t, "reseller host runs any skill", tSend(t, c, "https://"+HostResellerB+ResellerRPCPath, Dialect03, "x", SkillFXHedging), "completed")
	tWantCode(t, "reseller refuses ledger-write", tSend(t, c, "https://"+HostResellerB+ResellerRPCPath, Dialect03, "x", SkillLedgerWrite), -32601)
	tWantCode(t, "regional gateway does not", tSend(t, c, "https://"+HostRPCB+DefaultRPCPath, Dialect03, "x", SkillFXHedging), -32004)
}
