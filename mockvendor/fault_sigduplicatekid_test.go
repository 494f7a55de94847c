package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("duplicate-kid", tFaultDuplicateKid)
}

// tFaultDuplicateKid is the duplicate-kid case of TestFaults.
func tFaultDuplicateKid(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("duplicate-kid", nil))
	r := tGet(t, e.c, "https://"+tHostS+JWKSPath, nil)
	keys := tAsList(r.JSON["keys"])
	if kids := tJWKSKids(t, r.JSON); !slices.Equal(kids, []string{tKIDS, tKIDS}) {
		t.Fatalf("JWKS kids %v", kids)
	}
	if tJSONEqual(keys[0], keys[1]) {
		t.Error("the two keys are the same key")
	}
	if h := tJWSHeader(t, e.card(t, tHostS, false).JSON); h["kid"] != tKIDS {
		t.Errorf("header %v", h)
	}
}
