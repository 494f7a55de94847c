package fault

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/url"
	"sync"

	"github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
)

// EmbeddedJWK signs the card with a key of the fault's own and puts that
// key's public half in the protected header (jwk), under the vendor's kid
// and jku. The issuer's key set does not hold it: only a verifier that
// takes the key the signature itself offers accepts the card, which anyone
// could have signed [RFC 7515 §4.1.3; A2A 1.0 §8.4.3]. A forgery: the kid
// names no signing key of the vendor's (A2A 1.0 §8.4.2).
type EmbeddedJWK struct {
	once sync.Once
	key  *ecdsa.PrivateKey
	err  error
}

// ForeignJKU signs the card with the key in KeyPEM under kid KID, naming
// JKU as the key set: a key set served by another host (a fleet vendor of
// its own), which holds that key. The signature verifies, but its signer is
// the JKU's origin, not the card's issuer [RFC 7515 §4.1.2; catalog: the
// signer of a card is the origin of its jku].
type ForeignJKU struct {
	// KeyPEM is the signing key (an ECDSA P-256 key, PKCS#8 or SEC 1).
	// Required.
	KeyPEM string `json:"keyPEM" doc:"the ES256 signing key in PEM; required"`
	// KID is the kid in the header. Required.
	KID string `json:"kid" doc:"the kid in the header; required"`
	// JKU is the https URL of the key set that holds the key. Required.
	JKU string `json:"jku" doc:"the https URL of the foreign key set; required"`

	key *ecdsa.PrivateKey
}

func init() {
	Register("embedded-jwk", "signed by a key embedded in the header (jwk), not in the key set", func() any { return &EmbeddedJWK{} })
	Register("foreign-jku", "signed by a key whose jku is another host's key set", func() any { return &ForeignJKU{} })
}

// SignCard signs the card by a key of its own, carried in the header's
// jwk (SignHook).
func (f *EmbeddedJWK) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	f.once.Do(func() { f.key, f.err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader) })
	if f.err != nil {
		return nil, fmt.Errorf("embedded-jwk: %w", f.err)
	}
	jwk, err := jose.JSONWebKey{Key: &f.key.PublicKey, Algorithm: string(jose.ES256), Use: "sig"}.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("embedded-jwk: %w", err)
	}
	header := map[string]any{"alg": "ES256", "typ": "JOSE", "kid": s.KeyID(), "jku": s.KeySetURL(), "jwk": json.RawMessage(jwk)}
	return cardsig.SignWithHeader(card, header, es256(f.key))
}

// es256 signs a JWS signing input with key: SHA-256, then R || S, each 32
// bytes (RFC 7518 §3.4).
func es256(key *ecdsa.PrivateKey) func([]byte) ([]byte, error) {
	return func(input []byte) ([]byte, error) {
		h := sha256.Sum256(input)
		r, s, err := ecdsa.Sign(rand.Reader, key, h[:])
		if err != nil {
			return nil, err
		}
		out := make([]byte, 64)
		r.FillBytes(out[:32])
		s.FillBytes(out[32:])
		return out, nil
	}
}

func (f *ForeignJKU) validate() error {
	if f.KeyPEM == "" || f.KID == "" || f.JKU == "" {
		return fmt.Errorf("keyPEM, kid and jku are required")
	}
	if u, err := url.Parse(f.JKU); err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("jku %q is not an https URL", f.JKU)
	}
	k, err := netx.ParseKeyPEM([]byte(f.KeyPEM))
	if err != nil {
		return fmt.Errorf("keyPEM: %w", err)
	}
	ec, ok := k.(*ecdsa.PrivateKey)
	if !ok || ec.Curve != elliptic.P256() {
		return fmt.Errorf("keyPEM: want an ECDSA P-256 key, not %T", k)
	}
	f.key = ec
	return nil
}

// SignCard signs the card by the configured key, kid and jku (SignHook).
func (f *ForeignJKU) SignCard(_ VendorView, _ CardSigner, card []byte) ([]byte, error) {
	if f.key == nil {
		if err := f.validate(); err != nil {
			return nil, fmt.Errorf("foreign-jku: %w", err)
		}
	}
	s := &cardsig.Signer{Key: f.key, Alg: jose.ES256, KID: f.KID, JKU: f.JKU}
	return s.Sign(card)
}
