package reference

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
)

// agentCard is the part of an Agent Card the reference reads. Everything in
// it is a claim [seed 000, Core Distinction]: it picks where to probe and
// how to shape parts, never whether a skill exists.
type agentCard struct {
	raw []byte

	Name                 string            `json:"name"`
	URL                  string            `json:"url"`             // 0.3 members, read only as a fallback
	ProtocolVersion      string            `json:"protocolVersion"` // 0.3
	PreferredTransport   string            `json:"preferredTransport"`
	AdditionalInterfaces []legacyInterface `json:"additionalInterfaces"`
	SupportedInterfaces  []cardInterface   `json:"supportedInterfaces"`
	Capabilities         struct {
		Streaming         bool `json:"streaming"`
		PushNotifications bool `json:"pushNotifications"`
		ExtendedAgentCard bool `json:"extendedAgentCard"`
		Extensions        []struct {
			URI      string         `json:"uri"`
			Required bool           `json:"required"`
			Params   map[string]any `json:"params"`
		} `json:"extensions"`
	} `json:"capabilities"`
	DefaultInputModes []string `json:"defaultInputModes"`
	Skills            []struct {
		ID         string   `json:"id"`
		InputModes []string `json:"inputModes"`
	} `json:"skills"`
	Signatures json.RawMessage `json:"signatures"`
	// SupportsAuthenticatedExtendedCard is 0.3's extended card flag.
	SupportsAuthenticatedExtendedCard bool `json:"supportsAuthenticatedExtendedCard"`
}

// iface is the interface the reference speaks to: its URL (for gRPC, the
// https origin the card's host:port names), binding (JSONRPC, HTTP+JSON or
// GRPC), version (Major.Minor) and tenant (iface.go).
type iface struct {
	URL, Version, Tenant, Binding string
}

func parseCard(b []byte) (*agentCard, error) {
	var c agentCard
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("card is not a JSON object: %w", err)
	}
	c.raw = b
	return &c, nil
}

func majorMinor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}

// signed reports whether the card carries a non-empty signatures member.
func (c *agentCard) signed() bool {
	s := strings.TrimSpace(string(c.Signatures))
	return s != "" && s != "null" && s != "[]"
}

func (c *agentCard) hasSkill(id string) bool {
	for _, s := range c.Skills {
		if s.ID == id {
			return true
		}
	}
	return false
}

// inputModes are the skill's declared input modes, else the card's
// defaults, else text (the 0.x default).
func (c *agentCard) inputModes(skill string) []string {
	for _, s := range c.Skills {
		if s.ID == skill && len(s.InputModes) > 0 {
			return s.InputModes
		}
	}
	if len(c.DefaultInputModes) > 0 {
		return c.DefaultInputModes
	}
	return []string{"text/plain"}
}

// firstFrameTimeout is the card's stream first-frame timeout (the
// a2a-conform stream-timeout extension), or the 30 s default [seed 000,
// Condition of Validity].
func (c *agentCard) firstFrameTimeout() time.Duration {
	for _, e := range c.Capabilities.Extensions {
		if e.URI != StreamTimeoutExtension {
			continue
		}
		switch v := e.Params["firstFrameTimeoutMs"].(type) {
		case float64:
			if v > 0 {
				return time.Duration(v) * time.Millisecond
			}
		case string:
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return time.Duration(n) * time.Millisecond
			}
		}
	}
	return DefaultFirstFrameTimeout
}

// cardEntry is a cached card.
type cardEntry struct {
	card    *agentCard
	etag    string
	fetched time.Time
	maxAge  time.Duration // -1: the response allowed no reuse
}

// fetchMode says how to fetch a card.
type fetchMode int

const (
	// fetchNormal reuses a fresh cached copy, else revalidates with
	// If-None-Match.
	fetchNormal fetchMode = iota
	// fetchBypass goes to the origin: Cache-Control and Pragma no-cache,
	// no If-None-Match [seed 000, Decision Boundary].
	fetchBypass
	// fetchPlain is a GET with no cache headers at all, which a CDN answers
	// from its copy (the RefetchPlain break).
	fetchPlain
)

// card returns the card at cardURL, fetched as mode says.
func (r *run) card(cardURL string, mode fetchMode) (*agentCard, error) {
	o := r.o
	now := o.now()
	o.mu.Lock()
	e := o.cards[cardURL]
	o.mu.Unlock()
	if mode == fetchNormal && e != nil && now.Sub(e.fetched) < r.freshness(e) {
		return e.card, nil
	}
	if r.cardFetches >= maxCardFetches {
		return nil, fmt.Errorf("card fetch budget (%d) spent", maxCardFetches)
	}
	req, err := http.NewRequestWithContext(r.ctx, http.MethodGet, r.cardFetchURL(cardURL), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if cred, held := r.req.Trust.Credentials[contract.OriginOf(cardURL)]; held && r.br.CredentialOnCardFetch {
		req.Header.Set("Authorization", "Bearer "+cred.Value)
	}
	revalidate := mode == fetchNormal || r.br.RefetchWithETag
	if mode == fetchBypass && !r.br.RefetchWithETag {
		req.Header.Set("Cache-Control", "no-cache")
		req.Header.Set("Pragma", "no-cache")
	}
	if revalidate && e != nil && e.etag != "" {
		req.Header.Set("If-None-Match", e.etag)
	}
	r.cardFetches++
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch card %s: %w", cardURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("read card %s: %w", cardURL, err)
	}
	maxAge := cacheMaxAge(resp.Header.Get("Cache-Control"))
	switch {
	case resp.StatusCode == http.StatusNotModified && e != nil:
		ne := *e
		ne.fetched, ne.maxAge = now, maxAge
		if et := resp.Header.Get("ETag"); et != "" {
			ne.etag = et
		}
		o.mu.Lock()
		o.cards[cardURL] = &ne
		o.mu.Unlock()
		return ne.card, nil
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("fetch card %s: http status %d", cardURL, resp.StatusCode)
	}
	c, err := parseCard(body)
	if err != nil {
		return nil, err
	}
	ne := &cardEntry{card: c, etag: resp.Header.Get("ETag"), fetched: now, maxAge: maxAge}
	o.mu.Lock()
	o.cards[cardURL] = ne
	o.mu.Unlock()
	return c, nil
}

// freshness is how long a cached card may be used without asking again:
// its max-age, but never past the authority window (the seed's "must not
// cache the card beyond the probe's TTL").
func (r *run) freshness(e *cardEntry) time.Duration {
	if e.maxAge < 0 {
		return 0
	}
	if r.br.ReprobeNever {
		return e.maxAge
	}
	return min(e.maxAge, r.o.authorityWindow())
}

// cacheMaxAge reads max-age from a Cache-Control header; no-cache,
// no-store or a missing max-age give -1 (revalidate every time).
func cacheMaxAge(cc string) time.Duration {
	age := time.Duration(-1)
	for _, d := range strings.Split(cc, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "no-cache" || d == "no-store":
			return -1
		case strings.HasPrefix(d, "max-age="):
			if n, err := strconv.Atoi(strings.TrimPrefix(d, "max-age=")); err == nil && n > 0 {
				age = time.Duration(n) * time.Second
			}
		}
	}
	return age
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}
