package reference

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// jwksEntry is a cached key set: kept until fetched plus ttl.
type jwksEntry struct {
	keys    []jose.JSONWebKey
	fetched time.Time
	ttl     time.Duration
}

// keySource serves cardsig.Verify: key sets cached per jku for as long as
// their answer allows (Cache-Control; never past the authority window; not
// at all under no-store or no-cache, so a key the issuer withdrew is not
// used again: KEY-003), fetched over the delegation's client (so the JWKS
// fetch carries A2A-Version and stays inside the fence), and fetched again
// when Verify asks (an unknown kid: key rotation, SIG-003).
type keySource struct{ r *run }

func (r *run) keySource() cardsig.KeySource { return keySource{r} }

// Keys implements cardsig.KeySource.
func (k keySource) Keys(ctx context.Context, jku string, refresh bool) ([]jose.JSONWebKey, error) {
	r := k.r
	o := r.o
	if jku != "" {
		r.fence.Allow(jku)
	}
	o.mu.Lock()
	e, ok := o.jwks[jku]
	o.mu.Unlock()
	fresh := ok && o.now().Sub(e.fetched) < e.ttl
	if ok && (fresh && !refresh || refresh && r.br.NoJWKSRefetch) {
		return e.keys, nil
	}
	src := &cardsig.HTTPKeySource{Client: r.client}
	keys, hdr, err := src.Fetch(ctx, jku)
	if r.br.PlainHTTPKeys && strings.HasPrefix(jku, "http://") {
		keys, hdr, err = r.plainKeys(ctx, jku)
	}
	if err != nil {
		return nil, err
	}
	if r.br.IgnoreKeyExpiry {
		for i := range keys {
			keys[i].Certificates = nil
		}
	}
	o.mu.Lock()
	o.jwks[jku] = jwksEntry{keys: keys, fetched: o.now(), ttl: r.keySetTTL(hdr.Get("Cache-Control"))}
	o.mu.Unlock()
	return keys, nil
}

// keySetTTL is how long a key set may be reused: the authority window,
// shortened by a max-age, and nothing under no-store or no-cache (unless
// the CacheRevokedKeys break keeps every set for the window).
func (r *run) keySetTTL(cc string) time.Duration {
	window := r.o.authorityWindow()
	if r.br.CacheRevokedKeys {
		return window
	}
	if cardsig.NoStore(cc) {
		return 0
	}
	if age := cacheMaxAge(cc); age >= 0 {
		return min(age, window)
	}
	return window
}

// pickKey narrows a key set to the n-th of the keys with kid (the
// AcceptAmbiguousKID break).
type pickKey struct {
	src cardsig.KeySource
	kid string
	n   int
}

func (p pickKey) Keys(ctx context.Context, jku string, refresh bool) ([]jose.JSONWebKey, error) {
	keys, err := p.src.Keys(ctx, jku, refresh)
	var out []jose.JSONWebKey
	i := 0
	for _, k := range keys {
		if k.KeyID == p.kid {
			if i != p.n {
				i++
				continue
			}
			i++
		}
		out = append(out, k)
	}
	return out, err
}

// anyKey verifies the card with each key that shares the ambiguous kid in
// turn, and returns the first success (the AcceptAmbiguousKID break).
func (r *run) anyKey(card *agentCard, cardURL string, verr error) *cardsig.Verified {
	var e *cardsig.Error
	if !errors.As(verr, &e) {
		return nil
	}
	for n := 0; n < 8; n++ {
		v, err := cardsig.Verify(r.ctx, card.raw, pickKey{src: r.keySource(), kid: e.KID, n: n}, cardsig.WithCardURL(cardURL))
		if err == nil {
			return v
		}
		if cardsig.ClassOf(err) == cardsig.ClassKeyUnknown {
			return nil
		}
	}
	return nil
}

// headerKey is the TrustHeaderJWK break: it verifies the card with the key
// its own signature header offers (jwk), as a careless verifier would, and
// reports the card's own origin as the signer.
func (r *run) headerKey(card *agentCard, cardURL string) *cardsig.Verified {
	var doc struct {
		Signatures []struct {
			Protected string `json:"protected"`
		} `json:"signatures"`
	}
	if json.Unmarshal(card.raw, &doc) != nil || len(doc.Signatures) == 0 {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(doc.Signatures[0].Protected)
	if err != nil {
		return nil
	}
	var h struct {
		KID string          `json:"kid"`
		JKU string          `json:"jku"`
		JWK json.RawMessage `json:"jwk"`
	}
	if json.Unmarshal(b, &h) != nil || len(h.JWK) == 0 {
		return nil
	}
	var k jose.JSONWebKey
	if k.UnmarshalJSON(h.JWK) != nil {
		return nil
	}
	k.KeyID = h.KID
	v, err := cardsig.Verify(r.ctx, card.raw, cardsig.StaticKeys{h.JKU: {k}}, cardsig.WithCardURL(cardURL))
	if err != nil {
		return nil
	}
	return v
}

// plainKeys fetches a key set over plain HTTP (the PlainHTTPKeys break).
func (r *run) plainKeys(ctx context.Context, jku string) ([]jose.JSONWebKey, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, jku, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	keys, err := cardsig.ParseJWKS(body)
	return keys, resp.Header, err
}

// brokenCard is the card as the signature breaks read it: its first
// signature alone (FirstSignatureOnly), or decoded by encoding/json with
// its numbers rounded (LossyCanonical); else raw itself.
func (r *run) brokenCard(raw []byte) []byte {
	if !r.br.FirstSignatureOnly && !r.br.LossyCanonical {
		return raw
	}
	var doc map[string]any
	if json.Unmarshal(raw, &doc) != nil {
		return raw
	}
	if sigs, ok := doc["signatures"].([]any); ok && r.br.FirstSignatureOnly && len(sigs) > 1 {
		doc["signatures"] = sigs[:1]
	}
	if r.br.LossyCanonical {
		doc = roundNumbers(doc).(map[string]any)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return raw
	}
	return b
}

// roundNumbers rounds every number in v to 15 significant digits.
func roundNumbers(v any) any {
	switch t := v.(type) {
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return t
		}
		f, _ := strconv.ParseFloat(strconv.FormatFloat(t, 'g', 15, 64), 64)
		return f
	case []any:
		for i := range t {
			t[i] = roundNumbers(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = roundNumbers(t[k])
		}
	}
	return v
}

// plainKeysOnly reports whether every signature of the card names a jku
// on plain http (the UnsignedOnPlainKeys alternative).
func plainKeysOnly(raw []byte) bool {
	var doc struct {
		Signatures []struct {
			Protected string `json:"protected"`
		} `json:"signatures"`
	}
	if json.Unmarshal(raw, &doc) != nil || len(doc.Signatures) == 0 {
		return false
	}
	for _, s := range doc.Signatures {
		b, err := base64.RawURLEncoding.DecodeString(s.Protected)
		if err != nil {
			return false
		}
		var h struct {
			JKU string `json:"jku"`
		}
		if json.Unmarshal(b, &h) != nil || !strings.HasPrefix(h.JKU, "http://") {
			return false
		}
	}
	return true
}
