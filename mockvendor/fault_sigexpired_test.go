package mockvendor

import (
	"slices"
	"testing"
	"time"
)

func init() {
	tAddFaultCase("expired-key", tFaultExpiredKey)
}

// tFaultExpiredKey is the expired-key case of TestFaults: the card is
// signed by "<kid>-expired", which the JWKS lists with an x5c and an exp a
// year past.
func tFaultExpiredKey(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("expired-key", nil))
	if h := tJWSHeader(t, e.card(t, tHostS, false).JSON); h["kid"] != tKIDS+"-expired" {
		t.Errorf("header %v", h)
	}
	r := tGet(t, e.c, "https://"+tHostS+JWKSPath, nil)
	if kids := tJWKSKids(t, r.JSON); !slices.Equal(kids, []string{tKIDS, tKIDS + "-expired"}) {
		t.Fatalf("JWKS kids %v", kids)
	}
	k := tAsList(r.JSON["keys"])[1]
	exp, _ := tPath(k, "exp").(float64)
	if exp == 0 || time.Unix(int64(exp), 0).After(time.Now().AddDate(0, -11, 0)) {
		t.Errorf("exp %v, want about a year ago", tPath(k, "exp"))
	}
	if x5c := tAsList(tPath(k, "x5c")); len(x5c) != 1 {
		t.Errorf("x5c %v, want one certificate", tPath(k, "x5c"))
	}
}
