package cardsig

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// Verified describes the signature that made a card verify.
type Verified struct {
	// KID and Alg come from the signature's protected header.
	KID string
	Alg jose.SignatureAlgorithm
	// JKU is the header's jku, "" when absent.
	JKU string
	// Issuer is the signer's identity: the origin of JKU (for example
	// "https://agent.vendor-a.example"), or without a JKU the origin of the
	// card URL given with WithCardURL; "" when neither is known.
	Issuer string
	// Form is the canonical form the signature matched.
	Form Form
}

// Option adjusts Verify.
type Option func(*verifyOptions)

type verifyOptions struct {
	cardURL string
	now     func() time.Time
}

// WithClock sets the clock a key's validity period is judged by; the
// default is time.Now.
func WithClock(now func() time.Time) Option {
	return func(o *verifyOptions) { o.now = now }
}

// WithCardURL records where the card was fetched from. Its origin becomes
// the Issuer of a signature that carries no jku.
func WithCardURL(u string) Option {
	return func(o *verifyOptions) { o.cardURL = u }
}

// acceptedAlgs are the only algorithms Verify will check. Everything else,
// notably "none" and the HMAC family, is refused before any key is used.
var acceptedAlgs = map[jose.SignatureAlgorithm]bool{
	jose.ES256: true, jose.ES384: true, jose.ES512: true,
	jose.RS256: true, jose.RS384: true, jose.RS512: true,
	jose.PS256: true, jose.PS384: true, jose.PS512: true,
	jose.EdDSA: true,
}

