package fault

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Unit tests of single faults through the seam (hooks.go, call.go): a fake
// vendor and a fake signer, no fleet. The fleet-level cases of each fault
// are in fault_*_test.go (TestFaults).

// tSeamVendor is a VendorView of a vendor "v" whose default skill is alpha,
// which serves alpha and beta in r1 and alpha elsewhere, and whose beta
// takes JSON only.
type tSeamVendor struct{}

func (tSeamVendor) ID() string           { return "v" }
func (tSeamVendor) DefaultSkill() string { return "alpha" }
func (tSeamVendor) SkillsIn(region string) []string {
	if region == "r1" {
		return []string{"alpha", "beta"}
	}
	return []string{"alpha"}
}
func (tSeamVendor) InputModes(skill string) []string {
	if skill == "beta" {
		return []string{"application/json"}
	}
	return []string{"text/plain"}
}
func (tSeamVendor) SkillEntry(id string) map[string]any {
	return map[string]any{"id": id, "fake": true}
}

// tSeamSigner is a CardSigner: a real key under kid "k" and a jku of its own.
type tSeamSigner struct{ *cardsig.Signer }

func (s tSeamSigner) KeyID() string     { return s.KID }
func (s tSeamSigner) KeySetURL() string { return s.JKU }

func tNewSeamSigner(t *testing.T) tSeamSigner {
	t.Helper()
	s, err := cardsig.NewSigner(jose.ES256, "k", "https://keys.example/jwks.json")
	if err != nil {
		t.Fatal(err)
	}
	return tSeamSigner{s}
}

// tNewFault builds a fault through the registry, as AddFault does.
func tNewFault(t *testing.T, typ string, config any) any {
	t.Helper()
	raw, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	f, err := New(typ, raw)
	if err != nil {
		t.Fatalf("New(%s, %s): %v", typ, raw, err)
	}
	return f
}

// tSeamCall is a 0.3 send of one text part for skill (a probe when probe).
func tSeamCall(op trace.Op, skill string, probe bool) *Call {
	return &Call{Vendor: tSeamVendor{}, Host: "h.example", Region: "r1", Method: "message/send", Op: op, Dialect: a2a.Dialect03,
		Skill: skill, Probe: probe, Message: &a2a.Message{Role: "user", Parts: []a2a.Part{{Kind: "text", Text: "hi"}}}}
}

