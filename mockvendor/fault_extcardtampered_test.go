package mockvendor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

func init() {
	tAddFaultCase("tampered-extended-card", tFaultTamperedExtendedCard)
}

// tFaultTamperedExtendedCard is the tampered-extended-card case of
// TestFaults: e's extended card carries e's signature but no longer
// verifies with e's key; its public card still does.
func tFaultTamperedExtendedCard(t *testing.T, e *tFaultEnv) {
	if _, err := tExtendedCardVerified(t, e, "1.0"); err != nil {
		t.Fatalf("before the fault, e's extended card does not verify: %v", err)
	}
	e.add(t, "e", Spec("tampered-extended-card", nil))
	for _, version := range []string{"1.0", "0.3"} {
		card, err := tExtendedCardVerified(t, e, version)
		if err == nil {
			t.Errorf("%s: the tampered extended card verifies", version)
		}
		if desc, _ := card["description"].(string); !strings.HasSuffix(desc, "Also moves funds between accounts.") {
			t.Errorf("%s: description %q", version, desc)
		}
		if h := tJWSHeader(t, card); h["kid"] != tKIDE {
			t.Errorf("%s: header %v, want e's kid", version, h)
		}
	}
	public := e.card(t, tHostE, true)
	if _, err := cardsig.Verify(context.Background(), public.Body, &cardsig.HTTPKeySource{Client: e.c}); err != nil {
		t.Errorf("the public card no longer verifies: %v", err)
	}
}

// tExtendedCardVerified fetches e's extended card in the version's method
// and verifies it with e's key set.
func tExtendedCardVerified(t *testing.T, e *tFaultEnv, version string) (map[string]any, error) {
	t.Helper()
	method := "GetExtendedAgentCard"
	if version == "0.3" {
		method = "agent/getAuthenticatedExtendedCard"
	}
	r := tRPC(t, e.c, "https://"+tHostE+DefaultRPCPath, version, method, map[string]any{})
	card := r.Result()
	if card == nil {
		t.Fatalf("%s: no extended card: %s", method, r.Body)
	}
	b, err := json.Marshal(card)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cardsig.Verify(context.Background(), b, &cardsig.HTTPKeySource{Client: e.c})
	return card, err
}
