package mockvendor

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestExtendedCardAuth: the extended card requires authentication (A2A
// 1.0 §13.3; 0.3 §7.10): on a vendor with an Auth, GetExtendedAgentCard,
// agent/getAuthenticatedExtendedCard and GET /extendedAgentCard answer
// 401 with a WWW-Authenticate challenge without the vendor's credential
// or with a wrong one, and the extended card with it; for a bearer token
// and for an API key.
func TestExtendedCardAuth(t *testing.T) {
	for _, scheme := range []struct {
		name      string
		auth      AuthConfig
		present   func(value string) map[string]string
		challenge string
	}{
		{"bearer", AuthConfig{}, func(v string) map[string]string { return map[string]string{"Authorization": "Bearer " + v} }, `Bearer realm="Vendor D"`},
		{"api key", AuthConfig{Scheme: AuthAPIKey, Header: "X-Vendor-Key"}, func(v string) map[string]string { return map[string]string{"X-Vendor-Key": v} }, `ApiKey realm="Vendor D", header="X-Vendor-Key"`},
	} {
		t.Run(scheme.name, func(t *testing.T) {
			d := VendorD()
			d.Auth = &scheme.auth
			d.Card.ExtendedCard = &ExtendedCardConfig{}
			f := tStart(t, Config{Vendors: []VendorConfig{d}})
			cred, ok := f.Credential("d")
			if !ok {
				t.Fatal("no credential for d")
			}
			c := tClient(t, f, tViaProxy)
			rpc := tURL(t, f, HostRPCD, DefaultRPCPath)
			calls := []struct {
				name string
				do   func(hdr map[string]string) *tResp
			}{
				{"1.0 GetExtendedAgentCard", func(hdr map[string]string) *tResp {
					hdr["A2A-Version"] = "1.0"
					return tPost(t, c, rpc, tEnvelope("GetExtendedAgentCard", map[string]any{}), hdr)
				}},
				{"0.3 agent/getAuthenticatedExtendedCard", func(hdr map[string]string) *tResp {
					return tPost(t, c, rpc, tEnvelope("agent/getAuthenticatedExtendedCard", map[string]any{}), hdr)
				}},
				{"GET /extendedAgentCard", func(hdr map[string]string) *tResp {
					return tREST(t, c, http.MethodGet, "/extendedAgentCard", "", hdr)
				}},
			}
			creds := []struct {
				name   string
				hdr    map[string]string
				status int
			}{
				{"absent", map[string]string{}, http.StatusUnauthorized},
				{"wrong", scheme.present("a2ac-d-not-the-one"), http.StatusUnauthorized},
				{"right", scheme.present(cred.Value), http.StatusOK},
			}
			for _, call := range calls {
				for _, cr := range creds {
					t.Run(call.name+"/"+cr.name, func(t *testing.T) {
						hdr := map[string]string{}
						for k, v := range cr.hdr {
							hdr[k] = v
						}
						r := call.do(hdr)
						if r.Status != cr.status {
							t.Fatalf("HTTP %d, want %d: %s", r.Status, cr.status, r.Body)
						}
						if cr.status == http.StatusUnauthorized {
							if got := r.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, strings.Fields(scheme.challenge)[0]) {
								t.Errorf("WWW-Authenticate %q, want %q", got, scheme.challenge)
							}
							if strings.Contains(string(r.Body), "(extended card)") {
								t.Errorf("the extended card went out without the credential: %s", r.Body)
							}
							return
						}
						card := r.JSON
						if res, ok := r.JSON["result"].(map[string]any); ok {
							card = res
						}
						if desc, _ := card["description"].(string); !strings.HasSuffix(desc, "(extended card)") {
							t.Errorf("not the extended card: %s", r.Body)
						}
					})
				}
			}
		})
	}
}

// TestExtendedCardNeedsAuth: an extended card on a vendor without an Auth
// is a configuration error naming the field, unless it is public; a
// public one is served to anyone.
func TestExtendedCardNeedsAuth(t *testing.T) {
	cases := []struct {
		name  string
		ec    ExtendedCardConfig
		auth  *AuthConfig
		field string // "" no error
	}{
		{"no auth", ExtendedCardConfig{}, nil, "vendors[0].card.extendedCard"},
		{"no auth, unconfigured", ExtendedCardConfig{Unconfigured: true}, nil, "vendors[0].card.extendedCard"},
		{"no auth, public", ExtendedCardConfig{Public: true}, nil, ""},
		{"auth", ExtendedCardConfig{}, &AuthConfig{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := VendorD()
			d.Card.ExtendedCard = &tc.ec
			d.Auth = tc.auth
			f, err := NewFleet(Config{Vendors: []VendorConfig{d}})
			if f != nil {
				defer f.Close()
			}
			var ce *ConfigError
			switch {
			case tc.field == "" && err != nil:
				t.Fatalf("NewFleet: %v", err)
			case tc.field != "" && (!errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(ce.Msg, "§13.3")):
				t.Fatalf("NewFleet: %v, want a ConfigError on %s", err, tc.field)
			case tc.field != "":
				return
			}
			if tc.ec.Public {
				r := tRPC(t, tClient(t, f, tViaProxy), tURL(t, f, HostRPCD, DefaultRPCPath), "1.0", "GetExtendedAgentCard", map[string]any{})
				if desc, _ := tPath(r.Result(), "description").(string); !strings.HasSuffix(desc, "(extended card)") {
					t.Errorf("public extended card: %s", r.Body)
				}
			}
		})
	}
}
