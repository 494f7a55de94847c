package reference

import (
	"context"
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
