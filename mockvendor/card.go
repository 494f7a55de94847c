package mockvendor

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/fault"
)

// Card paths: 0.1-0.2 use agent.json, 0.3 and 1.0 agent-card.json. Both
// serve the same document.
const (
	CardPath       = "/.well-known/agent-card.json"
	LegacyCardPath = "/.well-known/agent.json"
)

// CDNCacheControl is what the CDN in front of every card answers.
const CDNCacheControl = "public, max-age=86400"

func isCardPath(p string) bool { return p == CardPath || p == LegacyCardPath }

// cardSet holds the two copies of a vendor's card: the origin's and the
// one the CDN keeps (they differ under the stale-card fault).
type cardSet struct {
	origin, cdn         []byte
	originETag, cdnETag string
	epoch               int64
}

func (v *Vendor) cardEpoch() int64 {
	var sum int64
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.EpochHook); ok {
			sum += h.CardEpoch()
		}
	}
	return sum
}

func (v *Vendor) cardSet() (*cardSet, error) {
	epoch := v.cardEpoch()
	v.mu.RLock()
	cs := v.cards
	v.mu.RUnlock()
	if cs != nil && cs.epoch == epoch {
		return cs, nil
	}
	origin, err := v.renderCard(false)
	if err != nil {
		return nil, err
	}
	cdn, err := v.renderCard(true)
	if err != nil {
		return nil, err
	}
	cs = &cardSet{origin: origin, cdn: cdn, originETag: etag(origin), cdnETag: etag(cdn), epoch: epoch}
	v.mu.Lock()
	v.cards = cs
	v.mu.Unlock()
	return cs, nil
}

// Card returns the card document the origin serves now (cdn false) or the
// CDN's copy (cdn true).
func (v *Vendor) Card(cdn bool) ([]byte, error) {
	cs, err := v.cardSet()
	if err != nil {
		return nil, err
	}
	if cdn {
		return cs.cdn, nil
	}
	return cs.origin, nil
}

func etag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}

// renderCard builds the card, lets the card faults change it, and signs it.
func (v *Vendor) renderCard(cdn bool) ([]byte, error) {
	card := v.cardDocument()
	for _, af := range v.faultsSnapshot() {
		if h, ok := af.impl.(fault.CardHook); ok {
			h.OnCard(v.view(), card, cdn)
		}
	}
	if v.hybridSigned(card) {
		return v.signHybrid(card)
	}
	b, err := json.Marshal(card)
	if err != nil {
		return nil, err
	}
	return v.sign(b)
}

// endpointURL is the JSON-RPC URL the card names.
func (v *Vendor) endpointURL() string {
	if v.cfg.Card.URL != "" {
		return v.cfg.Card.URL
	}
	for _, h := range v.hosts {
		if h.cfg.RPCPath != "" {
			return h.url() + h.cfg.RPCPath
		}
	}
	return ""
}

