package fault

import (
	"crypto"
	"fmt"
	"sync"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
)

// RevokedKey signs the card with a key of the vendor's (KeyPEM, under KID)
// that the JWKS lists until the vendor revokes it (Revoked). A2A 1.0
// §8.4.3 forbids verifying with a revoked key but does not say how a
// revocation is published; here the vendor revokes a key by removing it
// from its key set, the one publication every JWKS client can see, and
// every key set answer says Cache-Control: no-store (RFC 9111 §5.2.2.5) so
// that no client may keep an earlier copy that still lists the key. The
// card stays signed by the revoked key, as a copy signed before the
// revocation, or by whoever took the key, would be.
type RevokedKey struct {
	// KeyPEM is the signing key (an ECDSA P-256 key, PKCS#8 or SEC 1).
	// Required: the same key must sign before and after the revocation.
	KeyPEM string `json:"keyPEM" doc:"the ES256 signing key in PEM; required"`
	// KID is the key's kid. Required.
	KID string `json:"kid" doc:"the key's kid; required"`
	// Revoked removes the key from the JWKS. False lists it.
	Revoked bool `json:"revoked,omitempty" doc:"the key is revoked: the JWKS no longer lists it"`

	mu  sync.Mutex
	key *cardsig.Signer
}

func init() {
	Register("revoked-key", "the card is signed by a key the JWKS lists until revoked, then no longer; the JWKS is no-store", func() any { return &RevokedKey{} })
}

// signer parses the configured key once.
func (f *RevokedKey) signer(s CardSigner) (*cardsig.Signer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.key != nil {
		return f.key, nil
	}
	if f.KeyPEM == "" || f.KID == "" {
		return nil, fmt.Errorf("revoked-key: keyPEM and kid are required")
	}
	k, err := netx.ParseKeyPEM([]byte(f.KeyPEM))
	if err != nil {
		return nil, fmt.Errorf("revoked-key: keyPEM: %w", err)
	}
	cs, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("revoked-key: keyPEM: %T cannot sign", k)
	}
	f.key = &cardsig.Signer{Key: cs, KID: f.KID, JKU: s.KeySetURL()}
	return f.key, nil
}

// SignCard signs the card by the key, revoked or not (SignHook).
func (f *RevokedKey) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	k, err := f.signer(s)
	if err != nil {
		return nil, err
	}
	return k.Sign(card)
}

// OnJWKS lists the key until it is revoked (JWKSHook).
func (f *RevokedKey) OnJWKS(s CardSigner, keys []jose.JSONWebKey, _ int) []jose.JSONWebKey {
	k, err := f.signer(s)
	if err != nil || f.Revoked {
		return keys
	}
	return append(keys, k.PublicJWK())
}

// OnKeySet forbids storing the key set (KeySetHook).
func (f *RevokedKey) OnKeySet(_ CardSigner, ks *KeySet) { ks.CacheControl = "no-store" }
