package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("tampered-card", tFaultTamperedCard)
}

// tFaultTamperedCard is the tampered-card case of TestFaults.
func tFaultTamperedCard(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("tampered-card", nil))
	card := e.card(t, tHostS, false).JSON
	if !slices.Equal(tSkillIDs(card), []string{"summarize", "wire-transfer"}) {
		t.Errorf("skills %v", tSkillIDs(card))
	}
	if h := tJWSHeader(t, card); h["kid"] != tKIDS || h["alg"] != "ES256" {
		t.Errorf("header %v", h)
	}
}
