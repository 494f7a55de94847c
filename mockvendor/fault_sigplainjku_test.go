package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("plain-http-jku", tFaultPlainHTTPJKU)
}

// tFaultPlainHTTPJKU is the plain-http-jku case of TestFaults: the jku is
// http://, and the HTTPS key set does not hold the key (the plain-HTTP one
// is TestPlainHTTPJKU's, which goes through the proxy).
func tFaultPlainHTTPJKU(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("plain-http-jku", nil))
	h := tJWSHeader(t, e.card(t, tHostS, false).JSON)
	if h["kid"] != tKIDS+"-plain" || h["jku"] != "http://"+tHostS+JWKSPath {
		t.Errorf("header %v", h)
	}
	if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
		t.Errorf("HTTPS JWKS kids %v", kids)
	}
}
