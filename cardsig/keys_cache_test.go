package cardsig

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestHTTPKeySourceCacheControl: a key set answered no-store, no-cache or
// max-age=0 is fetched again on every Keys call; one answered with a
// positive max-age is kept.
func TestHTTPKeySourceCacheControl(t *testing.T) {
	key := mustSigner(t, "", "k", "")
	for _, tc := range []struct {
		cc      string
		fetches int32
	}{
		{"no-store", 2}, {"private, no-cache", 2}, {"max-age=0", 2}, {"public, max-age=300", 1}, {"", 1},
	} {
		var hits atomic.Int32
		srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			hits.Add(1)
			if tc.cc != "" {
				w.Header().Set("Cache-Control", tc.cc)
			}
			w.Write(JWKS(key.PublicJWK()))
		}))
		src := &HTTPKeySource{Client: srv.Client()}
		for range 2 {
			if keys, err := src.Keys(context.Background(), srv.URL+"/jwks.json", false); err != nil || len(keys) != 1 {
				t.Fatalf("Cache-Control %q: %v, %d keys", tc.cc, err, len(keys))
			}
		}
		if got := hits.Load(); got != tc.fetches {
			t.Errorf("Cache-Control %q: %d fetches, want %d", tc.cc, got, tc.fetches)
		}
		srv.Close()
	}
	if _, _, err := (&HTTPKeySource{}).Fetch(context.Background(), "http://keys.example/jwks.json"); err == nil {
		t.Error("Fetch accepted an http jku")
	}
}
