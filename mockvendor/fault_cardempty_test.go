package mockvendor

import "testing"

func init() {
	tAddFaultCase("card-empty", tFaultCardEmpty)
}

// tFaultCardEmpty is the card-empty case of TestFaults: the card fetch
// answers 200 with {} (with the card's own cache headers), and the
// endpoint still answers a send.
func tFaultCardEmpty(t *testing.T, e *tFaultEnv) {
	e.add(t, "x", Spec("card-empty", nil))
	r := e.card(t, tHostX, true)
	if string(r.Body) != "{}" || r.Header.Get("ETag") == "" {
		t.Errorf("card %q (ETag %q), want {} with an ETag", r.Body, r.Header.Get("ETag"))
	}
	tWantState(t, "send", e.send(t, Dialect10, "empty card", "alpha"), "completed")
}
