package credentials

import (
	"strings"
	"testing"
)

func TestOAuthGrantAndCheck(t *testing.T) {
	if _, err := New(Config{Vendor: "d", Scheme: OAuth2, TokenURL: "http://auth.example/token"}); err == nil {
		t.Error("a token URL over plain http was accepted")
	}
	is := tIssuer(t, Config{Vendor: "d", Scheme: OAuth2, TokenURL: "https://auth.example/token", Credential: "secret-d", ExpireFirstToken: true})
	if _, _, code := is.Grant("a2ac-d", "wrong"); code != "invalid_client" {
		t.Errorf("wrong secret: %q", code)
	}
	tok1, n1, code := is.Grant("a2ac-d", "secret-d")
	tok2, n2, _ := is.Grant("a2ac-d", "secret-d")
	if code != "" || n1 != 1 || n2 != 2 || tok1 == tok2 || !strings.HasPrefix(tok1, "a2ac-d-at1-") {
		t.Fatalf("grants %q #%d, %q #%d (%q)", tok1, n1, tok2, n2, code)
	}
	if is.tokenSerial(tok2) != 2 || is.tokenSerial("nope") != 0 {
		t.Error("token serials")
	}
	cases := []struct {
		serial    int
		bearer    bool
		ok        bool
		challenge string
	}{
		{1, true, false, `error="invalid_token", error_description="the access token expired"`},
		{2, true, true, ""},
		{0, true, false, `error="invalid_token"`},
		{0, false, false, `Bearer realm="Vendor D"`},
	}
	for _, c := range cases {
		r, ok := is.CheckToken(c.serial, c.bearer)
		if ok != c.ok || !strings.Contains(r.Challenge, c.challenge) {
			t.Errorf("CheckToken(%d, %v) = %+v, %v", c.serial, c.bearer, r, ok)
		}
	}
	for i := 3; i <= maxTokens; i++ {
		is.Grant("a2ac-d", "secret-d")
	}
	if _, _, code := is.Grant("a2ac-d", "secret-d"); code != "unauthorized_client" {
		t.Errorf("past maxTokens: %q", code)
	}
	// A reset: the next token is the first again, and expired; the
	// earlier ones keep their standing.
	is.ResetTokens()
	_, n, code := is.Grant("a2ac-d", "secret-d")
	if _, ok := is.CheckToken(n, true); ok || code != "" || n != maxTokens+1 {
		t.Errorf("first token after a reset: #%d %q accepted %v", n, code, ok)
	}
	if _, ok := is.CheckToken(2, true); !ok {
		t.Error("token #2 refused after a reset")
	}
	if _, ok := is.CheckToken(1, true); ok {
		t.Error("the first expired token accepted after a reset")
	}
	var s Issued
	s.Add(is)
	if got, owners := s.Redact("x " + tok1 + " secret-d"); strings.Contains(got, tok1) || strings.Contains(got, "secret-d") || len(owners) != 1 {
		t.Errorf("Redact: %q %v", got, owners)
	}
}
