package credentials

import "testing"

func TestCheck(t *testing.T) {
	bearer := Config{Vendor: "d"}
	key := Config{Vendor: "c", Scheme: APIKey, Header: "X-Vendor-Key", Organization: "Acme"}
	cases := []struct {
		name            string
		in              Config
		own, sameWay    bool
		ok              bool
		challenge       string
		message, scheme string
	}{
		{"bearer own", bearer, true, true, true, "", "", ""},
		{"bearer absent", bearer, false, false, false, `Bearer realm="Vendor D"`, "unauthenticated: a bearer token is required", "bearerAuth"},
		{"bearer not valid", bearer, false, true, false, `Bearer realm="Vendor D", error="invalid_token", error_description="the token is not valid here"`,
			"unauthenticated: the bearer token is not valid", "bearerAuth"},
		{"bearer revoked", Config{Vendor: "d", Revoked: true}, true, true, false, `Bearer realm="Vendor D", error="invalid_token", error_description="the token is not valid here"`,
			"unauthenticated: the bearer token is not valid", "bearerAuth"},
		{"api key own", key, true, true, true, "", "", ""},
		{"api key absent", key, false, false, false, `ApiKey realm="Acme", header="X-Vendor-Key"`,
			"unauthenticated: an API key in the X-Vendor-Key header is required", "apiKeyAuth"},
		{"api key not valid", key, false, true, false, `ApiKey realm="Acme", header="X-Vendor-Key"`,
			"unauthenticated: the API key in X-Vendor-Key is not valid", "apiKeyAuth"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := tIssuer(t, c.in).Check(c.own, c.sameWay)
			if ok != c.ok || r.Challenge != c.challenge || r.Message != c.message || r.Scheme != c.scheme {
				t.Errorf("Check(%v, %v) = %+v, %v; want {Challenge:%s Message:%s Scheme:%s}, %v", c.own, c.sameWay, r, ok, c.challenge, c.message, c.scheme, c.ok)
			}
		})
	}
}
