package mockvendor_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// TestKeyFaultsVerify verifies vendor A's card under each key-hygiene
// fault with cardsig.Verify over the fleet's client: what verifies, with
// which kid, and what fails, with which class.
func TestKeyFaultsVerify(t *testing.T) {
	kid := mockvendor.KIDVendorA
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pem, err := mockvendor.TestKeyPEM(key)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		spec  mockvendor.FaultSpec
		class cardsig.Class // "" when the card verifies
		kid   string
	}{
		{"several signatures, one good", mockvendor.Spec("several-signatures", nil), "", kid},
		{"expired key", mockvendor.Spec("expired-key", nil), cardsig.ClassKeyExpired, kid + "-expired"},
		{"key before revocation", mockvendor.Spec("revoked-key", mockvendor.RevokedKey{KeyPEM: string(pem), KID: "old"}), "", "old"},
		{"revoked key", mockvendor.Spec("revoked-key", mockvendor.RevokedKey{KeyPEM: string(pem), KID: "old", Revoked: true}), cardsig.ClassKeyUnknown, "old"},
		{"jku over plain http", mockvendor.Spec("plain-http-jku", nil), cardsig.ClassKeyUnknown, kid + "-plain"},
		{"canonicalisation traps", mockvendor.Spec("canon-traps", nil), "", kid},
		{"traps, number tampered", mockvendor.Spec("canon-traps", mockvendor.CanonTraps{Tamper: "number"}), cardsig.ClassSignatureInvalid, kid},
		{"traps, unicode tampered", mockvendor.Spec("canon-traps", mockvendor.CanonTraps{Tamper: "unicode"}), cardsig.ClassSignatureInvalid, kid},
		{"traps, surrogate tampered", mockvendor.Spec("canon-traps", mockvendor.CanonTraps{Tamper: "surrogate"}), cardsig.ClassSignatureInvalid, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := sVendorAFleet(t, tc.spec)
			card := sFetchCard(t, f, sCardURLA)
			v, err := sVerify(t, f, card)
			if tc.class == "" {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				if v.KID != tc.kid || v.Form != cardsig.FormJCS {
					t.Errorf("verified %+v, want kid %s in form jcs", v, tc.kid)
				}
				return
			}
			if got := cardsig.ClassOf(err); got != tc.class {
				t.Fatalf("Verify: %v (class %q), want class %q", err, got, tc.class)
			}
			var ce *cardsig.Error
			if !errors.As(err, &ce) || ce.KID != tc.kid {
				t.Errorf("error kid %v, want %s", err, tc.kid)
			}
		})
	}
}

// TestPlainHTTPJKU shows the plain-http-jku card is one a careless client
// accepts: the http:// key set, fetched through the fleet's proxy, holds
// the key, and the card verifies against it.
func TestPlainHTTPJKU(t *testing.T) {
	f := sVendorAFleet(t, mockvendor.Spec("plain-http-jku", nil))
	card := sFetchCard(t, f, sCardURLA)
	jku := "http://" + mockvendor.HostVendorA + mockvendor.JWKSPath
	body, resp := sGet(t, f.Client(), jku)
	if resp.StatusCode != http.StatusOK || resp.TLS != nil {
		t.Fatalf("GET %s: %s (TLS %v)", jku, resp.Status, resp.TLS != nil)
	}
	keys, err := cardsig.ParseJWKS(body)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := cardsig.Verify(ctx, card, cardsig.StaticKeys{jku: keys})
	if err != nil || v.JKU != jku {
		t.Fatalf("Verify with the plain-HTTP key set: %+v, %v", v, err)
	}
	var plain int
	for _, e := range f.Trace().Events() {
		if e.Op == mockvendor.OpJWKSFetch && e.ServerName == "" {
			plain++
		}
	}
	if plain != 1 {
		t.Errorf("%d plain-HTTP JWKS fetches traced, want 1", plain)
	}
}
