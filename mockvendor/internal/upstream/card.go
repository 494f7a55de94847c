package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// cardCache is the agent's card as last fetched, reused for a TTL, with
// the JSON-RPC endpoint it names (read once per fetch, not per call).
type cardCache struct {
	mu       sync.Mutex
	ttl      time.Duration
	at       time.Time
	raw      []byte
	endpoint string
	version  int64
}

// Card is the agent's card now: fetched again once the last fetch is
// older than Config.CardTTL. version counts the distinct documents seen
// (it grows when the agent's card changed), doc is a fresh copy the
// caller may change, rec the fetch's record (nil when the cache served).
func (c *Client) Card(ctx context.Context) (doc map[string]any, version int64, rec *trace.Upstream, err error) {
	cc := &c.card
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if rec, err = c.refreshLocked(ctx); err != nil {
		return nil, 0, rec, err
	}
	doc = map[string]any{}
	_ = json.Unmarshal(cc.raw, &doc)
	return doc, cc.version, rec, nil
}

// refreshLocked fetches the card again when the cached one is older than
// the TTL (the cache lock held): the fetch's record (nil when the cache
// served), and an error only when there is no card at all (a failed
// refresh keeps the last one).
func (c *Client) refreshLocked(ctx context.Context) (*trace.Upstream, error) {
	cc := &c.card
	if cc.raw != nil && time.Since(cc.at) < cc.ttl {
		return nil, nil
	}
	rec, err := c.fetchCard(ctx)
	if err != nil && cc.raw == nil {
		return rec, err
	}
	return rec, nil
}

// fetchCard fetches the card into the cache (the cache lock held).
func (c *Client) fetchCard(ctx context.Context) (*trace.Upstream, error) {
	url := c.CardURL()
	rec := &trace.Upstream{URL: url}
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		rec.Error = err.Error()
		return rec, err
	}
	r.Header.Set("Accept", "application/json")
	for k, v := range c.cfg.Header {
		r.Header[http.CanonicalHeaderKey(k)] = v
	}
	resp, err := c.do(r, rec)
	if err != nil {
		return rec, err
	}
	defer resp.Body.Close()
	body, err := readBounded(resp.Body, c.cfg.MaxBody)
	rec.Bytes = int64(len(body))
	if err != nil {
		e := bodyError(ctx, err, c.cfg.MaxBody)
		rec.Error = e.Error()
		return rec, e
	}
	var doc map[string]any
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &doc) != nil {
		e := &Error{Detail: fmt.Sprintf("the agent's card at %s: HTTP %d, %s", url, resp.StatusCode, snippet(body))}
		rec.Error = e.Error()
		return rec, e
	}
	c.cfg.Recorder.card(body, sentSecrets(r, resp))
	cc := &c.card
	if !bytes.Equal(body, cc.raw) {
		cc.version++
	}
	cc.raw, cc.endpoint, cc.at = body, JSONRPCURL(doc), time.Now()
	return rec, nil
}

// CardURL is the URL the agent's card is fetched from: Config.CardPath
// below the agent's URL, or CardPath itself when it is a full URL.
func (c *Client) CardURL() string {
	if strings.HasPrefix(c.cfg.CardPath, "https://") || strings.HasPrefix(c.cfg.CardPath, "http://") {
		return c.cfg.CardPath
	}
	return c.cfg.URL + c.cfg.CardPath
}

// Endpoint is the agent's JSON-RPC endpoint as its card names it: a 1.0
// supportedInterfaces entry with protocolBinding JSONRPC, else the 0.3
// url when its preferredTransport is JSONRPC (or absent), else a 0.3
// additionalInterfaces entry with transport JSONRPC. The fleet forwards
// every binding's operation over it.
func (c *Client) Endpoint(ctx context.Context) (string, error) {
	cc := &c.card
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if _, err := c.refreshLocked(ctx); err != nil {
		return "", err
	}
	if cc.endpoint == "" {
		return "", &Error{Detail: "the agent's card names no JSON-RPC interface (the proxy forwards over JSON-RPC)"}
	}
	return cc.endpoint, nil
}

// JSONRPCURL is the JSON-RPC endpoint a card names ("" when none).
func JSONRPCURL(doc map[string]any) string {
	if u := interfaceURL(doc, "supportedInterfaces", "protocolBinding"); u != "" {
		return u
	}
	return legacyJSONRPCURL(doc)
}

// legacyJSONRPCURL is the JSON-RPC endpoint a card's 0.3 members name:
// its url when preferredTransport is JSONRPC (or absent), else an
// additionalInterfaces entry of transport JSONRPC ("" when none).
func legacyJSONRPCURL(doc map[string]any) string {
	pt, _ := doc["preferredTransport"].(string)
	if u, _ := doc["url"].(string); u != "" && (pt == "" || strings.EqualFold(pt, "JSONRPC")) {
		return u
	}
	return interfaceURL(doc, "additionalInterfaces", "transport")
}

// interfaceURL is the URL of the first JSON-RPC entry of the card's list
// key, whose binding member is named field.
func interfaceURL(doc map[string]any, key, field string) string {
	list, _ := doc[key].([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		b, _ := m[field].(string)
		if u, _ := m["url"].(string); strings.EqualFold(b, "JSONRPC") && u != "" {
			return u
		}
	}
	return ""
}

// JSONRPCVersions are the A2A versions (Major.Minor) a card declares for
// its JSON-RPC interfaces: each 1.0 supportedInterfaces entry's
// protocolVersion, and the 0.3 protocolVersion when the 0.3 members name
// a JSON-RPC endpoint (what the fleet forwards over). Empty when it
// declares none.
func JSONRPCVersions(doc map[string]any) []string {
	var out []string
	add := func(v string) {
		mm := majorMinor(v)
		if mm != "" && !slices.Contains(out, mm) {
			out = append(out, mm)
		}
	}
	list, _ := doc["supportedInterfaces"].([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		if b, _ := m["protocolBinding"].(string); strings.EqualFold(b, "JSONRPC") {
			v, _ := m["protocolVersion"].(string)
			add(v)
		}
	}
	if v, _ := doc["protocolVersion"].(string); v != "" && legacyJSONRPCURL(doc) != "" {
		add(v)
	}
	return out
}

// majorMinor is "0.3" of "0.3.0" ("" for what is no version).
func majorMinor(v string) string {
	parts := strings.SplitN(strings.TrimSpace(v), ".", 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return ""
	}
	return parts[0] + "." + parts[1]
}
