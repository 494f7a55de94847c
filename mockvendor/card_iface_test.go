package mockvendor

import (
	"encoding/json"
	"net/http"
	"testing"
)

// The explicit card forms of internal/card and what the endpoints hold the
// card to: versions per interface URL, the 0.3 members' url, tenants.

const (
	tIfaceCard = "agent-i.example"
	tIfaceRPC  = "rpc.agent-i.example"
	tIfaceOld  = "legacy.agent-i.example"
)

func tIfaceFleet(t *testing.T, card CardConfig) *Fleet {
	t.Helper()
	return tStart(t, Config{Vendors: []VendorConfig{{
		ID: "i",
		Hosts: []HostConfig{
			{Name: tIfaceCard, Card: true},
			{Name: tIfaceRPC, RPCPath: DefaultRPCPath, RESTPath: "/a2a/rest"},
			{Name: tIfaceOld, RPCPath: "/a2a"},
		},
		Card:   card,
		Skills: []SkillConfig{{ID: "alpha"}},
	}}})
}

func TestExplicitCardForms(t *testing.T) {
	rpc, rest, old := "https://"+tIfaceRPC+DefaultRPCPath, "https://"+tIfaceRPC+"/a2a/rest", "https://"+tIfaceOld+"/a2a"
	cases := []struct {
		name string
		card CardConfig
		// wantIfaces are the supportedInterfaces (url binding version
		// [tenant]); nil means the member is absent.
		wantIfaces []string
		wantURL    string // the 0.3 url ("" = absent)
		wantExtra  int    // additionalInterfaces entries
		// completes and refused are (url, dialect) pairs a send must
		// complete at, or get -32009 from.
		completes, refused [][2]string
	}{
		{
			name:       "0.3 JSON-RPC first, 1.0 HTTP+JSON second",
			card:       CardConfig{Interfaces: []CardInterface{{URL: rpc, ProtocolVersion: "0.3"}, {URL: rest, Binding: BindingREST}}},
			wantIfaces: []string{rpc + " JSONRPC 0.3", rest + " HTTP+JSON 1.0"},
			wantURL:    rpc,
			completes:  [][2]string{{rpc, "0.3"}, {rest, "rest"}},
			refused:    [][2]string{{rpc, "1.0"}},
		},
		{
			name:      "pure 0.3 card",
			card:      CardConfig{Form: FormLegacy, Interfaces: []CardInterface{{URL: rpc}}},
			wantURL:   rpc,
			wantExtra: 1,
			completes: [][2]string{{rpc, "0.3"}},
			refused:   [][2]string{{rpc, "1.0"}},
		},
		{
			name:       "hybrid card with a 0.3 url of its own",
			card:       CardConfig{Form: FormHybrid, LegacyURL: old, Interfaces: []CardInterface{{URL: rpc}}},
			wantIfaces: []string{rpc + " JSONRPC 1.0"},
			wantURL:    old,
			completes:  [][2]string{{rpc, "1.0"}, {old, "0.3"}},
			refused:    [][2]string{{rpc, "0.3"}, {old, "1.0"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := tIfaceFleet(t, c.card)
			cl := tClient(t, f, tViaProxy)
			card := tGet(t, cl, "https://"+tIfaceCard+CardPath, nil).JSON
			var got []string
			for _, i := range tAsList(card["supportedInterfaces"]) {
				m := i.(map[string]any)
				got = append(got, m["url"].(string)+" "+m["protocolBinding"].(string)+" "+m["protocolVersion"].(string))
			}
			if _, has := card["supportedInterfaces"]; has != (c.wantIfaces != nil) || len(got) != len(c.wantIfaces) {
				t.Fatalf("supportedInterfaces %v, want %v", got, c.wantIfaces)
			}
			for i := range got {
				if got[i] != c.wantIfaces[i] {
					t.Errorf("interface %d: %s, want %s", i, got[i], c.wantIfaces[i])
				}
			}
			if u, _ := card["url"].(string); u != c.wantURL {
				t.Errorf("url %q, want %q", u, c.wantURL)
			}
			if n := len(tAsList(card["additionalInterfaces"])); n != c.wantExtra {
				t.Errorf("%d additionalInterfaces, want %d", n, c.wantExtra)
			}
			for _, p := range c.completes {
				if r := tIfaceSend(t, cl, p[0], p[1], ""); r.JSON["error"] != nil || r.Status != 200 {
					t.Errorf("%s at %s: HTTP %d %s", p[1], p[0], r.Status, r.Body)
				}
			}
			for _, p := range c.refused {
				if r := tIfaceSend(t, cl, p[0], p[1], ""); r.Code() != -32009 {
					t.Errorf("%s at %s: %s, want -32009", p[1], p[0], r.Body)
				}
			}
		})
	}
}

// tIfaceSend sends a message at u: "0.3" or "1.0" JSON-RPC (with
// params.tenant when tenant is set), or "rest" (POST u/[tenant/]message:send).
func tIfaceSend(t *testing.T, c *http.Client, u, how, tenant string) *tResp {
	t.Helper()
	switch how {
	case "rest":
		if tenant != "" {
			u += "/" + tenant
		}
		body, _ := json.Marshal(map[string]any{"message": tMessage(Dialect10, "x", nil)})
		return tPost(t, c, u+"/message:send", body, map[string]string{"A2A-Version": "1.0", "Content-Type": "application/json"})
	case "0.3":
		return tRPC(t, c, u, "0.3", "message/send", tSendParams(Dialect03, "x", ""))
	}
	p := tSendParams(Dialect10, "x", "")
	if tenant != "" {
		p["tenant"] = tenant
	}
	return tRPC(t, c, u, "1.0", "SendMessage", p)
}

// TestTenants: where the card declares a tenant for an interface, a
// request must name it (JSON-RPC params.tenant, HTTP+JSON path segment);
// the trace records the tenant each request named.
func TestTenants(t *testing.T) {
	rpc, rest := "https://"+tIfaceRPC+DefaultRPCPath, "https://"+tIfaceRPC+"/a2a/rest"
	f := tIfaceFleet(t, CardConfig{Interfaces: []CardInterface{{URL: rpc, Tenant: "acme-eu"}, {URL: rest, Binding: BindingREST, Tenant: "acme-eu"}}})
	cl := tClient(t, f, tViaResolve)
	cases := []struct {
		url, how, tenant string
		ok               bool
	}{
		{rpc, "1.0", "acme-eu", true},
		{rpc, "1.0", "", false},
		{rpc, "1.0", "ACME-EU", false},
		{rest, "rest", "acme-eu", true},
		{rest, "rest", "", false},
		{rest, "rest", "other", false},
	}
	for _, c := range cases {
		since := f.Trace().Seq()
		r := tIfaceSend(t, cl, c.url, c.how, c.tenant)
		failed := r.Status != 200 || r.JSON["error"] != nil
		if failed == c.ok {
			t.Errorf("%s tenant %q: HTTP %d %s, want ok=%v", c.how, c.tenant, r.Status, r.Body, c.ok)
		}
		evs := tEvents(f, since)
		if len(evs) != 1 || evs[0].Tenant != c.tenant {
			t.Errorf("%s tenant %q: traced %+v", c.how, c.tenant, evs)
		}
	}
}
