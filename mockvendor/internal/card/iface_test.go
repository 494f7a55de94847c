package card

import (
	"slices"
	"testing"
)

const (
	tRPC  = "https://rpc.agent-i.example/a2a/v1"
	tREST = "https://rpc.agent-i.example/a2a/rest"
	tOld  = "https://legacy.agent-i.example/a2a"
)

var (
	tRPCEnd  = Endpoint{Host: "rpc.agent-i.example", Path: "/a2a/v1", Binding: BindingJSONRPC}
	tRESTEnd = Endpoint{Host: "rpc.agent-i.example", Path: "/a2a/rest", Binding: BindingREST}
	tOldEnd  = Endpoint{Host: "legacy.agent-i.example", Path: "/a2a", Binding: BindingJSONRPC}
)

// tIfaceSpec is a vendor serving 1.0 and 0.3 whose card is explicit.
func tIfaceSpec(ifaces []Interface, form, legacyURL string) *Spec {
	return &Spec{ID: "i", URL: tRPC, RESTURL: tREST, Versions: []string{"1.0", "0.3"}, Interfaces: ifaces, Form: form, LegacyURL: legacyURL}
}

// TestExplicitForms: the interfaces, 0.3 url and additionalInterfaces of
// the explicit card forms (the card side of the root's
// TestExplicitCardForms).
func TestExplicitForms(t *testing.T) {
	cases := []struct {
		name      string
		spec      *Spec
		ifaces    []string // url binding version [tenant]; nil: member absent
		url       string   // the 0.3 url ("" = absent)
		extra     int      // additionalInterfaces entries
		preferred string
	}{
		{
			name:   "0.3 JSON-RPC first, 1.0 HTTP+JSON second",
			spec:   tIfaceSpec([]Interface{{URL: tRPC, ProtocolVersion: "0.3"}, {URL: tREST, Binding: BindingREST, Tenant: "t"}}, "", ""),
			ifaces: []string{tRPC + " JSONRPC 0.3", tREST + " HTTP+JSON 1.0 t"}, url: tRPC, preferred: "JSONRPC",
		},
		{
			name: "pure 0.3 card", spec: tIfaceSpec([]Interface{{URL: tREST, Binding: BindingREST}, {URL: tRPC}}, FormLegacy, ""),
			url: tREST, extra: 2, preferred: "HTTP+JSON",
		},
		{
			name: "pure 0.3 card without interfaces", spec: tIfaceSpec(nil, FormLegacy, ""),
			url: tRPC, extra: 1, preferred: "JSONRPC",
		},
		{
			name: "hybrid card with a 0.3 url of its own", spec: tIfaceSpec([]Interface{{URL: tRPC}}, FormHybrid, tOld),
			ifaces: []string{tRPC + " JSONRPC 1.0"}, url: tOld, preferred: "JSONRPC",
		},
		{
			name: "1.0-only vendor stays a 1.0 card", spec: &Spec{Versions: []string{"1.0"}, Interfaces: []Interface{{URL: tRPC, ProtocolVersion: "1.0.1"}}},
			ifaces: []string{tRPC + " JSONRPC 1.0"},
		},
	}
	for _, c := range cases {
		doc := tJSON(t, c.spec.Document()).(map[string]any)
		var got []string
		list, has := doc["supportedInterfaces"].([]any)
		for _, i := range list {
			m := i.(map[string]any)
			e := m["url"].(string) + " " + m["protocolBinding"].(string) + " " + m["protocolVersion"].(string)
			if tn, ok := m["tenant"].(string); ok {
				e += " " + tn
			}
			got = append(got, e)
		}
		if has != (c.ifaces != nil) || !slices.Equal(got, c.ifaces) {
			t.Errorf("%s: supportedInterfaces %v (present %v), want %v", c.name, got, has, c.ifaces)
		}
		if u, _ := doc["url"].(string); u != c.url {
			t.Errorf("%s: url %q, want %q", c.name, u, c.url)
		}
		if p, _ := doc["preferredTransport"].(string); p != c.preferred {
			t.Errorf("%s: preferredTransport %q, want %q", c.name, p, c.preferred)
		}
		if extra, _ := doc["additionalInterfaces"].([]any); len(extra) != c.extra {
			n := len(extra)
			t.Errorf("%s: %d additionalInterfaces, want %d", c.name, n, c.extra)
		}
	}
}

