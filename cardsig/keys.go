package cardsig

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	jose "github.com/go-jose/go-jose/v4"
)

// KeySource supplies the verification keys published at a JWKS URL.
type KeySource interface {
	// Keys returns the keys of the set at jku ("" when the signature names
	// no jku). With refresh false a cached copy may be returned; with
	// refresh true the source must go back to the origin.
	Keys(ctx context.Context, jku string, refresh bool) ([]jose.JSONWebKey, error)
}

// maxJWKSBytes caps the size of a fetched key set.
const maxJWKSBytes = 1 << 20

// HTTPKeySource fetches key sets over HTTPS and caches them per jku. The
// zero value is ready to use (with http.DefaultClient); it must not be
// copied after first use.
type HTTPKeySource struct {
	// Client makes the requests; nil means http.DefaultClient. Set it to a
	// client that trusts the fleet's CA.
	Client *http.Client

	mu    sync.Mutex
	cache map[string][]jose.JSONWebKey
}

// Keys implements KeySource. It refuses an empty or non-https jku, a
// redirect (never followed) and bodies over 1 MiB. Keys that fail to parse
// are skipped. A key set whose answer says Cache-Control no-store or
// no-cache is not kept: the next call fetches it again.
func (h *HTTPKeySource) Keys(ctx context.Context, jku string, refresh bool) ([]jose.JSONWebKey, error) {
	if err := checkJKU(jku); err != nil {
		return nil, err
	}
	if !refresh {
		h.mu.Lock()
		keys, ok := h.cache[jku]
		h.mu.Unlock()
		if ok {
			return keys, nil
		}
	}
	keys, hdr, err := h.Fetch(ctx, jku)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	if h.cache == nil {
		h.cache = map[string][]jose.JSONWebKey{}
	}
	if NoStore(hdr.Get("Cache-Control")) {
		delete(h.cache, jku)
	} else {
		h.cache[jku] = keys
	}
	h.mu.Unlock()
	return keys, nil
}

// Fetch fetches the key set at jku, bypassing the cache, and returns its
// keys with the answer's headers (for a caller that keeps key sets as
// their Cache-Control allows). It refuses what Keys refuses.
func (h *HTTPKeySource) Fetch(ctx context.Context, jku string) ([]jose.JSONWebKey, http.Header, error) {
	if err := checkJKU(jku); err != nil {
		return nil, nil, err
	}
	return h.fetch(ctx, jku)
}

// checkJKU refuses a jku that is empty or not an https URL: a key set
// fetched in the clear could be anyone's (A2A 1.0 §8.4.3: public keys
// SHOULD be retrieved over HTTPS).
func checkJKU(jku string) error {
	if jku == "" {
		return errors.New("signature has no jku and no trusted key store is configured")
	}
	u, err := url.Parse(jku)
	if err != nil {
		return fmt.Errorf("bad jku: %w", err)
	}
	if u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("jku %q is not an https url", jku)
	}
	return nil
}

// NoStore reports whether a Cache-Control value forbids reusing the
// answer without asking again: no-store, no-cache or max-age=0.
func NoStore(cc string) bool {
	for _, d := range strings.Split(cc, ",") {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "no-store", "no-cache", "max-age=0":
			return true
		}
	}
	return false
}

func (h *HTTPKeySource) fetch(ctx context.Context, jku string) ([]jose.JSONWebKey, http.Header, error) {
	client := h.Client
	if client == nil {
		client = http.DefaultClient
	}
	// A redirect is not followed: the signer is the jku's origin (seed 003,
	// the key set is bound to the endpoint's operator), so keys served from
	// wherever the jku's host points would be another signer's.
	nc := *client
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	client = &nc
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, jku, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("build jwks request: %w", err)
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("fetch jwks: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, nil, fmt.Errorf("fetch jwks: http status %d, a redirect to %q: not followed (the signer is the jku's origin)", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("fetch jwks: http status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read jwks: %w", err)
	}
	if len(body) > maxJWKSBytes {
		return nil, nil, errors.New("jwks larger than 1 MiB")
	}
	keys, err := ParseJWKS(body)
	return keys, resp.Header, err
}

// ParseJWKS decodes a JSON Web Key Set. Keys go-jose cannot parse (unknown
// key types, bad parameters) are skipped rather than failing the whole set;
// duplicate kids are kept.
func ParseJWKS(data []byte) ([]jose.JSONWebKey, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("parse jwks: %w", err)
	}
	if set.Keys == nil {
		return nil, errors.New("parse jwks: no keys member")
	}
	keys := make([]jose.JSONWebKey, 0, len(set.Keys))
	for _, raw := range set.Keys {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil {
			continue
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// StaticKeys is a fixed, trusted key store keyed by jku. A signature is
// checked only against the keys listed under its own jku (for a signature
// without one: under the card origin's WellKnownJWKS URL when Verify was
// given WithCardURL, else under ""), so a card cannot claim one issuer's jku while being signed
// by another issuer's key. refresh has no effect.
type StaticKeys map[string][]jose.JSONWebKey

// Keys implements KeySource.
func (s StaticKeys) Keys(_ context.Context, jku string, _ bool) ([]jose.JSONWebKey, error) {
	return s[jku], nil
}
