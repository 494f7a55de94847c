package credentials

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDeclareOn(t *testing.T) {
	const desc10 = `"description":"the credential Vendor D issued to you"`
	cases := []struct {
		name string
		in   Config
		card map[string]any
		want string
	}{
		{"1.0 bearer", Config{Vendor: "d", Organization: "Vendor D"}, map[string]any{},
			`{"securityRequirements":[{"schemes":{"bearerAuth":{"list":[]}}}],"securitySchemes":{"bearerAuth":{"httpAuthSecurityScheme":{` + desc10 + `,"scheme":"Bearer"}}}}`},
		{"1.0 api key", Config{Vendor: "d", Organization: "Vendor D", Scheme: APIKey, Name: "k"}, map[string]any{},
			`{"securityRequirements":[{"schemes":{"k":{"list":[]}}}],"securitySchemes":{"k":{"apiKeySecurityScheme":{` + desc10 + `,"location":"header","name":"X-Api-Key"}}}}`},
		{"0.3 card bearer", Config{Vendor: "d"}, map[string]any{"url": "u"},
			`{"security":[{"bearerAuth":[]}],"securitySchemes":{"bearerAuth":{"description":"the credential the vendor issued to you","scheme":"bearer","type":"http"}},"url":"u"}`},
		{"0.3 card api key", Config{Vendor: "d", Scheme: APIKey, Header: "X-Vendor-Key"}, map[string]any{"url": "u"},
			`{"security":[{"apiKeyAuth":[]}],"securitySchemes":{"apiKeyAuth":{"description":"the credential the vendor issued to you","in":"header","name":"X-Vendor-Key","type":"apiKey"}},"url":"u"}`},
		{"0.3 shape on a 1.0 card", Config{Vendor: "d", CardShape: "0.3"}, map[string]any{},
			`{"security":[{"bearerAuth":[]}],"securitySchemes":{"bearerAuth":{"description":"the credential the vendor issued to you","scheme":"bearer","type":"http"}}}`},
		{"1.0 shape on a 0.3 card", Config{Vendor: "d", CardShape: "1.0"}, map[string]any{"url": "u"},
			`{"securityRequirements":[{"schemes":{"bearerAuth":{"list":[]}}}],"securitySchemes":{"bearerAuth":{"httpAuthSecurityScheme":{"description":"the credential the vendor issued to you","scheme":"Bearer"}}},"url":"u"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tIssuer(t, c.in).DeclareOn(c.card)
			got, err := json.Marshal(c.card)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("card\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestDeclareOnEveryKind: beside its own scheme, the card declares one of
// each other kind of the 1.0 oneof, on the card's own origin; the
// requirement names the own scheme alone; the bearer scheme is written in
// lower case with a bearerFormat.
func TestDeclareOnEveryKind(t *testing.T) {
	card := map[string]any{"supportedInterfaces": []any{map[string]any{"url": "https://rpc.agent-d.example/a2a/v1"}}}
	tIssuer(t, Config{Vendor: "d", EveryKind: true}).DeclareOn(card)
	b, _ := json.Marshal(card)
	got := string(b)
	for _, want := range []string{`"bearerAuth":{"httpAuthSecurityScheme":{"bearerFormat":"JWT"`, `"scheme":"bearer"`, `"apiKeySecurityScheme"`, `"oauth2SecurityScheme"`,
		`"openIdConnectUrl":"https://rpc.agent-d.example/.well-known/openid-configuration"`, `"mtlsSecurityScheme"`,
		`"securityRequirements":[{"schemes":{"bearerAuth":{"list":[]}}}]`} {
		if !strings.Contains(got, want) {
			t.Errorf("card %s lacks %s", got, want)
		}
	}
}
