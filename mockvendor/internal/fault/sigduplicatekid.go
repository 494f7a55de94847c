package fault

import (
	"sync"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// DuplicateKID puts a second, different key with the vendor's kid into the
// JWKS, so the kid no longer names one key [pin the signer's kid to the
// endpoint: Condition of Validity (1): the kid must be unique in the issuer's
// JWKS]. The key set breaks RFC 7517 §4.5 (keys in a JWK Set SHOULD use
// distinct kid values); no clause of A2A.
type DuplicateKID struct {
	once  sync.Once
	extra jose.JSONWebKey
}

func init() {
	Register("duplicate-kid", "the JWKS holds two different keys with the card's kid", func() any { return &DuplicateKID{} })
}

// OnJWKS puts another key under the signer's kid before its keys
// (JWKSHook).
func (d *DuplicateKID) OnJWKS(s CardSigner, keys []jose.JSONWebKey, _ int) []jose.JSONWebKey {
	d.once.Do(func() {
		if other, err := cardsig.NewSigner(s.Algorithm(), s.KeyID(), s.KeySetURL()); err == nil {
			d.extra = other.PublicJWK()
		}
	})
	if d.extra.Key == nil {
		return keys
	}
	return append([]jose.JSONWebKey{d.extra}, keys...)
}
