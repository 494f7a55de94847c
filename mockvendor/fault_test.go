package mockvendor

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

const (
	tHostX  = "agent-x.example"
	tHostX2 = "rpc2.agent-x.example"
	tHostS  = "agent-s.example"
	tKIDS   = "s-kid"
	tHostE  = "agent-e.example"
	tKIDE   = "e-kid"
)

// tFaultConfig is the fleet the fault table runs on: vendor x (unsigned,
// region r1, a text skill alpha, a JSON-only skill beta and gamma),
// vendor s (signs its card) and vendor e (signs its card and its public
// extended card).
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
	}, {
		// e signs its card and an extended card, public (no Auth) so that
		// the fault table needs no credential
		ID:           "e",
		Organization: "Vendor E",
		Hosts:        []HostConfig{{Name: tHostE, Card: true, RPCPath: DefaultRPCPath}},
		Skills:       []SkillConfig{{ID: "summarize"}},
		Signing:      &SigningConfig{KID: tKIDE},
		Card:         CardConfig{ExtendedCard: &ExtendedCardConfig{Public: true}},
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

// tFaultCases holds one check per registered fault type, each in the
// fault's own test file (fault_x_test.go beside fault_x.go), which adds it
// with tAddFaultCase from its init.
var tFaultCases = map[string]tFaultCase{}

type tFaultCase struct {
	check func(t *testing.T, e *tFaultEnv)
	file  string // the test file that added the case
}

func tAddFaultCase(typ string, check func(t *testing.T, e *tFaultEnv)) {
	if _, dup := tFaultCases[typ]; dup {
		panic("fault case added twice: " + typ)
	}
	_, file, _, _ := runtime.Caller(1)
	tFaultCases[typ] = tFaultCase{check: check, file: filepath.Base(file)}
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

// TestFaultTableCoversFaultTypes fails when a fault type has no case, or
// when its case is not in the test file named after the file that
// registers it (internal/fault/X.go: fault_X_test.go here).
func TestFaultTableCoversFaultTypes(t *testing.T) {
	var registered, tested []string
	for _, ft := range FaultTypes() {
		registered = append(registered, ft.Name)
		if ft.Doc == "" {
			t.Errorf("fault %s has no doc", ft.Name)
		}
	}
	for typ := range tFaultCases {
		tested = append(tested, typ)
	}
	sort.Strings(tested)
	files, err := filepath.Glob(filepath.Join("internal", "fault", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	registers := 0
	for _, fn := range files {
		if strings.HasSuffix(fn, "_test.go") {
			continue
		}
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`\bRegister\("([^"]+)"`).FindAllSubmatch(src, -1) {
			registers++
			want := "fault_" + strings.TrimSuffix(filepath.Base(fn), ".go") + "_test.go"
			if c, ok := tFaultCases[string(m[1])]; ok && c.file != want {
				t.Errorf("the case of %s is in %s, want %s (named after %s)", m[1], c.file, want, filepath.ToSlash(fn))
			}
		}
	}
	if registers != len(registered) {
		t.Errorf("internal/fault registers %d fault types in its source, FaultTypes lists %d", registers, len(registered))
	}
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
	for _, ft := range FaultTypes() {
		fc, ok := tFaultCases[ft.Name]
		if !ok {
			continue // TestFaultTableCoversFaultTypes reports it
		}
		for _, r := range tRoutes {
			t.Run(ft.Name+"/"+string(r), func(t *testing.T) {
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

// tStartupConfig is the least config a fault type starts with ("{}" for
// the types whose zero config is complete).
func tStartupConfig(t *testing.T, name string) string {
	if name != "foreign-jku" {
		return "{}"
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	b, _ := json.Marshal(ForeignJKU{KeyPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), KID: "x-1", JKU: "https://keys.elsewhere.example/.well-known/jwks.json"})
	return string(b)
}

// TestFaultsAtStartup attaches each fault type through Config (the JSON
// form) and checks the fleet starts and serves a card.
func TestFaultsAtStartup(t *testing.T) {
	for _, ft := range FaultTypes() {
		t.Run(ft.Name, func(t *testing.T) {
			cfg := tFaultConfig()
			v := 0
			if slices.Contains([]string{"tampered-card", "unknown-kid", "key-rotation", "duplicate-kid", "alg-none", "hs256-confusion", "unsigned-card", "embedded-jwk", "foreign-jku"}, ft.Name) {
				v = 1
			}
			var spec FaultSpec
			if err := json.Unmarshal([]byte(`{"type":"`+ft.Name+`","config":`+tStartupConfig(t, ft.Name)+`}`), &spec); err != nil {
				t.Fatal(err)
			}
			cfg.Vendors[v].Faults = []FaultSpec{spec}
			f := tStart(t, cfg)
			fs, err := f.Faults(cfg.Vendors[v].ID)
			if err != nil || len(fs) != 1 || fs[0].Type != ft.Name || fs[0].ID == "" {
				t.Errorf("Faults = %v, %v", fs, err)
			}
			c := tClient(t, f, tViaResolve)
			if ft.Name == "wrong-san" || ft.Name == "self-signed" || ft.Name == "refuse-connections" {
				if _, err := c.Get("https://" + tHostX + CardPath); err == nil {
					t.Error("the bad certificate verified (or the dead host answered)")
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
