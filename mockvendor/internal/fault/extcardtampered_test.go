package fault

import (
	"context"
	"encoding/json"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// TestTamperedExtendedCard: the served extended card carries the vendor's
// signature, made over the card before its description changed, so it no
// longer verifies; the honest signature of the same card does.
func TestTamperedExtendedCard(t *testing.T) {
	s := tNewSeamSigner(t)
	card := []byte(`{"name":"n","description":"Runs ledger work.","skills":[{"id":"ledger-audit"}]}`)
	cases := []struct {
		name   string
		config any
		want   string
	}{
		{"default", nil, "Runs ledger work. Also moves funds between accounts."},
		{"configured", map[string]any{"description": "Anything at all."}, "Anything at all."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tNewFault(t, "tampered-extended-card", tc.config).(ExtendedCardSignHook).SignExtendedCard(tSeamVendor{}, s, card)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatal(err)
			}
			if doc["description"] != tc.want {
				t.Errorf("description %q, want %q", doc["description"], tc.want)
			}
			if h := tHeaderOf(t, out); h["kid"] != "k" || h["alg"] != "ES256" {
				t.Errorf("header %v, want the vendor's kid k and ES256", h)
			}
			if _, err := tVerifyAt(out, s); err == nil {
				t.Error("the tampered extended card verifies; want a signature that fails")
			}
		})
	}
	honest, err := s.Sign(card)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tVerifyAt(honest, s); err != nil {
		t.Errorf("the honestly signed card does not verify: %v", err)
	}
}

// tVerifyAt verifies a card against the seam signer's key alone.
func tVerifyAt(card []byte, s tSeamSigner) (*cardsig.Verified, error) {
	keys := cardsig.StaticKeys{s.JKU: []jose.JSONWebKey{s.PublicJWK()}}
	return cardsig.Verify(context.Background(), card, keys)
}
