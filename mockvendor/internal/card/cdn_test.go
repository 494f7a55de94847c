package card

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestSetServe: the CDN answers its copy with a day's max-age, 304 for
// an If-None-Match naming either copy's ETag (weak or strong, or *), and
// the origin's copy to a request that bypasses caches without one.
func TestSetServe(t *testing.T) {
	s := NewSet([]byte(`{"origin":true}`), []byte(`{"cdn":true}`), 3)
	if s.OriginETag == s.CDNETag || len(s.CDNETag) != 18 || s.CDNETag[0] != '"' || s.Epoch != 3 {
		t.Fatalf("ETags %s %s, epoch %d", s.OriginETag, s.CDNETag, s.Epoch)
	}
	if again := NewSet(s.Origin, s.CDN, 4); again.OriginETag != s.OriginETag || again.CDNETag != s.CDNETag {
		t.Errorf("the ETags of the same bytes changed: %+v", again)
	}
	cases := []struct {
		name        string
		hdr         map[string]string
		served      string
		status      int
		etag, body  string
		cache, xhit string
	}{
		{"cached", nil, ServedCDN, 200, s.CDNETag, string(s.CDN), CacheControl, "HIT"},
		{"no-cache", map[string]string{"Cache-Control": "No-Cache"}, ServedOrigin, 200, s.OriginETag, string(s.Origin), CacheControl, "MISS"},
		{"max-age=0", map[string]string{"Cache-Control": "max-age=0"}, ServedOrigin, 200, s.OriginETag, string(s.Origin), CacheControl, "MISS"},
		{"no-store", map[string]string{"Cache-Control": "no-store"}, ServedOrigin, 200, s.OriginETag, string(s.Origin), CacheControl, "MISS"},
		{"pragma", map[string]string{"Pragma": "no-cache"}, ServedOrigin, 200, s.OriginETag, string(s.Origin), CacheControl, "MISS"},
		{"cdn etag", map[string]string{"If-None-Match": `"x", ` + s.CDNETag}, ServedNotModified, 304, s.CDNETag, "", CacheControl, ""},
		{"weak origin etag, no-cache", map[string]string{"If-None-Match": "W/" + s.OriginETag, "Cache-Control": "no-cache"}, ServedNotModified, 304, s.OriginETag, "", CacheControl, ""},
		{"star", map[string]string{"If-None-Match": "*"}, ServedNotModified, 304, s.CDNETag, "", CacheControl, ""},
		{"stale etag", map[string]string{"If-None-Match": `"x"`}, ServedCDN, 200, s.CDNETag, string(s.CDN), CacheControl, "HIT"},
	}
	for _, c := range cases {
		r := httptest.NewRequest(http.MethodGet, Path, nil)
		for k, v := range c.hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		served := s.Serve(w, r)
		if served != c.served || w.Code != c.status || w.Header().Get("ETag") != c.etag || w.Body.String() != c.body {
			t.Errorf("%s: served %s, HTTP %d, ETag %s, body %q; want %s, %d, %s, %q", c.name, served, w.Code, w.Header().Get("ETag"), w.Body, c.served, c.status, c.etag, c.body)
		}
		if w.Header().Get("Cache-Control") != c.cache || w.Header().Get("X-Cache") != c.xhit || w.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: headers %v", c.name, w.Header())
		}
	}
}

func TestIsPath(t *testing.T) {
	for p, want := range map[string]bool{Path: true, LegacyPath: true, "/.well-known/agent-card.json/": false, KeySetPath: false} {
		if IsPath(p) != want {
			t.Errorf("IsPath(%q) = %v", p, !want)
		}
	}
}