// TestCallHooksAlone runs each call fault on one call and checks what it
// changed of the call, or the error it answered with.
func TestCallHooksAlone(t *testing.T) {
	cases := []struct {
		name   string
		typ    string
		config any
		call   *Call
		// check inspects the call after the hook; e is its error.
		check func(c *Call, e *CallError) string
	}{
		{"coercion of a JSON-only skill", "input-mode-coercion", nil, tSeamCall(trace.OpSend, "beta", false), func(c *Call, e *CallError) string {
			if e != nil || c.Message.Parts[0].Kind != "data" || string(c.Message.Parts[0].Data) != `{"text":"hi"}` ||
				!slices.Equal(c.Coercions, []trace.Coercion{{Part: 0, From: "text", To: "data"}}) || !slices.Equal(c.Faults, []string{"input-mode-coercion"}) {
				return "not coerced"
			}
			return ""
		}},
		{"no coercion of the default text skill", "input-mode-coercion", nil, tSeamCall(trace.OpSend, "", false), func(c *Call, e *CallError) string {
			if e != nil || c.Message.Parts[0].Kind != "text" || len(c.Coercions)+len(c.Faults) != 0 {
				return "coerced"
			}
			return ""
		}},
		{"region gate on the default skill", "region-gate", RegionGate{Region: "r1", GatedSkills: []string{"alpha"}}, tSeamCall(trace.OpSend, "", false), func(_ *Call, e *CallError) string {
			if e == nil || e.Code != -32004 || e.Reason != "SKILL_NOT_AVAILABLE" || e.Data["region"] != "r1" || !slices.Equal(e.Data["availableSkills"].([]string), []string{"beta"}) {
				return "not the gate's -32004 naming beta"
			}
			return ""
		}},
		{"region gate lets probes through", "region-gate", RegionGate{GatedSkills: []string{"alpha"}}, tSeamCall(trace.OpSend, "alpha", true), func(_ *Call, e *CallError) string {
			if e != nil {
				return "probe refused"
			}
			return ""
		}},
		{"rollout's first generation", "skill-rollout", SkillRollout{WindowMs: 3_600_000}, tSeamCall(trace.OpSend, "", false), func(c *Call, e *CallError) string {
			if e != nil || !c.AnySkill {
				return "the default skill is not served"
			}
			return ""
		}},
		{"rollout refuses a later generation", "skill-rollout", SkillRollout{WindowMs: 3_600_000}, tSeamCall(trace.OpStream, "alpha-v2", false), func(_ *Call, e *CallError) string {
			if e == nil || e.Code != -32004 || !slices.Equal(e.Data["availableSkills"].([]string), []string{"alpha"}) {
				return "not -32004 naming alpha"
			}
			return ""
		}},
		{"reseller names the vendor as runtime", "reseller-gateway", ResellerGateway{RefusedTools: []string{"beta"}}, tSeamCall(trace.OpSend, "beta", false), func(c *Call, e *CallError) string {
			if e == nil || e.Code != -32601 || e.Data["runtime"] != "v" || e.Data["tool"] != "beta" || !c.AnySkill {
				return "not the runtime's -32601"
			}
			return ""
		}},
		{"stub endpoint", "stub-endpoint", nil, tSeamCall(trace.OpSend, "", false), func(_ *Call, e *CallError) string {
			if e == nil || e.Code != -32601 || e.Data["method"] != "message/send" {
				return "not -32601"
			}
			return ""
		}},
		{"stub endpoint -32602", "stub-endpoint", StubEndpoint{Code: -32602}, tSeamCall(trace.OpSend, "", false), func(_ *Call, e *CallError) string {
			if e == nil || e.Code != -32602 || !strings.HasSuffix(e.Message, "message/send") {
				return "not -32602"
			}
			return ""
		}},
		{"version reject of a missing header", "version-reject", nil, tSeamCall(trace.OpSend, "", false), func(_ *Call, e *CallError) string {
			if e == nil || e.Code != -32009 || e.Data["requested"] != "0.3" {
				return "not -32009 for 0.3"
			}
			return ""
		}},
		{"server error", "server-error", ServerError{Code: -32050, Data: map[string]any{"q": 1}}, tSeamCall(trace.OpSend, "", false), func(_ *Call, e *CallError) string {
			if e == nil || e.Code != -32050 || e.Message != "server error" || e.Data["q"] != float64(1) {
				return "not the configured error"
			}
			return ""
		}},
		{"task outcome in the 1.0 spelling", "task-outcome", TaskOutcome{State: "TASK_STATE_INPUT_REQUIRED", WorkingMs: 5}, tSeamCall(trace.OpSend, "", false), func(c *Call, e *CallError) string {
			if e != nil || c.EndState != "input-required" || c.WorkFor != 5*time.Millisecond {
				return "state or work time not set"
			}
			return ""
		}},
		{"stream cut", "stream-cut", StreamCut{Abort: true}, tSeamCall(trace.OpStream, "", false), func(c *Call, e *CallError) string {
			if e != nil || c.StreamCut != 2 || !c.StreamAbort {
				return "no cut after 2 events"
			}
			return ""
		}},
		{"slow first frame", "slow-first-frame", nil, tSeamCall(trace.OpStream, "", false), func(c *Call, e *CallError) string {
			if e != nil || c.FirstFrameDelay != 10*time.Second {
				return "no 10s delay"
			}
			return ""
		}},
		{"stream content-type lie", "stream-content-type-lie", nil, tSeamCall(trace.OpStream, "", false), func(c *Call, e *CallError) string {
			if e != nil || !c.StreamAsJSON {
				return "stream not answered as JSON"
			}
			return ""
		}},
		{"message reply", "message-reply", nil, tSeamCall(trace.OpSend, "", false), func(c *Call, e *CallError) string {
			if e != nil || !c.MessageReply {
				return "no message reply"
			}
			return ""
		}},
		{"probe accept", "probe-accept", nil, tSeamCall(trace.OpSend, "", true), func(c *Call, e *CallError) string {
			if e != nil || !c.Hold {
				return "probe task not held"
			}
			return ""
		}},
		{"artifacts", "artifacts", nil, tSeamCall(trace.OpSend, "", false), func(c *Call, e *CallError) string {
			if e != nil || len(c.Artifacts) != 1 || c.Artifacts[0].Name != "result" || c.Artifacts[0].Chunks != 3 {
				return "not the default artifacts"
			}
			return ""
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := tNewFault(t, tc.typ, tc.config).(CallHook)
			if !ok {
				t.Fatalf("%s is no call hook", tc.typ)
			}
			e := h.OnCall(tc.call)
			if msg := tc.check(tc.call, e); msg != "" {
				t.Errorf("%s: %s; call %+v, error %+v", tc.typ, msg, tc.call, e)
			}
		})
	}
}

