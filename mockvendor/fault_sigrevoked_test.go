package mockvendor

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("revoked-key", tFaultRevokedKey)
}

// tFaultRevokedKey is the revoked-key case of TestFaults: the JWKS lists
// the key until it is revoked, and is never to be stored.
func tFaultRevokedKey(t *testing.T, e *tFaultEnv) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pem, err := TestKeyPEM(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, revoked := range []bool{false, true} {
		id := e.add(t, "s", Spec("revoked-key", RevokedKey{KeyPEM: string(pem), KID: "old", Revoked: revoked}))
		if h := tJWSHeader(t, e.card(t, tHostS, true).JSON); h["kid"] != "old" {
			t.Errorf("revoked %v: header %v", revoked, h)
		}
		r := tGet(t, e.c, "https://"+tHostS+JWKSPath, nil)
		want := []string{tKIDS, "old"}
		if revoked {
			want = want[:1]
		}
		if kids := tJWKSKids(t, r.JSON); !slices.Equal(kids, want) {
			t.Errorf("revoked %v: JWKS kids %v, want %v", revoked, kids, want)
		}
		if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("revoked %v: Cache-Control %q", revoked, cc)
		}
		if !revoked {
			e.remove(t, id)
		}
	}
}
