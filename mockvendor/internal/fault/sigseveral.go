package fault

import (
	"bytes"
	"sync"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// SeveralSignatures serves the card with three signatures, of which only
// the last verifies: the first by a retired key whose kid the JWKS no
// longer lists, the second by the vendor's own key over an earlier version
// of the card (a bad signature under a known kid), the third honest. A2A
// 1.0 §8.4.3 lets a card carry several signatures (to support key
// rotation); every signature names its kid as §8.4.2 asks. A verifier that
// accepts a card when one signature verifies takes it; one that judges the
// card by its first signature, or refuses a card with any bad signature,
// refuses a card its vendor signed.
type SeveralSignatures struct {
	once    sync.Once
	retired *cardsig.Signer
	err     error
}

func init() {
	Register("several-signatures", "the card carries three signatures; only the last (the vendor's key over the card) verifies", func() any { return &SeveralSignatures{} })
}

// SignCard signs the card three times and keeps the three signatures
// (SignHook).
func (f *SeveralSignatures) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	f.once.Do(func() {
		f.retired, f.err = cardsig.NewSigner(s.Algorithm(), s.KeyID()+"-retired", s.KeySetURL())
	})
	if f.err != nil {
		return nil, f.err
	}
	byRetired, err := f.retired.Sign(card)
	if err != nil {
		return nil, err
	}
	// An earlier version of the card: one more member than the card has
	// now, so its signature is the vendor's but not over this card.
	body := bytes.TrimSuffix(bytes.TrimSpace(card), []byte("}"))
	earlier := bytes.Join([][]byte{body, []byte(`,"documentationUrl":"https://docs.invalid/earlier"}`)}, nil)
	overEarlier, err := s.Sign(earlier)
	if err != nil {
		return nil, err
	}
	honest, err := s.Sign(card)
	if err != nil {
		return nil, err
	}
	return cardsig.CombineSignatures(byRetired, overEarlier, honest)
}
