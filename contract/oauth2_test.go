package contract

import (
	"strings"
	"testing"
)

func TestValidateOAuth2(t *testing.T) {
	good := OAuth2Client{TokenURL: "https://auth.agent-d.example/oauth2/token", ClientID: "a2ac-d", ClientSecret: "s3cret"}
	with := func(f func(*OAuth2Client)) OAuth2Client { c := good; f(&c); return c }
	cases := []struct {
		name   string
		origin string
		client OAuth2Client
		want   string // "" means valid
	}{
		{"good", "https://rpc.agent-d.example", good, ""},
		{"good with scopes", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.Scopes = []string{"a2a.invoke"} }), ""},
		{"origin with a path", "https://rpc.agent-d.example/a2a", good, "origin"},
		{"plain http origin", "http://rpc.agent-d.example", good, "https origin"},
		{"token URL over http", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.TokenURL = "http://auth.agent-d.example/t" }), "tokenUrl: not https"},
		{"token URL missing", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.TokenURL = "" }), "tokenUrl: empty"},
		{"token URL with user info", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.TokenURL = "https://u:p@auth.agent-d.example/t" }), "user info"},
		{"no client id", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.ClientID = "" }), "clientId is empty"},
		{"client id with a colon", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.ClientID = "a:b" }), "colon"},
		{"no secret", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.ClientSecret = "" }), "clientSecret is empty"},
		{"secret with a newline", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.ClientSecret = "a\nb" }), "control character"},
		{"scope with a space", "https://rpc.agent-d.example", with(func(c *OAuth2Client) { c.Scopes = []string{"a b"} }), "scope token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := Trust{OAuth2: map[string]OAuth2Client{c.origin: c.client}}
			err := tr.Validate()
			if c.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate: %v, want an error with %q", err, c.want)
			}
		})
	}
}
