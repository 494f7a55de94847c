package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("alg-none", tFaultAlgNone)
	tAddFaultCase("hs256-confusion", tFaultHS256Confusion)
	tAddFaultCase("unsigned-card", tFaultUnsignedCard)
}

// tFaultAlgNone is the alg-none case of TestFaults.
func tFaultAlgNone(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("alg-none", nil))
	card := e.card(t, tHostS, false).JSON
	if h := tJWSHeader(t, card); h["alg"] != "none" || h["kid"] != tKIDS {
		t.Errorf("header %v", h)
	}
	if sig := tPath(card, "signatures", 0, "signature"); sig != "" {
		t.Errorf("signature %q, want empty", sig)
	}
}

// tFaultHS256Confusion is the hs256-confusion case of TestFaults.
func tFaultHS256Confusion(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("hs256-confusion", nil))
	card := e.card(t, tHostS, false).JSON
	if h := tJWSHeader(t, card); h["alg"] != "HS256" || h["kid"] != tKIDS {
		t.Errorf("header %v", h)
	}
	if sig, _ := tPath(card, "signatures", 0, "signature").(string); sig == "" {
		t.Error("no HMAC signature")
	}
}

// tFaultUnsignedCard is the unsigned-card case of TestFaults.
func tFaultUnsignedCard(t *testing.T, e *tFaultEnv) {
	before := tWithoutSignatures(t, e.card(t, tHostS, false).Body)
	e.add(t, "s", Spec("unsigned-card", nil))
	card := e.card(t, tHostS, false)
	if _, ok := card.JSON["signatures"]; ok {
		t.Error("card still signed")
	}
	if tWithoutSignatures(t, card.Body) != before {
		t.Error("the unsigned card differs beyond its signatures")
	}
	if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
		t.Errorf("JWKS %v", kids)
	}
}
