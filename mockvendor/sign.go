package mockvendor

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"fmt"
	"net/http"
	"strconv"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
)

// JWKSPath is where a signing vendor's issuer host serves its JWKS.
const JWKSPath = "/.well-known/jwks.json"

// vendorSigner holds a vendor's card-signing key and where its JWKS lives.
type vendorSigner struct {
	*cardsig.Signer
	issuer string // host name that serves the JWKS
	jku    string
}

// KeyID is the kid of the vendor's key (CardSigner).
func (s *vendorSigner) KeyID() string { return s.KID }

// KeySetURL is the jku of the vendor's key: its JWKS URL (CardSigner).
func (s *vendorSigner) KeySetURL() string { return s.jku }

// resolveSigning checks a signing configuration against the vendor's hosts
// without generating anything: the issuer host (the configured one, else the
// first named card host), the algorithm, and the configured key (nil means
// a fresh one). Start and LoadConfig both refuse what it refuses.
func resolveSigning(sc *SigningConfig, hosts []HostConfig) (issuer string, alg jose.SignatureAlgorithm, key crypto.Signer, err error) {
	issuer = sc.Issuer
	for _, h := range hosts {
		if issuer == "" && h.Card {
			issuer = h.Name
		}
	}
	if issuer == "" {
		return "", "", nil, &ConfigError{Field: "signing.issuer", Msg: "a signing vendor needs a named card host or an issuer"}
	}
	alg = jose.ES256
	switch sc.Alg {
	case "", "ES256":
	case "RS256":
		alg = jose.RS256
	default:
		return "", "", nil, &ConfigError{Field: "signing.alg", Msg: fmt.Sprintf("unsupported algorithm %q (ES256 or RS256)", sc.Alg)}
	}
	if sc.KeyPEM != "" {
		if key, err = netx.ParseKeyPEM([]byte(sc.KeyPEM)); err != nil {
			return "", "", nil, &ConfigError{Field: "signing.keyPEM", Msg: err.Error()}
		}
		if !keyFitsAlg(key, alg) {
			return "", "", nil, &ConfigError{Field: "signing.keyPEM", Msg: fmt.Sprintf("a %T does not fit %s", key, alg)}
		}
	}
	return issuer, alg, key, nil
}

func newVendorSigner(v *Vendor) (*vendorSigner, error) {
	sc := v.cfg.Signing
	issuer, alg, key, err := resolveSigning(sc, v.cfg.Hosts)
	if err != nil {
		return nil, err
	}
	jku := "https://" + issuer + JWKSPath
	if key != nil {
		return &vendorSigner{Signer: &cardsig.Signer{Key: key, Alg: alg, KID: sc.KID, JKU: jku}, issuer: issuer, jku: jku}, nil
	}
	s, err := cardsig.NewSigner(alg, sc.KID, jku)
	if err != nil {
		return nil, err
	}
	return &vendorSigner{Signer: s, issuer: issuer, jku: jku}, nil
}

// keyFitsAlg reports whether a configured key can sign with alg: ES256
// takes an ECDSA P-256 key, RS256 an RSA key.
func keyFitsAlg(key crypto.Signer, alg jose.SignatureAlgorithm) bool {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		return alg == jose.ES256 && k.Curve == elliptic.P256()
	case *rsa.PrivateKey:
		return alg == jose.RS256
	}
	return false
}

// sign signs the card honestly, or as the vendor's sign faults say.
func (v *Vendor) sign(card []byte) ([]byte, error) {
	if v.signer == nil {
		return card, nil
	}
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.SignHook); ok {
			return h.SignCard(v.view(), v.signer, card)
		}
	}
	return v.signer.Sign(card)
}

func (v *Vendor) servesJWKS(h *host) bool {
	return v.signer != nil && h.cfg.Name == v.signer.issuer
}

// serveJWKS answers a JWKS fetch with the vendor's public key, as its jwks
// faults change it.
func (v *Vendor) serveJWKS(w http.ResponseWriter, r *http.Request, ev *Event) {
	v.mu.Lock()
	v.jwksCount++
	n := v.jwksCount
	v.mu.Unlock()
	keys := []jose.JSONWebKey{v.signer.PublicJWK()}
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.JWKSHook); ok {
			keys = h.OnJWKS(v.signer, keys, n)
			ev.Faults = append(ev.Faults, af.spec.Type)
		}
	}
	ev.Served = "fetch " + strconv.Itoa(n)
	w.Header().Set("Content-Type", "application/jwk-set+json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(cardsig.JWKS(keys...))
}
