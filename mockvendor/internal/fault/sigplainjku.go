package fault

import (
	"strings"
	"sync"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// PlainHTTPJKU signs the card with a key of its own (kid "<vendor
// kid>-plain") whose jku is the vendor's JWKS URL with the http scheme:
// the issuer host answers that plain-HTTP fetch (through the fleet's
// proxy) with a key set that holds the key, while its HTTPS key set never
// does. A2A 1.0 §8.4.3 says public keys SHOULD be retrieved over secure
// channels (HTTPS); a key fetched in the clear could be anyone's, so a
// client that trusts the card on its strength trusts whoever sits on the
// path. The jku itself breaks no A2A clause (§8.4.2 asks only for a URL).
type PlainHTTPJKU struct {
	once sync.Once
	key  *cardsig.Signer
	err  error
}

func init() {
	Register("plain-http-jku", "the card is signed by a key its jku offers only over plain http://", func() any { return &PlainHTTPJKU{} })
}

func (f *PlainHTTPJKU) signer(s CardSigner) (*cardsig.Signer, error) {
	f.once.Do(func() {
		jku := "http://" + strings.TrimPrefix(s.KeySetURL(), "https://")
		f.key, f.err = cardsig.NewSigner(s.Algorithm(), s.KeyID()+"-plain", jku)
	})
	return f.key, f.err
}

// SignCard signs the card by the key, naming the http jku (SignHook).
func (f *PlainHTTPJKU) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	k, err := f.signer(s)
	if err != nil {
		return nil, err
	}
	return k.Sign(card)
}

// OnKeySet lists the key in a key set fetched over plain HTTP only
// (KeySetHook).
func (f *PlainHTTPJKU) OnKeySet(s CardSigner, ks *KeySet) {
	if k, err := f.signer(s); err == nil && ks.Plain {
		ks.Keys = append(ks.Keys, k.PublicJWK())
	}
}