// cardDocument is the vendor's honest card as a JSON object: an interface
// in supportedInterfaces for each version served and, when it serves 0.3,
// the 0.3 members (url, preferredTransport, protocolVersion) too, so that
// clients of both generations can read it (a signed card keeps only the
// 1.0 members; see SigningConfig.LegacyFields); a 1.0-only vendor's card
// has the 1.0 members only. It
// holds no empty strings, arrays or objects, so the spec's canonical form
// and the SDKs' drop-empty form are the same bytes.
func (v *Vendor) cardDocument() map[string]any {
	c := v.cfg.Card
	org := v.cfg.Organization
	if org == "" {
		org = "Vendor " + strings.ToUpper(v.cfg.ID)
	}
	name := or(c.Name, org+" agent")
	url := v.endpointURL()
	// One interface per version served, the preferred first (§8.3.2).
	// The HTTP+JSON binding (1.0 only) follows JSON-RPC 1.0.
	var ifaces []any
	for _, ver := range v.servedVersions() {
		ifaces = append(ifaces, map[string]any{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": ver})
		if rest := v.restURL(); ver == "1.0" && rest != "" {
			ifaces = append(ifaces, map[string]any{"url": rest, "protocolBinding": BindingREST, "protocolVersion": "1.0"})
		}
	}
	if len(c.Interfaces) > 0 {
		ifaces = v.cardInterfaceDocs()
	}
	caps := map[string]any{"streaming": c.Streaming, "pushNotifications": c.PushNotifications}
	if c.ExtendedCard != nil {
		caps["extendedAgentCard"] = true
	}
	if len(c.Extensions) > 0 {
		caps["extensions"] = c.Extensions
	}
	card := map[string]any{
		"name":                name,
		"description":         or(c.Description, name+", a mock vendor agent of the a2a-conform fleet"),
		"version":             or(c.Version, "1.0.0"),
		"protocolVersion":     "0.3.0",
		"url":                 url,
		"preferredTransport":  "JSONRPC",
		"supportedInterfaces": ifaces,
		"provider":            map[string]any{"organization": org, "url": v.providerURL()},
		"capabilities":        caps,
		"defaultInputModes":   orList(c.DefaultInputModes, "text/plain"),
		"defaultOutputModes":  orList(c.DefaultOutputModes, "text/plain"),
		"skills":              skillDocs(v.cardSkills()),
	}
	if c.ExtendedCard != nil {
		card["supportsAuthenticatedExtendedCard"] = true // the 0.3 flag
	}
	if !v.serves("0.3") || v.cfg.Signing != nil && !v.cfg.Signing.LegacyFields {
		// A card of a vendor that serves no 0.3 is a 1.0 card, valid under
		// the 1.0 schema (no members outside it); so is a signed card
		// without LegacyFields.
		for _, k := range legacyMembers {
			delete(card, k)
		}
	}
	if v.explicitCard() {
		v.applyCardForm(card)
	}
	v.securityDocs(card)
	return card
}

// cardSkills are the skills the card lists.
func (v *Vendor) cardSkills() []SkillConfig {
	if len(v.cfg.Card.Skills) == 0 {
		return v.cfg.Skills
	}
	var out []SkillConfig
	for _, id := range v.cfg.Card.Skills {
		s, ok := v.skill(id)
		if !ok {
			s = SkillConfig{ID: id}
		}
		out = append(out, s)
	}
	return out
}

// skillDocs renders skills as card entries.
func skillDocs(skills []SkillConfig) []any {
	out := []any{}
	for _, s := range skills {
		out = append(out, skillDoc(s))
	}
	return out
}

func skillDoc(s SkillConfig) map[string]any {
	d := map[string]any{
		"id":          s.ID,
		"name":        or(s.Name, s.ID),
		"description": or(s.Description, "Runs "+s.ID+"."),
		"tags":        []string{s.ID},
	}
	if len(s.InputModes) > 0 {
		d["inputModes"] = s.InputModes
	}
	if len(s.OutputModes) > 0 {
		d["outputModes"] = s.OutputModes
	}
	return d
}

func (v *Vendor) providerURL() string {
	for _, h := range v.hosts {
		if h.cfg.Card {
			return h.url()
		}
	}
	return v.hosts[0].url()
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func orList(s []string, def ...string) []string {
	if len(s) == 0 {
		return def
	}
	return s
}

// noCache reports whether a card request asks to bypass caches.
func noCache(r *http.Request) bool {
	cc := strings.ToLower(r.Header.Get("Cache-Control"))
	if strings.Contains(cc, "no-cache") || strings.Contains(cc, "no-store") || strings.Contains(cc, "max-age=0") {
		return true
	}
	return strings.Contains(strings.ToLower(r.Header.Get("Pragma")), "no-cache")
}

func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}

// serveCard answers a card fetch as the CDN in front of the card would: the
// cached copy with a day's max-age and a stable ETag, 304 for a matching
// If-None-Match, and the origin's current card for a request that bypasses
// the cache without If-None-Match.
func (v *Vendor) serveCard(w http.ResponseWriter, r *http.Request, ev *Event) {
	cs, err := v.cardSet()
	if err != nil {
		http.Error(w, "card unavailable: "+err.Error(), http.StatusInternalServerError)
		ev.Note = err.Error()
		return
	}
	hdr := w.Header()
	hdr.Set("Cache-Control", CDNCacheControl)
	hdr.Set("Vary", "Accept-Encoding")
	inm := r.Header.Get("If-None-Match")
	switch {
	case inm != "" && etagMatches(inm, cs.cdnETag):
		hdr.Set("ETag", cs.cdnETag)
		ev.Served = "not-modified"
		w.WriteHeader(http.StatusNotModified)
	case inm != "" && etagMatches(inm, cs.originETag):
		hdr.Set("ETag", cs.originETag)
		ev.Served = "not-modified"
		w.WriteHeader(http.StatusNotModified)
	case noCache(r):
		hdr.Set("ETag", cs.originETag)
		hdr.Set("Content-Type", "application/json")
		hdr.Set("X-Cache", "MISS")
		ev.Served = "origin"
		_, _ = w.Write(cs.origin)
	default:
		hdr.Set("ETag", cs.cdnETag)
		hdr.Set("Content-Type", "application/json")
		hdr.Set("X-Cache", "HIT")
		hdr.Set("Age", "3600")
		ev.Served = "cdn"
		_, _ = w.Write(cs.cdn)
	}
}
