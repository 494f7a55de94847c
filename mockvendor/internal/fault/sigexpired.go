package fault

import (
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// ExpiredKey signs the card with a key of its own (kid "<vendor
// kid>-expired") whose validity ended a year ago, and lists that key in the
// JWKS next to the vendor's current key. A2A 1.0 §8.4.3 forbids verifying
// with an expired key but does not say how a key's expiry is published, so
// the key set publishes it the two ways a client can read from the JWK it
// fetched: an x5c certificate (RFC 7517 §4.7) for the key whose validity
// period (RFC 5280 §4.1.2.5) ended a year ago, and an "exp" member (a
// NumericDate, as the JWKs of OpenID Federation 1.0's historical key sets
// carry) with the same instant. The vendor signs with a key it has let
// expire: no A2A clause forbids a server that, but a verifier must not
// accept it.
type ExpiredKey struct {
	once sync.Once
	key  *cardsig.Signer
	cert *x509.Certificate
	err  error
}

func init() {
	Register("expired-key", "the card is signed by a key whose published validity ended a year ago (x5c notAfter and exp)", func() any { return &ExpiredKey{} })
}

// setup makes the key and its certificate once: valid from two years ago
// to one year ago.
func (f *ExpiredKey) setup(s CardSigner) error {
	f.once.Do(func() {
		f.key, f.err = cardsig.NewSigner(s.Algorithm(), s.KeyID()+"-expired", s.KeySetURL())
		if f.err != nil {
			return
		}
		now := time.Now().Truncate(time.Second)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(now.UnixNano()),
			Subject:      pkix.Name{CommonName: f.key.KID},
			NotBefore:    now.AddDate(-2, 0, 0),
			NotAfter:     now.AddDate(-1, 0, 0),
			KeyUsage:     x509.KeyUsageDigitalSignature,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, f.key.Key.Public(), f.key.Key)
		if err != nil {
			f.err = fmt.Errorf("expired-key: certificate: %w", err)
			return
		}
		f.cert, f.err = x509.ParseCertificate(der)
	})
	return f.err
}

// SignCard signs the card by the expired key (SignHook).
func (f *ExpiredKey) SignCard(_ VendorView, s CardSigner, card []byte) ([]byte, error) {
	if err := f.setup(s); err != nil {
		return nil, err
	}
	return f.key.Sign(card)
}

// OnJWKS lists the expired key, with its certificate, after the vendor's
// keys (JWKSHook).
func (f *ExpiredKey) OnJWKS(s CardSigner, keys []jose.JSONWebKey, _ int) []jose.JSONWebKey {
	if f.setup(s) != nil {
		return keys
	}
	k := f.key.PublicJWK()
	k.Certificates = []*x509.Certificate{f.cert}
	return append(keys, k)
}

// OnKeySet adds the expired key's "exp" member (KeySetHook).
func (f *ExpiredKey) OnKeySet(s CardSigner, ks *KeySet) {
	if f.setup(s) != nil {
		return
	}
	if ks.Members == nil {
		ks.Members = map[string]map[string]any{}
	}
	ks.Members[f.key.KID] = map[string]any{"exp": f.cert.NotAfter.Unix()}
}