// Verify checks the signatures of an Agent Card against keys from src and
// succeeds as soon as one signature verifies. The rules, per signature:
//
//   - no "signatures", null or [] means the card is unsigned
//     (ClassUnsigned);
//   - a missing alg, "none", any HS* or any other non-asymmetric alg is
//     refused before a key is touched (ClassAlgRejected);
//   - a header without kid or typ is malformed (ClassSignatureInvalid);
//   - the key is looked up by kid in src.Keys(jku, false) (without a jku:
//     at the card origin's WellKnownJWKS, given WithCardURL); if absent, the
//     set is fetched once more with refresh true (key rotation); still
//     absent gives ClassKeyUnknown, several keys with the kid give
//     ClassKeyAmbiguous;
//   - a key whose x5c certificate is outside its validity period is
//     expired and never used (ClassKeyExpired);
//   - the key type (and curve) must fit alg, and a key's own "alg"/"use",
//     when present, must agree (ClassSignatureInvalid otherwise);
//   - the signature must match the card under FormJCS or, failing that,
//     FormJCSDropEmpty (ClassSignatureInvalid otherwise).
//
// Both canonical forms are accepted because the A2A 1.0 text keeps some
// empty values in the payload while @a2a-js/sdk and a2a-python strip every
// empty value first; a card free of empty values gives the same bytes
// either way. Verified.Form says which form matched.
//
// Only the protected header is read; an unprotected "header" member is
// ignored. When no signature verifies, the error of the first signature
// is returned. Every error is an *Error.
func Verify(ctx context.Context, card []byte, src KeySource, opts ...Option) (*Verified, error) {
	var o verifyOptions
	for _, opt := range opts {
		opt(&o)
	}
	doc, err := parseCard(card)
	if err != nil {
		return nil, fail(ClassSignatureInvalid, "", err)
	}
	entries, err := signatureEntries(doc)
	if err != nil {
		return nil, err
	}
	v := &verifier{ctx: ctx, src: src, doc: doc, opts: o, refreshed: map[string]bool{}}
	var first error
	for _, e := range entries {
		res, err := v.one(e)
		if err == nil {
			return res, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// signatureEntries extracts the "signatures" array, classifying an absent or
// empty one as unsigned.
func signatureEntries(doc map[string]any) ([]signatureEntry, error) {
	raw, ok := doc[signaturesMember]
	if !ok || raw == nil {
		return nil, fail(ClassUnsigned, "", errors.New("card has no signatures"))
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fail(ClassSignatureInvalid, "", errors.New("signatures is not an array"))
	}
	if len(list) == 0 {
		return nil, fail(ClassUnsigned, "", errors.New("card has an empty signatures array"))
	}
	entries := make([]signatureEntry, 0, len(list))
	for i, item := range list {
		obj, ok := item.(map[string]any)
		if !ok {
			return nil, fail(ClassSignatureInvalid, "", fmt.Errorf("signature %d is not an object", i))
		}
		p, _ := obj["protected"].(string)
		s, _ := obj["signature"].(string)
		if _, isStr := obj["signature"].(string); p == "" || !isStr {
			return nil, fail(ClassSignatureInvalid, "", fmt.Errorf("signature %d lacks protected or signature", i))
		}
		entries = append(entries, signatureEntry{Protected: p, Signature: s})
	}
	return entries, nil
}

type verifier struct {
	ctx       context.Context
	src       KeySource
	doc       map[string]any
	opts      verifyOptions
	refreshed map[string]bool // jku values already re-fetched in this call
	forms     map[Form][]byte
}

// header is the part of the protected header Verify relies on.
type header struct {
	alg, typ, kid, jku string
}

func parseProtected(protected string) (header, error) {
	raw, err := base64.RawURLEncoding.DecodeString(protected)
	if err != nil {
		return header{}, fmt.Errorf("protected header is not base64url: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return header{}, fmt.Errorf("protected header is not a json object: %w", err)
	}
	var h header
	for name, dst := range map[string]*string{"alg": &h.alg, "typ": &h.typ, "kid": &h.kid, "jku": &h.jku} {
		v, present := m[name]
		if !present {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return header{}, fmt.Errorf("protected header %s is not a string", name)
		}
		*dst = s
	}
	return h, nil
}

func (v *verifier) one(e signatureEntry) (*Verified, error) {
	h, err := parseProtected(e.Protected)
	if err != nil {
		return nil, fail(ClassSignatureInvalid, "", err)
	}
	alg := jose.SignatureAlgorithm(h.alg)
	switch {
	case h.alg == "":
		return nil, fail(ClassAlgRejected, h.kid, errors.New("protected header has no alg"))
	case strings.EqualFold(h.alg, "none"):
		return nil, fail(ClassAlgRejected, h.kid, errors.New(`alg "none" is never accepted`))
	case strings.HasPrefix(strings.ToUpper(h.alg), "HS"):
		return nil, fail(ClassAlgRejected, h.kid, fmt.Errorf("symmetric alg %q is never accepted", h.alg))
	case !acceptedAlgs[alg]:
		return nil, fail(ClassAlgRejected, h.kid, fmt.Errorf("alg %q is not accepted", h.alg))
	}
	if h.kid == "" {
		return nil, fail(ClassSignatureInvalid, "", errors.New("protected header has no kid"))
	}
	if h.typ == "" {
		return nil, fail(ClassSignatureInvalid, h.kid, errors.New("protected header has no typ"))
	}
	key, err := v.lookup(v.keyLocation(h.jku), h.kid)
	if err != nil {
		return nil, err
	}
	if err := v.current(key); err != nil {
		return nil, fail(ClassKeyExpired, h.kid, err)
	}
	pub, err := keyFor(alg, key)
	if err != nil {
		return nil, fail(ClassSignatureInvalid, h.kid, err)
	}
	compact := e.Protected + ".." + e.Signature
	for _, form := range []Form{FormJCS, FormJCSDropEmpty} {
		payload, err := v.form(form)
		if err != nil {
			return nil, fail(ClassSignatureInvalid, h.kid, err)
		}
		if form == FormJCSDropEmpty {
			if jcsForm, _ := v.form(FormJCS); bytes.Equal(jcsForm, payload) {
				break // same bytes, already tried
			}
		}
		obj, err := jose.ParseDetached(compact, payload, []jose.SignatureAlgorithm{alg})
		if err != nil {
			return nil, fail(ClassSignatureInvalid, h.kid, fmt.Errorf("parse jws: %w", err))
		}
		if obj.DetachedVerify(payload, pub) == nil {
			issuer := origin(h.jku)
			if h.jku == "" {
				issuer = origin(v.opts.cardURL)
			}
			return &Verified{KID: h.kid, Alg: alg, JKU: h.jku, Issuer: issuer, Form: form}, nil
		}
	}
	return nil, fail(ClassSignatureInvalid, h.kid, errors.New("signature does not match the card"))
}

// current refuses a key whose certificate (the first of its x5c chain,
// which RFC 7517 §4.7 has hold the key) is not valid now: the key set
// publishes the key's validity period there. A key without x5c has no
// published validity period and is current.
func (v *verifier) current(k jose.JSONWebKey) error {
	if len(k.Certificates) == 0 {
		return nil
	}
	now := time.Now()
	if v.opts.now != nil {
		now = v.opts.now()
	}
	c := k.Certificates[0]
	switch {
	case now.After(c.NotAfter):
		return fmt.Errorf("the key's certificate expired at %s", c.NotAfter.UTC().Format(time.RFC3339))
	case now.Before(c.NotBefore):
		return fmt.Errorf("the key's certificate is not valid before %s", c.NotBefore.UTC().Format(time.RFC3339))
	}
	return nil
}

// form returns (and caches) the card's payload bytes in the given form.
func (v *verifier) form(f Form) ([]byte, error) {
	if b, ok := v.forms[f]; ok {
		return b, nil
	}
	b, err := canonicalForm(v.doc, f)
	if err != nil {
		return nil, err
	}
	if v.forms == nil {
		v.forms = map[Form][]byte{}
	}
	v.forms[f] = b
	return b, nil
}

// WellKnownJWKS is where a signer without a jku publishes its keys: the
// JWKS at this path on the origin the card came from.
const WellKnownJWKS = "/.well-known/jwks.json"

// keyLocation is where the keys of a signature live: its jku, or, without
// one, the well-known JWKS on the origin of the card (when WithCardURL gave
// it); "" leaves the choice to the key source (a trusted store).
func (v *verifier) keyLocation(jku string) string {
	if jku != "" {
		return jku
	}
	if o := origin(v.opts.cardURL); o != "" {
		return o + WellKnownJWKS
	}
	return ""
}

// lookup finds the single key with kid at jku, re-fetching the set once per
// jku per Verify call when the kid is missing (or the first fetch failed).
func (v *verifier) lookup(jku, kid string) (jose.JSONWebKey, error) {
	keys, err := v.src.Keys(v.ctx, jku, false)
	matches := withKID(keys, kid)
	if len(matches) == 0 && !v.refreshed[jku] {
		v.refreshed[jku] = true
		keys, err = v.src.Keys(v.ctx, jku, true)
		matches = withKID(keys, kid)
	}
	switch {
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) > 1:
		return jose.JSONWebKey{}, fail(ClassKeyAmbiguous, kid, fmt.Errorf("%d keys share the kid", len(matches)))
	case err != nil:
		return jose.JSONWebKey{}, fail(ClassKeyUnknown, kid, err)
	default:
		return jose.JSONWebKey{}, fail(ClassKeyUnknown, kid, errors.New("no key with this kid"))
	}
}

func withKID(keys []jose.JSONWebKey, kid string) []jose.JSONWebKey {
	var out []jose.JSONWebKey
	for _, k := range keys {
		if k.KeyID == kid {
			out = append(out, k)
		}
	}
	return out
}

// keyFor returns the public key to verify alg with, or an error when the JWK
// does not suit alg.
func keyFor(alg jose.SignatureAlgorithm, k jose.JSONWebKey) (any, error) {
	if k.Use != "" && k.Use != "sig" {
		return nil, fmt.Errorf("key use is %q, not sig", k.Use)
	}
	if k.Algorithm != "" && k.Algorithm != string(alg) {
		return nil, fmt.Errorf("key is for alg %q, header says %q", k.Algorithm, alg)
	}
	var pub any = k.Key
	switch p := k.Key.(type) {
	case *ecdsa.PrivateKey:
		pub = &p.PublicKey
	case *rsa.PrivateKey:
		pub = &p.PublicKey
	case ed25519.PrivateKey:
		pub = p.Public()
	}
	switch p := pub.(type) {
	case *ecdsa.PublicKey:
		want := map[jose.SignatureAlgorithm]elliptic.Curve{jose.ES256: elliptic.P256(), jose.ES384: elliptic.P384(), jose.ES512: elliptic.P521()}[alg]
		if want == nil || p.Curve != want {
			return nil, fmt.Errorf("ec key does not fit alg %s", alg)
		}
	case *rsa.PublicKey:
		if !strings.HasPrefix(string(alg), "RS") && !strings.HasPrefix(string(alg), "PS") {
			return nil, fmt.Errorf("rsa key does not fit alg %s", alg)
		}
		if p.N.BitLen() < 2048 {
			return nil, fmt.Errorf("rsa key of %d bits is too small", p.N.BitLen())
		}
	case ed25519.PublicKey:
		if alg != jose.EdDSA {
			return nil, fmt.Errorf("ed25519 key does not fit alg %s", alg)
		}
	default:
		return nil, fmt.Errorf("key type %T cannot verify %s", k.Key, alg)
	}
	return pub, nil
}

// origin returns scheme://host[:port] of u in lower case, dropping a default
// port, or "" when u is not an absolute URL.
func origin(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Host == "" {
		return ""
	}
	scheme := strings.ToLower(p.Scheme)
	host := strings.ToLower(p.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port := p.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}
