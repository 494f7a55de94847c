package cardsig

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
)

// signatureEntry is one element of a card's "signatures" array: a flattened
// JWS without its payload. Field order fixes the member order on the wire.
type signatureEntry struct {
	Protected string         `json:"protected"`
	Signature string         `json:"signature"`
	Header    map[string]any `json:"header,omitempty"`
}

// Signer signs Agent Cards with one private key.
type Signer struct {
	// Key is the private key: *ecdsa.PrivateKey, *rsa.PrivateKey or
	// ed25519.PrivateKey.
	Key crypto.Signer
	// Alg is the JWS algorithm. Zero picks ES256/ES384/ES512 from the
	// curve of an ECDSA key, RS256 for RSA and EdDSA for Ed25519.
	Alg jose.SignatureAlgorithm
	// KID goes into the protected header as "kid". It is required.
	KID string
	// JKU, when set, goes into the protected header as "jku": the URL of
	// the JWKS that holds the public key. Verify derives the signer's
	// identity (Issuer) from its origin.
	JKU string
}

// NewSigner generates a fresh key for alg and returns a Signer using it.
// alg may be empty (ES256), ES256, ES384, ES512, RS256, RS384, RS512,
// PS256, PS384, PS512 or EdDSA. RSA keys are 2048 bits.
func NewSigner(alg jose.SignatureAlgorithm, kid, jku string) (*Signer, error) {
	if alg == "" {
		alg = jose.ES256
	}
	var key crypto.Signer
	var err error
	switch alg {
	case jose.ES256:
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case jose.ES384:
		key, err = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case jose.ES512:
		key, err = ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	case jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512:
		key, err = rsa.GenerateKey(rand.Reader, 2048)
	case jose.EdDSA:
		_, key, err = ed25519.GenerateKey(rand.Reader)
	default:
		return nil, fmt.Errorf("unsupported signing algorithm %q", alg)
	}
	if err != nil {
		return nil, fmt.Errorf("generate %s key: %w", alg, err)
	}
	return &Signer{Key: key, Alg: alg, KID: kid, JKU: jku}, nil
}

// Algorithm returns the JWS algorithm the signer uses, resolving a zero Alg
// from the key type.
func (s *Signer) Algorithm() jose.SignatureAlgorithm {
	if s.Alg != "" {
		return s.Alg
	}
	switch k := s.Key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P384():
			return jose.ES384
		case elliptic.P521():
			return jose.ES512
		}
		return jose.ES256
	case *rsa.PrivateKey:
		return jose.RS256
	case ed25519.PrivateKey:
		return jose.EdDSA
	}
	return ""
}

// PublicJWK returns the public half of the key as a JWK with "use":"sig",
// "alg" and "kid" set, ready for a JWKS.
func (s *Signer) PublicJWK() jose.JSONWebKey {
	return jose.JSONWebKey{
		Key:       s.Key.Public(),
		KeyID:     s.KID,
		Algorithm: string(s.Algorithm()),
		Use:       "sig",
	}
}

// Sign returns card with its "signatures" member set to a single new
// signature (an existing "signatures" member is replaced). The protected
// header is {"alg","typ":"JOSE","kid"} plus "jku" when JKU is set; the
// signing input is BASE64URL(protected) "." BASE64URL(Canonicalize(card)).
// The other members keep their order; insignificant whitespace is removed.
func (s *Signer) Sign(card []byte) ([]byte, error) {
	if s == nil || s.Key == nil {
		return nil, errors.New("signer has no key")
	}
	if s.KID == "" {
		return nil, errors.New("signer has no kid")
	}
	var key any
	switch k := s.Key.(type) {
	case *ecdsa.PrivateKey, *rsa.PrivateKey, ed25519.PrivateKey:
		key = k
	default:
		return nil, fmt.Errorf("unsupported key type %T", s.Key)
	}
	payload, err := Canonicalize(card)
	if err != nil {
		return nil, err
	}
	opts := (&jose.SignerOptions{}).WithType("JOSE").WithHeader(jose.HeaderKey("kid"), s.KID)
	if s.JKU != "" {
		opts = opts.WithHeader(jose.HeaderKey("jku"), s.JKU)
	}
	js, err := jose.NewSigner(jose.SigningKey{Algorithm: s.Algorithm(), Key: key}, opts)
	if err != nil {
		return nil, fmt.Errorf("create jws signer: %w", err)
	}
	obj, err := js.Sign(payload)
	if err != nil {
		return nil, fmt.Errorf("sign card: %w", err)
	}
	// The detached compact form is "protected..signature": exactly the two
	// members a card signature entry carries.
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		return nil, fmt.Errorf("serialize jws: %w", err)
	}
	parts := strings.Split(compact, ".")
	if len(parts) != 3 || parts[1] != "" {
		return nil, errors.New("unexpected detached jws shape")
	}
	return setSignatures(card, []signatureEntry{{Protected: parts[0], Signature: parts[2]}})
}

