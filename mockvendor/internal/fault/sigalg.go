package fault

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// AlgNone replaces the signature with an unsecured JWS (alg "none", empty
// signature) that names the vendor's kid and JWKS. Like AlgConfusion it is
// a forgery: no signature made with the vendor's private key, as A2A 1.0
// §8.4.2 signs a card.
type AlgNone struct{}

// AlgConfusion signs the card with HS256, using the vendor's public key
// bytes as the HMAC secret: a verifier that lets the header pick the
// algorithm and feeds it the public key accepts it.
type AlgConfusion struct{}

// Unsigned serves the vendor's card without signatures although the vendor
// has a key and a JWKS.
type Unsigned struct{}

func init() {
	Register("alg-none", "the card's signature header says alg none", func() any { return &AlgNone{} })
	Register("hs256-confusion", "the card is signed HS256 with the public key's bytes as secret", func() any { return &AlgConfusion{} })
	Register("unsigned-card", "the card carries no signatures", func() any { return &Unsigned{} })
}

// SignCard signs the card with alg none (SignHook).
func (AlgNone) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	return cardsig.SignAlgNone(card, s.KeyID(), s.KeySetURL())
}

// SignCard signs the card HS256 with the public key as secret (SignHook).
func (AlgConfusion) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	b, err := s.SignHS256Confusion(card)
	if err != nil {
		return nil, fmt.Errorf("hs256-confusion: %w", err)
	}
	return b, nil
}

// SignCard serves the card unsigned (SignHook).
func (Unsigned) SignCard(_ VendorView, _ CardSigner, card []byte) ([]byte, error) { return card, nil }
