package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("unknown-kid", tFaultUnknownKid)
}

// tFaultUnknownKid is the unknown-kid case of TestFaults.
func tFaultUnknownKid(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("unknown-kid", nil))
	if h := tJWSHeader(t, e.card(t, tHostS, false).JSON); h["kid"] != tKIDS+"-unknown" {
		t.Errorf("header %v", h)
	}
	for i := 0; i < 2; i++ {
		if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
			t.Errorf("JWKS kids %v", kids)
		}
	}
}
