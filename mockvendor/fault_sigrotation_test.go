package mockvendor

import (
	"slices"
	"testing"
)

func init() {
	tAddFaultCase("key-rotation", tFaultKeyRotation)
}

// tFaultKeyRotation is the key-rotation case of TestFaults.
func tFaultKeyRotation(t *testing.T, e *tFaultEnv) {
	e.add(t, "s", Spec("key-rotation", nil))
	if h := tJWSHeader(t, e.card(t, tHostS, false).JSON); h["kid"] != tKIDS+"-next" {
		t.Errorf("header %v", h)
	}
	if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS}) {
		t.Errorf("first JWKS after the rotation: kids %v, want the stale set", kids)
	}
	if kids := e.jwks(t); !slices.Equal(kids, []string{tKIDS, tKIDS + "-next"}) {
		t.Errorf("second JWKS: kids %v", kids)
	}
}
