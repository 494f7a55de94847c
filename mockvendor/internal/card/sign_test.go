package card

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http/httptest"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// tPEM is a PKCS#8 PEM of a fresh key: ECDSA P-256, or RSA with rsaKey.
func tPEM(t *testing.T, rsaKey bool) string {
	t.Helper()
	var key any
	var err error
	if rsaKey {
		key, err = rsa.GenerateKey(rand.Reader, 2048)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// TestSigningSpecCheck: what NewSigner refuses, field by field.
func TestSigningSpecCheck(t *testing.T) {
	ec := tPEM(t, false)
	cases := []struct {
		name  string
		spec  SigningSpec
		field string // "" = accepted
	}{
		{"issuer from the first named card host", SigningSpec{KID: "k", CardHosts: []string{"", "agent.example", "other.example"}}, ""},
		{"configured issuer", SigningSpec{KID: "k", Issuer: "keys.example"}, ""},
		{"no issuer", SigningSpec{KID: "k", CardHosts: []string{""}}, "signing.issuer"},
		{"RS256", SigningSpec{KID: "k", Alg: "RS256", Issuer: "i"}, ""},
		{"unsupported alg", SigningSpec{KID: "k", Alg: "HS256", Issuer: "i"}, "signing.alg"},
		{"configured key", SigningSpec{KID: "k", Issuer: "i", KeyPEM: ec}, ""},
		{"not a key", SigningSpec{KID: "k", Issuer: "i", KeyPEM: "nope"}, "signing.keyPEM"},
		{"EC key for RS256", SigningSpec{KID: "k", Alg: "RS256", Issuer: "i", KeyPEM: ec}, "signing.keyPEM"},
	}
	for _, c := range cases {
		err := c.spec.Check()
		var ce *ConfigError
		if c.field == "" && err != nil || c.field != "" && (!errors.As(err, &ce) || ce.Field != c.field) {
			t.Errorf("%s: %v, want field %q", c.name, err, c.field)
		}
	}
}

// TestSigner: a signer names its kid, its issuer's JWKS and its
// algorithm, and signs with the configured key.
func TestSigner(t *testing.T) {
	for _, c := range []struct {
		alg    string
		rsaKey bool
		want   jose.SignatureAlgorithm
	}{{"", false, jose.ES256}, {"RS256", true, jose.RS256}} {
		s, err := NewSigner(SigningSpec{KID: "k-1", Alg: c.alg, KeyPEM: tPEM(t, c.rsaKey), CardHosts: []string{"agent.example"}})
		if err != nil {
			t.Fatal(err)
		}
		if s.KeyID() != "k-1" || s.KeySetURL() != "https://agent.example"+KeySetPath || s.Issuer() != "agent.example" || s.Algorithm() != c.want {
			t.Errorf("%s: kid %s, jku %s, issuer %s, alg %s", c.want, s.KeyID(), s.KeySetURL(), s.Issuer(), s.Algorithm())
		}
		if pk := s.PublicKey(); pk.KeyID != "k-1" || pk.Algorithm != string(c.want) || !pk.IsPublic() {
			t.Errorf("%s: public key %+v", c.want, pk)
		}
	}
	fresh, err := NewSigner(SigningSpec{KID: "k-2", Issuer: "keys.example"})
	if err != nil || fresh.Algorithm() != jose.ES256 || fresh.KeySetURL() != "https://keys.example"+KeySetPath {
		t.Errorf("fresh signer: %v", err)
	}
}

// tVerify verifies card against s's key set.
func tVerify(card []byte, s *Signer) error {
	src := cardsig.StaticKeys{s.KeySetURL(): {s.PublicKey()}}
	_, err := cardsig.Verify(context.Background(), card, src)
	return err
}

// TestSignCard: a card without the 0.3 members, or a signer without
// LegacyFields, gets one signature over the whole card; a card with them
// and LegacyFields two: the first over the card without them (the
// @a2a-js/sdk projection), the second over the whole card. A url changed
// after signing is covered by the second, not the first, so a verifier of
// the whole document refuses it.
func TestSignCard(t *testing.T) {
	spec := tSpec()
	plain, err := NewSigner(SigningSpec{KID: "k", Issuer: "agent-d.example"})
	if err != nil {
		t.Fatal(err)
	}
	hybrid := *plain
	hybrid.legacyFields = true
	cases := []struct {
		name string
		s    *Signer
		doc  map[string]any
		sigs int
	}{
		{"without 0.3 members", &hybrid, func() map[string]any { s := *spec; s.Versions = []string{"1.0"}; return s.Document() }(), 1},
		{"no legacy fields", plain, spec.Document(), 1},
		{"hybrid", &hybrid, spec.Document(), 2},
	}
	for _, c := range cases {
		signed, err := c.s.SignCard(c.doc)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var doc map[string]any
		if err := json.Unmarshal(signed, &doc); err != nil {
			t.Fatal(err)
		}
		sigs, _ := doc["signatures"].([]any)
		if len(sigs) != c.sigs {
			t.Fatalf("%s: %d signatures, want %d", c.name, len(sigs), c.sigs)
		}
		if err := tVerify(signed, c.s); err != nil {
			t.Errorf("%s: whole card: %v", c.name, err)
		}
		if c.sigs != 2 {
			continue
		}
		for i, over := range []string{"projection", "whole card"} {
			one := map[string]any{}
			for k, v := range doc {
				one[k] = v
			}
			one["signatures"] = []any{sigs[i]}
			if i == 0 {
				for _, k := range LegacyMembers {
					delete(one, k)
				}
			}
			if err := tVerify(must(json.Marshal(one)), c.s); err != nil {
				t.Errorf("signature %d over the %s: %v", i, over, err)
			}
		}
		doc["url"] = "https://evil.example/a2a"
		if err := tVerify(must(json.Marshal(doc)), c.s); err == nil {
			t.Error("a card whose url changed after signing verifies")
		}
	}
}

// TestServeKeySet: the JWKS answer holds the keys given, as a key set.
func TestServeKeySet(t *testing.T) {
	s, err := NewSigner(SigningSpec{KID: "k", Issuer: "i"})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	ServeKeySet(w, []jose.JSONWebKey{s.PublicKey()})
	keys, err := cardsig.ParseJWKS(w.Body.Bytes())
	if err != nil || len(keys) != 1 || keys[0].KeyID != "k" {
		t.Errorf("key set %s: %v", w.Body, err)
	}
	if w.Header().Get("Content-Type") != "application/jwk-set+json" || w.Header().Get("Cache-Control") != "public, max-age=300" {
		t.Errorf("headers %v", w.Header())
	}
}
