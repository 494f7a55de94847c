package card

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
)

// KeySetPath is where a signing vendor's issuer host serves its JWKS.
const KeySetPath = "/.well-known/jwks.json"

// SigningSpec is how a vendor signs its card: the fields of the root's
// SigningConfig, which keep their meaning, and the names of the vendor's
// card hosts.
type SigningSpec struct {
	// KID is the key id in the JWS header and the JWKS.
	KID string
	// Alg is ES256 or RS256. Empty means ES256.
	Alg string
	// Issuer is the host that serves the JWKS. Empty means the first named
	// card host.
	Issuer string
	// KeyPEM is the private key in PEM form. Empty means a fresh key.
	KeyPEM string
	// LegacyFields keeps the 0.3 members in the signed card, which is then
	// signed twice (SignCard).
	LegacyFields bool
	// CardHosts are the configured names of the vendor's card hosts, in
	// order ("" for a bare-IP host).
	CardHosts []string
}

// ConfigError is a signing configuration the card refuses: Field names
// the field of the vendor's configuration ("signing.alg").
type ConfigError struct {
	Field, Msg string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

// Check reports what NewSigner refuses of the spec (a *ConfigError),
// without generating anything.
func (sp SigningSpec) Check() error {
	_, _, _, err := sp.resolve()
	return err
}

// resolve checks the spec: the issuer host (the configured one, else the
// first named card host), the algorithm, and the configured key (nil
// means a fresh one).
func (sp SigningSpec) resolve() (issuer string, alg jose.SignatureAlgorithm, key crypto.Signer, err error) {
	issuer = sp.Issuer
	for _, h := range sp.CardHosts {
		if issuer == "" {
			issuer = h
		}
	}
	if issuer == "" {
		return "", "", nil, &ConfigError{Field: "signing.issuer", Msg: "a signing vendor needs a named card host or an issuer"}
	}
	alg = jose.ES256
	switch sp.Alg {
	case "", "ES256":
	case "RS256":
		alg = jose.RS256
	default:
		return "", "", nil, &ConfigError{Field: "signing.alg", Msg: fmt.Sprintf("unsupported algorithm %q (ES256 or RS256)", sp.Alg)}
	}
	if sp.KeyPEM != "" {
		if key, err = netx.ParseKeyPEM([]byte(sp.KeyPEM)); err != nil {
			return "", "", nil, &ConfigError{Field: "signing.keyPEM", Msg: err.Error()}
		}
		if !keyFitsAlg(key, alg) {
			return "", "", nil, &ConfigError{Field: "signing.keyPEM", Msg: fmt.Sprintf("a %T does not fit %s", key, alg)}
		}
	}
	return issuer, alg, key, nil
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

// Signer is a vendor's card-signing key and where its JWKS lives. It is
// the faults' CardSigner: what its signatures name and the honest
// signatures it makes, never the private key.
type Signer struct {
	key          *cardsig.Signer
	issuer       string // the host name that serves the JWKS
	legacyFields bool
}

// NewSigner makes the signer a spec describes: its configured key, else
// a fresh one, naming the JWKS on the issuer host as its jku.
func NewSigner(sp SigningSpec) (*Signer, error) {
	issuer, alg, key, err := sp.resolve()
	if err != nil {
		return nil, err
	}
	jku := "https://" + issuer + KeySetPath
	s := &Signer{issuer: issuer, legacyFields: sp.LegacyFields}
	if key != nil {
		s.key = &cardsig.Signer{Key: key, Alg: alg, KID: sp.KID, JKU: jku}
		return s, nil
	}
	if s.key, err = cardsig.NewSigner(alg, sp.KID, jku); err != nil {
		return nil, err
	}
	return s, nil
}

// Issuer is the name of the host that serves the vendor's JWKS.
func (s *Signer) Issuer() string { return s.issuer }

// KeyID is the kid of the vendor's key (CardSigner).
func (s *Signer) KeyID() string { return s.key.KID }

// KeySetURL is the jku of the vendor's key: its JWKS URL (CardSigner).
func (s *Signer) KeySetURL() string { return s.key.JKU }

// Algorithm is the key's JWS algorithm, ES256 or RS256 (CardSigner).
func (s *Signer) Algorithm() jose.SignatureAlgorithm { return s.key.Algorithm() }

// Sign signs card JSON honestly: one signature by the vendor's key,
// naming its kid and jku (CardSigner).
func (s *Signer) Sign(card []byte) ([]byte, error) { return s.key.Sign(card) }

// SignHS256Confusion signs card JSON with HS256, the vendor's public key
// (PEM) as the secret, naming its kid and jku (CardSigner).
func (s *Signer) SignHS256Confusion(card []byte) ([]byte, error) {
	return s.key.SignHS256Confusion(card)
}

// PublicKey is the public half of the vendor's key as its JWKS lists it.
func (s *Signer) PublicKey() jose.JSONWebKey { return s.key.PublicJWK() }

// SignCard signs a card document honestly: once over the whole card, or,
// for a card that keeps the 0.3 members (LegacyFields and a url member),
// twice (signHybrid).
func (s *Signer) SignCard(card map[string]any) ([]byte, error) {
	if _, legacy := card["url"]; s.legacyFields && legacy {
		return s.signHybrid(card)
	}
	b, err := json.Marshal(card)
	if err != nil {
		return nil, err
	}
	return s.Sign(b)
}

// KeySetCacheControl is the Cache-Control of a JWKS answer unless a fault
// sets another.
const KeySetCacheControl = "public, max-age=300"

// ServeKeySet answers a JWKS fetch with keys.
func ServeKeySet(w http.ResponseWriter, keys []jose.JSONWebKey) {
	ServeKeySetWith(w, keys, nil, KeySetCacheControl)
}

// ServeKeySetWith answers a JWKS fetch with keys, adding members to the
// JWKs whose kid members names, under the Cache-Control cc ("" for none).
func ServeKeySetWith(w http.ResponseWriter, keys []jose.JSONWebKey, members map[string]map[string]any, cc string) {
	w.Header().Set("Content-Type", "application/jwk-set+json")
	if cc != "" {
		w.Header().Set("Cache-Control", cc)
	}
	_, _ = w.Write(keySetWith(keys, members))
}

// keySetWith encodes keys as a JWKS with the extra members (cardsig.JWKS
// when there are none). A key go-jose cannot encode is left out.
func keySetWith(keys []jose.JSONWebKey, members map[string]map[string]any) []byte {
	if len(members) == 0 {
		return cardsig.JWKS(keys...)
	}
	out := make([]map[string]any, 0, len(keys))
	for _, k := range keys {
		b, err := k.MarshalJSON()
		if err != nil {
			continue
		}
		var m map[string]any
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		for name, v := range members[k.KeyID] {
			m[name] = v
		}
		out = append(out, m)
	}
	b, _ := json.Marshal(map[string]any{"keys": out})
	return b
}