// SignWithHeader is a fault-injection primitive for building cards a correct
// verifier must reject. It JSON-encodes header verbatim as the protected
// header (no checks), calls sign with the signing input
// BASE64URL(protected) "." BASE64URL(Canonicalize(card)), and returns card
// with "signatures" replaced by one entry holding the result. sign may
// return an empty signature. Use Signer.Sign for real signatures.
func SignWithHeader(card []byte, header map[string]any, sign func(signingInput []byte) ([]byte, error)) ([]byte, error) {
	payload, err := Canonicalize(card)
	if err != nil {
		return nil, err
	}
	hdr, err := json.Marshal(header)
	if err != nil {
		return nil, fmt.Errorf("encode protected header: %w", err)
	}
	protected := base64.RawURLEncoding.EncodeToString(hdr)
	input := protected + "." + base64.RawURLEncoding.EncodeToString(payload)
	sig, err := sign([]byte(input))
	if err != nil {
		return nil, fmt.Errorf("sign card: %w", err)
	}
	entry := signatureEntry{Protected: protected, Signature: base64.RawURLEncoding.EncodeToString(sig)}
	return setSignatures(card, []signatureEntry{entry})
}

// SignAlgNone returns card carrying an unsecured signature: protected header
// {"alg":"none","typ":"JOSE","kid":kid} (plus "jku" when set) and an empty
// signature. Fault injection for the alg-none scenario.
func SignAlgNone(card []byte, kid, jku string) ([]byte, error) {
	return SignWithHeader(card, faultHeader("none", kid, jku), func([]byte) ([]byte, error) {
		return nil, nil
	})
}

// SignHS256Confusion returns card signed with HS256 (HMAC-SHA256) where the
// HMAC secret is the signer's public key in PEM form, as returned by
// PublicKeyPEM. This is the classic algorithm-confusion forgery: a naive
// verifier that feeds the key material it holds for kid to whatever "alg"
// the header names would accept it. The header carries the signer's kid
// and jku, so the lookup finds the real (asymmetric) key. Fault injection
// for the alg-confusion scenario.
func (s *Signer) SignHS256Confusion(card []byte) ([]byte, error) {
	secret, err := PublicKeyPEM(s.Key.Public())
	if err != nil {
		return nil, err
	}
	return SignWithHeader(card, faultHeader("HS256", s.KID, s.JKU), func(input []byte) ([]byte, error) {
		mac := hmac.New(sha256.New, secret)
		mac.Write(input)
		return mac.Sum(nil), nil
	})
}

// faultHeader builds the protected header used by the fault helpers.
func faultHeader(alg, kid, jku string) map[string]any {
	h := map[string]any{"alg": alg, "typ": "JOSE", "kid": kid}
	if jku != "" {
		h["jku"] = jku
	}
	return h
}

// PublicKeyPEM encodes a public key as a PEM "PUBLIC KEY" block
// (PKIX/SubjectPublicKeyInfo DER), the bytes SignHS256Confusion uses as the
// HMAC secret.
func PublicKeyPEM(pub crypto.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("encode public key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// JWKS encodes keys as a JSON Web Key Set, {"keys":[...]}, in the order
// given. Keys are written as they are (pass public keys); a key go-jose
// cannot encode is left out. Duplicate kids are kept, so the fleet can serve
// an ambiguous set on purpose.
func JWKS(keys ...jose.JSONWebKey) []byte {
	encoded := make([]json.RawMessage, 0, len(keys))
	for _, k := range keys {
		b, err := k.MarshalJSON()
		if err != nil {
			continue
		}
		encoded = append(encoded, b)
	}
	out, _ := json.Marshal(struct {
		Keys []json.RawMessage `json:"keys"`
	}{encoded})
	return out
}

// CombineSignatures returns the first card with the "signatures" entries of
// every given card concatenated, in order. The cards are expected to be the
// same card signed by different keys (for example during key rotation);
// only the first card's other members are kept.
func CombineSignatures(cards ...[]byte) ([]byte, error) {
	if len(cards) == 0 {
		return nil, errors.New("no cards to combine")
	}
	var all []signatureEntry
	for i, c := range cards {
		doc, err := parseCard(c)
		if err != nil {
			return nil, fmt.Errorf("card %d: %w", i, err)
		}
		raw, err := json.Marshal(doc[signaturesMember])
		if err != nil {
			return nil, fmt.Errorf("card %d: %w", i, err)
		}
		var entries []signatureEntry
		if err := json.Unmarshal(raw, &entries); err != nil {
			return nil, fmt.Errorf("card %d: signatures: %w", i, err)
		}
		all = append(all, entries...)
	}
	return setSignatures(cards[0], all)
}

// setSignatures rewrites card with its top-level "signatures" member set to
// entries, keeping the other members in their original order. A replaced
// member stays in place; a new one goes last.
func setSignatures(card []byte, entries []signatureEntry) ([]byte, error) {
	if _, err := parseCard(card); err != nil {
		return nil, err
	}
	sigs, err := json.Marshal(entries)
	if err != nil {
		return nil, fmt.Errorf("encode signatures: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(card))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	replaced := false
	for n := 0; dec.More(); n++ {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := kt.(string) // parseCard checked the shape
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		if key == signaturesMember {
			val = sigs
			replaced = true
		}
		if n > 0 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(key)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(val)
	}
	if !replaced {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.WriteString(`"signatures":`)
		out.Write(sigs)
	}
	out.WriteByte('}')
	var compact bytes.Buffer
	if err := json.Compact(&compact, out.Bytes()); err != nil {
		return nil, fmt.Errorf("encode card: %w", err)
	}
	return compact.Bytes(), nil
}
