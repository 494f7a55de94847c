package fault

import (
	"cmp"
	"sync"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// UnknownKID signs the card with a key whose kid the vendor's JWKS never
// holds, not even after a re-fetch: the kid identifies no key the vendor
// publishes, which A2A 1.0 §8.4.2 has it do, as a card signed by someone
// else under the vendor's name would.
type UnknownKID struct {
	// KID is the kid of the stray key. Empty means "<vendor kid>-unknown".
	KID string `json:"kid,omitempty" doc:"kid of the key that is in no JWKS; empty means \"<kid>-unknown\""`

	once sync.Once
	key  *cardsig.Signer
	err  error
}

func init() {
	Register("unknown-kid", "the card is signed by a key absent from the JWKS", func() any { return &UnknownKID{} })
}

// SignCard signs the card by a key of its own under kid (SignHook).
func (u *UnknownKID) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	u.once.Do(func() {
		u.key, u.err = cardsig.NewSigner(s.Algorithm(), cmp.Or(u.KID, s.KeyID()+"-unknown"), s.KeySetURL())
	})
	if u.err != nil {
		return nil, u.err
	}
	return u.key.Sign(card)
}