// TestRegionGateCardEpoch: the gate's card changes (a new epoch, the
// gated skills gone from the origin card) once its passes are used up.
func TestRegionGateCardEpoch(t *testing.T) {
	g := tNewFault(t, "region-gate", RegionGate{GatedSkills: []string{"beta"}, AvailableSkills: []string{"gamma"}, AfterSends: 1}).(*RegionGate)
	card := func(cdn bool) []string {
		c := map[string]any{"skills": []any{map[string]any{"id": "alpha"}, map[string]any{"id": "beta"}}}
		g.OnCard(tSeamVendor{}, c, cdn)
		var ids []string
		for _, s := range c["skills"].([]any) {
			ids = append(ids, s.(map[string]any)["id"].(string))
		}
		return ids
	}
	if g.CardEpoch() != 0 || !slices.Equal(card(false), []string{"alpha", "beta"}) {
		t.Fatalf("open gate: epoch %d, origin card %v", g.CardEpoch(), card(false))
	}
	if e := g.OnCall(tSeamCall(trace.OpSend, "beta", false)); e != nil {
		t.Fatalf("the pass was refused: %+v", e)
	}
	if g.CardEpoch() != 1 || !slices.Equal(card(false), []string{"alpha", "gamma"}) || !slices.Equal(card(true), []string{"alpha", "beta"}) {
		t.Errorf("closed gate: epoch %d, origin card %v, CDN card %v", g.CardEpoch(), card(false), card(true))
	}
	if e := g.OnCall(tSeamCall(trace.OpSend, "beta", false)); e == nil || e.Code != -32004 {
		t.Errorf("closed gate answered %+v", e)
	}
}

// TestCardHooksAlone: stale-card and skill-rollout change the card with
// the vendor's skill entries.
func TestCardHooksAlone(t *testing.T) {
	origin := func() map[string]any {
		return map[string]any{"skills": []any{map[string]any{"id": "alpha"}}, "capabilities": map[string]any{"streaming": true}}
	}
	stale := tNewFault(t, "stale-card", StaleCard{Skills: []string{"alpha", "old"}, Streaming: new(bool)}).(CardHook)
	c := origin()
	stale.OnCard(tSeamVendor{}, c, true)
	want := []any{map[string]any{"id": "alpha"}, map[string]any{"id": "old", "fake": true}}
	if !reflect.DeepEqual(c["skills"], want) || c["capabilities"].(map[string]any)["streaming"] != false {
		t.Errorf("stale CDN card %v", c)
	}
	c = origin()
	stale.OnCard(tSeamVendor{}, c, false)
	if !reflect.DeepEqual(c, origin()) {
		t.Errorf("stale-card changed the origin card: %v", c)
	}
	rollout := tNewFault(t, "skill-rollout", nil).(CardHook)
	c = origin()
	rollout.OnCard(tSeamVendor{}, c, false)
	if !reflect.DeepEqual(c["skills"], []any{map[string]any{"id": "alpha", "fake": true}}) {
		t.Errorf("rolled origin card %v", c["skills"])
	}
}

// tHeaderOf is the protected header of a signed card's first signature.
func tHeaderOf(t *testing.T, card []byte) map[string]any {
	t.Helper()
	var doc struct {
		Signatures []struct {
			Protected string `json:"protected"`
		} `json:"signatures"`
	}
	if err := json.Unmarshal(card, &doc); err != nil || len(doc.Signatures) == 0 {
		t.Fatalf("card %s: %v", card, err)
	}
	b, err := base64.RawURLEncoding.DecodeString(doc.Signatures[0].Protected)
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestSignHooksAlone: the sign faults sign with what the CardSigner says
// (kid, jku, algorithm), or not at all.
func TestSignHooksAlone(t *testing.T) {
	s := tNewSeamSigner(t)
	card := []byte(`{"name":"n","skills":[]}`)
	cases := []struct {
		typ  string
		want map[string]any // header members checked; nil: unsigned
	}{
		{"alg-none", map[string]any{"alg": "none", "kid": "k", "jku": "https://keys.example/jwks.json"}},
		{"hs256-confusion", map[string]any{"alg": "HS256", "kid": "k", "jku": "https://keys.example/jwks.json"}},
		{"unknown-kid", map[string]any{"alg": "ES256", "kid": "k-unknown", "jku": "https://keys.example/jwks.json"}},
		{"key-rotation", map[string]any{"alg": "ES256", "kid": "k-next", "jku": "https://keys.example/jwks.json"}},
		{"embedded-jwk", map[string]any{"alg": "ES256", "kid": "k", "jku": "https://keys.example/jwks.json"}},
		{"tampered-card", map[string]any{"alg": "ES256", "kid": "k"}},
		{"unsigned-card", nil},
	}
	for _, tc := range cases {
		t.Run(tc.typ, func(t *testing.T) {
			out, err := tNewFault(t, tc.typ, nil).(SignHook).SignCard(tSeamVendor{}, s, card)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if string(out) != string(card) {
					t.Errorf("served %s, want the unsigned card", out)
				}
				return
			}
			h := tHeaderOf(t, out)
			for k, v := range tc.want {
				if h[k] != v {
					t.Errorf("header %s = %v, want %v (header %v)", k, h[k], v, h)
				}
			}
		})
	}
	out, err := tNewFault(t, "tampered-card", nil).(SignHook).SignCard(tSeamVendor{}, s, card)
	if err != nil || !strings.Contains(string(out), `{"fake":true,"id":"wire-transfer"}`) {
		t.Errorf("tampered card %s (%v) lacks the vendor's entry for wire-transfer", out, err)
	}
}

