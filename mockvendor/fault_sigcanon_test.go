package mockvendor

import (
	"strings"
	"testing"
)

func init() {
	tAddFaultCase("canon-traps", tFaultCanonTraps)
}

// tFaultCanonTraps is the canon-traps case of TestFaults: every trap is on
// the untampered card, and each tamper changes its one value
// (TestKeyFaultsVerify checks the signatures).
func tFaultCanonTraps(t *testing.T, e *tFaultEnv) {
	traps := []string{`"ratio":0.30000000000000004`, `"b😀key"`, `"big":1e21`, `"negZero":-0.0`, "中文摘要"}
	all := append([]string{`"pushNotifications":false`, `"extendedAgentCard":false`}, traps...)
	for i, tc := range []struct {
		tamper      string
		has, hasNot []string
	}{
		{"number", []string{`"limit":0.30000000000000004}`}, traps},
		{"unicode", []string{"Re\u0301sume\u0301: "}, append([]string{"Résumé"}, traps...)},
		{"surrogate", []string{`\ud800 `}, append([]string{"\ufffd"}, traps...)},
		{"", all, []string{"Re\u0301sume\u0301", `\ud800`}},
	} {
		id := e.add(t, "s", Spec("canon-traps", CanonTraps{Tamper: tc.tamper}))
		body := string(e.card(t, tHostS, true).Body)
		for _, s := range tc.has {
			if !strings.Contains(body, s) {
				t.Errorf("tamper %q: card lacks %s:\n%s", tc.tamper, s, body)
			}
		}
		for _, s := range tc.hasNot {
			if strings.Contains(body, s) {
				t.Errorf("tamper %q: card has %s:\n%s", tc.tamper, s, body)
			}
		}
		if i < 3 {
			e.remove(t, id)
		}
	}
}
