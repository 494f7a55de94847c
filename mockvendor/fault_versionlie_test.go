package mockvendor

import (
	"testing"
)

func init() {
	tAddFaultCase("version-header-lie", tFaultVersionHeaderLie)
}

// tFaultVersionHeaderLie is the version-header-lie case of TestFaults.
func tFaultVersionHeaderLie(t *testing.T, e *tFaultEnv) {
	if v := e.send(t, Dialect10, "x", "").Header.Get("A2A-Version"); v != "1.0" {
		t.Fatalf("honest A2A-Version %q", v)
	}
	id := e.add(t, "x", Spec("version-header-lie", VersionHeaderLie{Version: "0.3"}))
	r := e.send(t, Dialect10, "x", "")
	tWantState(t, "send", r, "completed")
	if v := r.Header.Get("A2A-Version"); v != "0.3" {
		t.Errorf("A2A-Version %q, want the lie 0.3", v)
	}
	e.remove(t, id)
	e.add(t, "x", Spec("version-header-lie", nil))
	r = e.send(t, Dialect10, "x", "")
	if _, ok := r.Header["A2a-Version"]; ok {
		t.Errorf("A2A-Version present: %q", r.Header.Get("A2A-Version"))
	}
}
