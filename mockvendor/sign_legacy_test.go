package mockvendor

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/a2a-conform/a2a-conform/cardsig"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/card"
)

// TestSignedHybridCard: vendor A's hybrid card carries the 0.3 members and
// two signatures with its key: the first verifies over the card without
// the 0.3 members (the @a2a-js/sdk projection), the second over the whole
// card; a url changed after signing breaks the second and is not covered by
// the first, so cardsig.Verify (RFC 8785 over the document) refuses it.
func TestSignedHybridCard(t *testing.T) {
	f := tDefault(t)
	c := tClient(t, f, tViaProxy)
	served := tGet(t, c, "https://"+HostVendorA+CardPath, nil)
	jwks := tGet(t, c, "https://"+HostVendorA+JWKSPath, nil)
	keys, err := cardsig.ParseJWKS(jwks.Body)
	if err != nil {
		t.Fatal(err)
	}
	src := cardsig.StaticKeys{"https://" + HostVendorA + JWKSPath: keys}
	if served.JSON["url"] == nil || served.JSON["preferredTransport"] != "JSONRPC" {
		t.Fatalf("A's card lacks the 0.3 members: %s", served.Body)
	}
	if _, err := cardsig.Verify(context.Background(), served.Body, src); err != nil {
		t.Errorf("whole-card verification: %v", err)
	}
	var doc map[string]any
	_ = json.Unmarshal(served.Body, &doc)
	sigs := tAsList(doc["signatures"])
	for i, keep := range []string{"projection", "whole card"} {
		one := map[string]any{}
		for k, v := range doc {
			one[k] = v
		}
		one["signatures"] = []any{sigs[i]}
		if i == 0 {
			for _, k := range card.LegacyMembers {
				delete(one, k)
			}
		}
		b, _ := json.Marshal(one)
		if _, err := cardsig.Verify(context.Background(), b, src); err != nil {
			t.Errorf("signature %d over the %s: %v", i, keep, err)
		}
	}
	doc["url"] = "https://evil.example/a2a"
	b, _ := json.Marshal(doc)
	if _, err := cardsig.Verify(context.Background(), b, src); err == nil {
		t.Error("a card whose url changed after signing verifies")
	}
}
