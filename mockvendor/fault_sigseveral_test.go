package mockvendor

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("several-signatures", tFaultSeveralSignatures)
}

// tFaultSeveralSignatures is the several-signatures case of TestFaults:
// three signatures, kids retired, the vendor's, the vendor's; the JWKS
// lists the vendor's key alone.
func tFaultSeveralSignatures(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("several-signatures", nil))
	card := e.card(t, tHostS, false).JSON
	var kids []string
	for _, s := range tAsList(card["signatures"]) {
		p, _ := tPath(s, "protected").(string)
		b, err := base64.RawURLEncoding.DecodeString(p)
		if err != nil {
			t.Fatalf("protected: %v", err)
		}
		var h map[string]any
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatalf("protected: %v", err)
		}
		kid, _ := h["kid"].(string)
		kids = append(kids, kid)
	}
	if want := []string{tKIDS + "-retired", tKIDS, tKIDS}; !slices.Equal(kids, want) {
		t.Errorf("signature kids %v, want %v", kids, want)
	}
	if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
		t.Errorf("JWKS kids %v", kids)
	}
}