// TestJWKSHooksAlone: key-rotation adds its key after the stale fetches;
// duplicate-kid puts a second key under the signer's kid first.
func TestJWKSHooksAlone(t *testing.T) {
	s := tNewSeamSigner(t)
	keys := []jose.JSONWebKey{s.PublicJWK()}
	rot := tNewFault(t, "key-rotation", KeyRotation{StaleFetches: 2}).(JWKSHook)
	for n, want := range []int{1, 1, 2, 2} {
		got := rot.OnJWKS(s, keys, n+1)
		if len(got) != want || want == 2 && got[1].KeyID != "k-next" {
			t.Errorf("fetch %d: %d keys, want %d", n+1, len(got), want)
		}
	}
	dup := tNewFault(t, "duplicate-kid", nil).(JWKSHook).OnJWKS(s, keys, 1)
	if len(dup) != 2 || dup[0].KeyID != "k" || dup[1].KeyID != "k" || dup[0].Key == dup[1].Key {
		t.Errorf("duplicate-kid keys %+v", dup)
	}
}

// TestHeaderAndFlagHooksAlone: version-header-lie sets or drops the
// header; lenient-version and refuse-connections say so.
func TestHeaderAndFlagHooksAlone(t *testing.T) {
	h := http.Header{"A2a-Version": {"1.0"}}
	tNewFault(t, "version-header-lie", VersionHeaderLie{Version: "0.2"}).(HeaderHook).OnResponseHeader(h)
	if got := h.Get("A2A-Version"); got != "0.2" || len(h) != 1 {
		t.Errorf("header %v, want A2A-Version 0.2", h)
	}
	tNewFault(t, "version-header-lie", nil).(HeaderHook).OnResponseHeader(h)
	if len(h) != 0 {
		t.Errorf("header %v, want none", h)
	}
	if !tNewFault(t, "lenient-version", nil).(LenientHook).Lenient() {
		t.Error("lenient-version is not lenient")
	}
	if !tNewFault(t, "refuse-connections", nil).(ConnRefuser).RefusesConnections() {
		t.Error("refuse-connections refuses nothing")
	}
}

// TestStubEndpointCodes: only -32601 and -32602 are stub codes.
func TestStubEndpointCodes(t *testing.T) {
	for _, c := range []struct {
		code int
		ok   bool
	}{{0, true}, {-32601, true}, {-32602, true}, {-32600, false}, {-32004, false}} {
		raw, _ := json.Marshal(StubEndpoint{Code: c.code})
		_, err := New("stub-endpoint", raw)
		if (err == nil) != c.ok {
			t.Errorf("code %d: err %v, want ok %v", c.code, err, c.ok)
		}
	}
}

// TestTaskOutcomeConfig: the states the fault takes, in either spelling,
// and what it refuses.
func TestTaskOutcomeConfig(t *testing.T) {
	cases := []struct {
		cfg TaskOutcome
		ok  bool
	}{
		{TaskOutcome{}, true},
		{TaskOutcome{State: "input-required"}, true},
		{TaskOutcome{State: "TASK_STATE_AUTH_REQUIRED"}, true},
		{TaskOutcome{State: "working"}, false},
		{TaskOutcome{State: "done"}, false},
		{TaskOutcome{WorkingMs: -1}, false},
	}
	for _, state := range taskOutcomeStates {
		cases = append(cases, struct {
			cfg TaskOutcome
			ok  bool
		}{TaskOutcome{State: state}, true}, struct {
			cfg TaskOutcome
			ok  bool
		}{TaskOutcome{State: "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(state, "-", "_"))}, true})
	}
	for _, c := range cases {
		if err := c.cfg.validate(); (err == nil) != c.ok {
			t.Errorf("%+v: validate() = %v, want ok %v", c.cfg, err, c.ok)
		}
	}
}
