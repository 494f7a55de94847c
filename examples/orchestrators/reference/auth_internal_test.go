package reference

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
)

// TestCredentialFor reads both card shapes and keys credentials by the
// endpoint's origin only.
func TestCredentialFor(t *testing.T) {
	const (
		bearer10  = `{"securitySchemes":{"b":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}},"securityRequirements":[{"schemes":{"b":{"list":[]}}}]}`
		apiKey03  = `{"securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X-Key"}},"security":[{"k":[]}]}`
		oauthOnly = `{"securitySchemes":{"o":{"oauth2SecurityScheme":{"flows":{}}}},"securityRequirements":[{"schemes":{"o":{"list":["read"]}}}]}`
		optional  = `{"securitySchemes":{"b":{"type":"http","scheme":"bearer"}},"security":[{"b":[]},{}]}`
		open      = `{"name":"x"}`
	)
	ep := "https://rpc.d.example/a2a"
	held := map[string]contract.Credential{
		"https://rpc.d.example":  {Scheme: contract.CredentialSchemeBearer, Value: "tok-d"},
		"https://card.d.example": {Scheme: contract.CredentialSchemeBearer, Value: "tok-card"},
	}
	key := map[string]contract.Credential{"https://rpc.d.example": {Scheme: contract.CredentialSchemeAPIKey, Value: "key-d"}}
	cases := []struct {
		name   string
		card   string
		creds  map[string]contract.Credential
		br     Breaks
		ok     bool
		header string
		value  string
	}{
		{"1.0 bearer", bearer10, held, Breaks{}, true, "Authorization", "Bearer tok-d"},
		{"0.3 api key", apiKey03, key, Breaks{}, true, "X-Key", "key-d"},
		{"api key sent as bearer (break)", apiKey03, key, Breaks{APIKeyAsBearer: true}, true, "Authorization", "Bearer key-d"},
		{"wrong kind held", apiKey03, held, Breaks{}, false, "", ""},
		{"none held for the origin", bearer10, map[string]contract.Credential{"https://card.d.example": held["https://card.d.example"]}, Breaks{}, false, "", ""},
		{"by card origin (break)", bearer10, held, Breaks{CredentialByCard: true}, true, "Authorization", "Bearer tok-card"},
		{"a scheme it cannot present", oauthOnly, held, Breaks{}, false, "", ""},
		{"an alternative needs nothing", optional, nil, Breaks{}, true, "", ""},
		{"an open card", open, nil, Breaks{}, true, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			card, err := parseCard([]byte(c.card))
			if err != nil {
				t.Fatal(err)
			}
			r := &run{br: c.br, req: contract.DelegationRequest{Trust: contract.Trust{Credentials: c.creds}}}
			a := &attempt{card: card, cardURL: "https://card.d.example/.well-known/agent-card.json", ep: iface{URL: ep}}
			p, ok := r.credentialFor(a)
			if ok != c.ok || p.header != c.header || p.value != c.value {
				t.Fatalf("credentialFor = %+v, %v; want {%s %s}, %v", p, ok, c.header, c.value, c.ok)
			}
		})
	}
}
