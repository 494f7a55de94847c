package credentials

import (
	"encoding/json"
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
