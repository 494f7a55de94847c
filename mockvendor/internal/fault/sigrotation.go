package fault

import (
	"cmp"
	"sync"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// KeyRotation signs the card with a new key that the first JWKS response
// lacks and every later one holds, as after a key rotation whose JWKS a
// client has cached (the OpenID relying-party test rp-key-rotation-op-sign-key
// is the model). For those first fetches the jku's set lacks the key the
// kid names, which A2A 1.0 §8.4.2 describes the jku as holding: a key set
// that lags its card.
type KeyRotation struct {
	// NewKID is the kid of the new key. Empty means "<vendor kid>-next".
	NewKID string `json:"newKid,omitempty" doc:"kid of the rotated-in key; empty means \"<kid>-next\""`
	// StaleFetches is how many JWKS fetches still lack the new key. Zero
	// means 1.
	StaleFetches int `json:"staleFetches,omitempty" doc:"JWKS fetches that still lack the new key; 0 means 1"`

	once sync.Once
	key  *cardsig.Signer
	err  error

	mu      sync.Mutex
	fetches int // JWKS fetches since the fault was attached
}

func init() {
	Register("key-rotation", "the card is signed by a new key the first JWKS fetch lacks", func() any { return &KeyRotation{} })
}

func (k *KeyRotation) newKey(s CardSigner) (*cardsig.Signer, error) {
	k.once.Do(func() {
		k.key, k.err = cardsig.NewSigner(s.Algorithm(), cmp.Or(k.NewKID, s.KeyID()+"-next"), s.KeySetURL())
	})
	return k.key, k.err
}

// SignCard signs the card by the new key (SignHook).
func (k *KeyRotation) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	key, err := k.newKey(s)
	if err != nil {
		return nil, err
	}
	return key.Sign(card)
}

// OnJWKS adds the new key to the fetches after the stale ones (JWKSHook).
func (k *KeyRotation) OnJWKS(s CardSigner, keys []jose.JSONWebKey, _ int) []jose.JSONWebKey {
	// Count the fetches since the fault was attached, not the vendor's:
	// a rotation added at run time must still serve its stale fetches.
	k.mu.Lock()
	k.fetches++
	n := k.fetches
	k.mu.Unlock()
	stale := k.StaleFetches
	if stale == 0 {
		stale = 1
	}
	if n <= stale {
		return keys
	}
	key, err := k.newKey(s)
	if err != nil {
		return keys
	}
	return append(keys, key.PublicJWK())
}
