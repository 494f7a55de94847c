package credentials

import (
	"errors"
	"regexp"
	"testing"
)

// tIssuer is New that fails the test on an error.
func tIssuer(t *testing.T, c Config) *Issuer {
	t.Helper()
	is, err := New(c)
	if err != nil {
		t.Fatalf("New(%+v): %v", c, err)
	}
	return is
}

func TestNewResolvesDefaults(t *testing.T) {
	cases := []struct {
		name                      string
		in                        Config
		scheme, header, card, via string
	}{
		{"empty is bearer", Config{Vendor: "d"}, Bearer, "", "bearerAuth", "bearer"},
		{"bearer ignores header", Config{Vendor: "d", Header: "X-Key"}, Bearer, "X-Key", "bearerAuth", "bearer"},
		{"api key default header", Config{Vendor: "c", Scheme: APIKey}, APIKey, "X-Api-Key", "apiKeyAuth", "header:X-Api-Key"},
		{"api key header canonical", Config{Vendor: "c", Scheme: APIKey, Header: "x-vendor-key"}, APIKey, "X-Vendor-Key", "apiKeyAuth", "header:X-Vendor-Key"},
		{"named scheme", Config{Vendor: "c", Scheme: APIKey, Name: "key"}, APIKey, "X-Api-Key", "key", "header:X-Api-Key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := tIssuer(t, c.in)
			if is.scheme != c.scheme || is.header != c.header || is.name != c.card || is.Via() != c.via || is.Vendor() != c.in.Vendor {
				t.Errorf("got scheme %q header %q name %q via %q vendor %q; want %q %q %q %q %q",
					is.scheme, is.header, is.name, is.Via(), is.Vendor(), c.scheme, c.header, c.card, c.via, c.in.Vendor)
			}
		})
	}
}

func TestNewMakesUpACredential(t *testing.T) {
	a, b := tIssuer(t, Config{Vendor: "d"}), tIssuer(t, Config{Vendor: "d"})
	if !regexp.MustCompile(`^a2ac-d-[0-9a-f]{32}$`).MatchString(a.value) {
		t.Errorf("made-up credential %q, want a2ac-d- and 32 hex digits", a.value)
	}
	if a.value == b.value {
		t.Errorf("two issuers made up the same credential %q", a.value)
	}
	if got := tIssuer(t, Config{Vendor: "d", Credential: "tok-fixed"}).value; got != "tok-fixed" {
		t.Errorf("configured credential: got %q, want tok-fixed", got)
	}
}

func TestNewRejects(t *testing.T) {
	cases := []struct {
		in    Config
		field string
	}{
		{Config{Scheme: "basic"}, "auth.scheme"},
		{Config{CardShape: "2.0"}, "auth.cardShape"},
		{Config{Credential: "a b"}, "auth.credential"},
		{Config{Credential: "a\tb"}, "auth.credential"},
		{Config{Credential: "a\r\nb"}, "auth.credential"},
		{Config{Credential: `a"b`}, "auth.credential"},
		{Config{Credential: "a,b"}, "auth.credential"},
		{Config{Credential: `a\b`}, "auth.credential"},
	}
	for _, c := range cases {
		_, err := New(c.in)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("New(%+v) = %v, want a ConfigError on %s", c.in, err, c.field)
		}
	}
	for _, shape := range []string{"", "1.0", "0.3"} {
		if _, err := New(Config{Vendor: "d", CardShape: shape}); err != nil {
			t.Errorf("card shape %q refused: %v", shape, err)
		}
	}
}

func TestIssuerCredential(t *testing.T) {
	origins := []string{"https://rpc.example"}
	cases := []struct {
		in   Config
		want Credential
	}{
		{Config{Vendor: "d", Credential: "tok", Header: "X-Ignored"}, Credential{Vendor: "d", Scheme: Bearer, Value: "tok", Origins: origins}},
		{Config{Vendor: "c", Scheme: APIKey, Credential: "key"}, Credential{Vendor: "c", Scheme: APIKey, Header: "X-Api-Key", Value: "key", Origins: origins}},
	}
	for _, c := range cases {
		got := tIssuer(t, c.in).Credential(origins)
		if got.Vendor != c.want.Vendor || got.Scheme != c.want.Scheme || got.Header != c.want.Header || got.Value != c.want.Value || len(got.Origins) != 1 || got.Origins[0] != origins[0] {
			t.Errorf("Credential of %+v = %+v, want %+v", c.in, got, c.want)
		}
	}
}
