package mockvendor

import (
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("canon-traps", tFaultCanonTraps)
}

// tFaultCanonTraps is the canon-traps case of TestFaults: the traps are on
// the card, and each tamper changes its one value (TestCanonTrapsVerify
// checks the signatures).
func tFaultCanonTraps(t *testing.T, e *tFaultEnv) {
	for i, tc := range []struct{ tamper, has, hasNot string }{
		{"", `"ratio":0.30000000000000004`, "Re\u0301sume\u0301"},
		{"number", `"ratio":0.3,`, `0.30000000000000004`},
		{"unicode", "Re\u0301sume\u0301 des", "Résumé des"},
	} {
		id := e.add(t, "s", Spec("canon-traps", CanonTraps{Tamper: tc.tamper}))
		body := string(e.card(t, tHostS, true).Body)
		if !strings.Contains(body, tc.has) || strings.Contains(body, tc.hasNot) {
			t.Errorf("tamper %q: card %s\nwant %q and not %q", tc.tamper, body, tc.has, tc.hasNot)
		}
		for _, trap := range []string{`"b😀key"`, `"big":1e21`, `"negZero":-0.0`, `"pushNotifications":false`, "中文摘要"} {
			if !strings.Contains(body, trap) {
				t.Errorf("tamper %q: card lacks %s", tc.tamper, trap)
			}
		}
		if i < 2 {
			e.remove(t, id)
		}
	}
}