// TestEndpointVersions: an endpoint serves what the card declares for its
// URL and binding (and 0.3 where the card's 0.3 url points), else what
// the vendor serves as the binding offers it.
func TestEndpointVersions(t *testing.T) {
	served := []string{"1.0", "0.3"}
	cases := []struct {
		name string
		spec *Spec
		at   Endpoint
		want []string
	}{
		{"honest card", tIfaceSpec(nil, "", ""), tRPCEnd, served},
		{"declared 0.3", tIfaceSpec([]Interface{{URL: tRPC, ProtocolVersion: "0.3"}}, "", ""), tRPCEnd, []string{"0.3"}},
		{"declared twice, one version", tIfaceSpec([]Interface{{URL: tRPC}, {URL: tRPC + "/", ProtocolVersion: "1.0.2", Tenant: "x"}}, "", ""), tRPCEnd, []string{"1.0", "0.3"}},
		{"URL case and slash", tIfaceSpec([]Interface{{URL: "HTTPS://RPC.agent-i.example/a2a/v1/", ProtocolVersion: "0.3"}}, "", ""), tRPCEnd, []string{"0.3"}},
		{"other binding at the URL", tIfaceSpec([]Interface{{URL: tRPC, Binding: BindingREST}}, "", ""), tRPCEnd, []string{"0.3"}},
		{"none declared here", tIfaceSpec([]Interface{{URL: tOld}}, FormHybrid, tOld), tRESTEnd, served},
		{"0.3 url of a hybrid card", tIfaceSpec([]Interface{{URL: tRPC}}, FormHybrid, tOld), tOldEnd, []string{"0.3"}},
		{"pure 0.3 card", tIfaceSpec([]Interface{{URL: tRPC, ProtocolVersion: "1.0"}}, FormLegacy, ""), tRPCEnd, []string{"0.3"}},
		{"no endpoint of the binding", tIfaceSpec([]Interface{{URL: "https://rpc.agent-i.example", Binding: BindingREST}}, "", ""), Endpoint{Host: "rpc.agent-i.example", Binding: BindingREST}, served},
	}
	for _, c := range cases {
		if got := c.spec.EndpointVersions(c.at, served); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDeclaredAt: the interfaces at an endpoint, with their tenants.
func TestDeclaredAt(t *testing.T) {
	s := tIfaceSpec([]Interface{{URL: tRPC, Tenant: "a"}, {URL: tREST, Binding: "http+json", Tenant: "b"}, {URL: tRPC, Tenant: "c"}}, "", "")
	tenants := func(is []Interface) []string {
		var out []string
		for _, i := range is {
			out = append(out, i.Tenant)
		}
		return out
	}
	if got := tenants(s.DeclaredAt(tRPCEnd)); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("JSON-RPC: %v, want [a c]", got)
	}
	if got := tenants(s.DeclaredAt(tRESTEnd)); !slices.Equal(got, []string{"b"}) {
		t.Errorf("HTTP+JSON: %v, want [b]", got)
	}
	if got := s.DeclaredAt(tOldEnd); got != nil {
		t.Errorf("elsewhere: %v, want none", got)
	}
}

// TestOffered: a binding's share of the versions served, in their order;
// the slice itself when the binding offers them all.
func TestOffered(t *testing.T) {
	served := []string{"0.3", "1.0", "0.2"}
	only10 := func(v string) bool { return v == "1.0" }
	if got := Offered(served, only10); !slices.Equal(got, []string{"1.0"}) {
		t.Errorf("1.0 only: %v", got)
	}
	if got := Offered(served, func(string) bool { return false }); len(got) != 0 {
		t.Errorf("none: %v", got)
	}
	all := Offered(served, func(string) bool { return true })
	if &all[0] != &served[0] || len(all) != len(served) {
		t.Errorf("all: %v is not the served slice", all)
	}
}
