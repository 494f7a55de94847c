package mockvendor

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

func init() {
	tAddFaultCase("embedded-jwk", tFaultEmbeddedJWK)
	tAddFaultCase("foreign-jku", tFaultForeignJKU)
}

// tFaultEmbeddedJWK is the embedded-jwk case of TestFaults: the header
// carries a jwk under the vendor's kid; the vendor's key set does not
// verify the card, and the header's own key does.
func tFaultEmbeddedJWK(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("embedded-jwk", nil))
	card := e.card(t, tHostS, false)
	h := tJWSHeader(t, card.JSON)
	raw, ok := h["jwk"].(map[string]any)
	if !ok || h["kid"] != tKIDS {
		t.Fatalf("header %v: want a jwk under kid %s", h, tKIDS)
	}
	_, err := cardsig.Verify(context.Background(), card.Body, &cardsig.HTTPKeySource{Client: e.c})
	if cardsig.ClassOf(err) != cardsig.ClassSignatureInvalid {
		t.Errorf("verified against the vendor's key set: %v, want signature-invalid", err)
	}
	var jwk jose.JSONWebKey
	b, _ := json.Marshal(raw)
	if err := jwk.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	jwk.KeyID = tKIDS
	jku, _ := h["jku"].(string)
	if _, err := cardsig.Verify(context.Background(), card.Body, cardsig.StaticKeys{jku: {jwk}}); err != nil {
		t.Errorf("the header's own key does not verify the card: %v", err)
	}
}

// tFaultForeignJKU is the foreign-jku case: the card verifies under the
// foreign key set, and its signer is that key set's origin.
func tFaultForeignJKU(t *testing.T, e *tFaultEnv) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	const jku = "https://keys.elsewhere.example/.well-known/jwks.json"
	if _, err := e.f.AddFault("s", Spec("foreign-jku", ForeignJKU{KID: "x-1", JKU: jku})); err == nil {
		t.Error("a foreign-jku without a key was accepted")
	}
	e.add(t, "s", Spec("foreign-jku", ForeignJKU{KeyPEM: keyPEM, KID: "x-1", JKU: jku}))
	card := e.card(t, tHostS, false)
	if h := tJWSHeader(t, card.JSON); h["kid"] != "x-1" || h["jku"] != jku {
		t.Fatalf("header %v", h)
	}
	keys := cardsig.StaticKeys{jku: {{Key: &key.PublicKey, KeyID: "x-1", Algorithm: string(jose.ES256), Use: "sig"}}}
	v, err := cardsig.Verify(context.Background(), card.Body, keys)
	if err != nil || v.Issuer != "https://keys.elsewhere.example" {
		t.Errorf("Verify = %+v, %v; want the foreign origin as signer", v, err)
	}
}
