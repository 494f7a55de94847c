package card

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
)

// Card paths: 0.1-0.2 use agent.json, 0.3 and 1.0 agent-card.json. Both
// serve the same document.
const (
	Path       = "/.well-known/agent-card.json"
	LegacyPath = "/.well-known/agent.json"
)

// CacheControl is what the CDN in front of every card answers.
const CacheControl = "public, max-age=86400"

// IsPath reports whether p is one of the card paths.
func IsPath(p string) bool { return p == Path || p == LegacyPath }

// How Set.Serve served a card fetch (the trace's Event.Served).
const (
	ServedNotModified = "not-modified"
	ServedOrigin      = "origin"
	ServedCDN         = "cdn"
)

// Set holds the two copies of a vendor's card, as served: the origin's
// and the one the CDN keeps (they differ under a card fault that changes
// only one), each with its ETag, and the card epoch they were built at
// (the sum of the card faults' epochs: a new sum means a new Set).
type Set struct {
	Origin, CDN         []byte
	OriginETag, CDNETag string
	Epoch               int64
}

// NewSet holds the origin's and the CDN's card, built at epoch.
func NewSet(origin, cdn []byte, epoch int64) *Set {
	return &Set{Origin: origin, CDN: cdn, OriginETag: etag(origin), CDNETag: etag(cdn), Epoch: epoch}
}

// etag is a card's strong ETag: a quoted prefix of its SHA-256.
func etag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}

// Serve answers a card fetch as the CDN in front of the card would: the
// cached copy with a day's max-age and a stable ETag, 304 for a matching
// If-None-Match, and the origin's current card for a request that bypasses
// the cache without If-None-Match. It returns how it served the fetch
// (ServedNotModified, ServedOrigin or ServedCDN).
func (s *Set) Serve(w http.ResponseWriter, r *http.Request) string {
	hdr := w.Header()
	hdr.Set("Cache-Control", CacheControl)
	hdr.Set("Vary", "Accept-Encoding")
	inm := r.Header.Get("If-None-Match")
	switch {
	case inm != "" && etagMatches(inm, s.CDNETag):
		hdr.Set("ETag", s.CDNETag)
		w.WriteHeader(http.StatusNotModified)
		return ServedNotModified
	case inm != "" && etagMatches(inm, s.OriginETag):
		hdr.Set("ETag", s.OriginETag)
		w.WriteHeader(http.StatusNotModified)
		return ServedNotModified
	case noCache(r):
		hdr.Set("ETag", s.OriginETag)
		hdr.Set("Content-Type", "application/json")
		hdr.Set("X-Cache", "MISS")
		_, _ = w.Write(s.Origin)
		return ServedOrigin
	default:
		hdr.Set("ETag", s.CDNETag)
		hdr.Set("Content-Type", "application/json")
		hdr.Set("X-Cache", "HIT")
		hdr.Set("Age", "3600")
		_, _ = w.Write(s.CDN)
		return ServedCDN
	}
}

// noCache reports whether a card request asks to bypass caches.
func noCache(r *http.Request) bool {
	cc := strings.ToLower(r.Header.Get("Cache-Control"))
	if strings.Contains(cc, "no-cache") || strings.Contains(cc, "no-store") || strings.Contains(cc, "max-age=0") {
		return true
	}
	return strings.Contains(strings.ToLower(r.Header.Get("Pragma")), "no-cache")
}

// etagMatches reports whether an If-None-Match header names tag (or *),
// weak or strong.
func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}
