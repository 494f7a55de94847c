package reference

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// jwksEntry is a cached key set.
type jwksEntry struct {
	keys    []jose.JSONWebKey
	fetched time.Time
}

// keySource serves cardsig.Verify: key sets cached per jku for the
// authority window, fetched over the delegation's client (so the JWKS fetch
// carries A2A-Version and stays inside the fence), and fetched again when
// Verify asks (an unknown kid: key rotation, SIG-003).
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
	fresh := ok && o.now().Sub(e.fetched) < o.authorityWindow()
	if ok && (fresh && !refresh || refresh && r.br.NoJWKSRefetch) {
		return e.keys, nil
	}
	src := &cardsig.HTTPKeySource{Client: r.client}
	keys, err := src.Keys(ctx, jku, true)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.jwks[jku] = jwksEntry{keys: keys, fetched: o.now()}
	o.mu.Unlock()
	return keys, nil
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
