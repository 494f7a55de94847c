package scenarios

import (
	"slices"
	"testing"
)

// specAreaChecks are the checks of the SIG, IFACE and AUTH scenarios and
// the two credential globals auth.go defines.
func specAreaChecks() []Check {
	var out []Check
	for _, s := range slices.Concat(sigScenarios(), ifaceScenarios(), authScenarios()) {
		out = append(out, s.Checks...)
	}
	return append(out, credentialScopeCheck(), credentialRedactedCheck())
}

// TestSpecAreaGrades pins the grades the sources were found to give where
// the old catalog graded above them: a rule from outside A2A, or from a
// scenario whose vendor breaks its card, is delegation-safety; SIG-004's
// a2a-core MUST binds only a client that claims to verify.
func TestSpecAreaGrades(t *testing.T) {
	byID := map[string]Check{}
	for _, c := range specAreaChecks() {
		byID[c.ID] = c
	}
	tests := []struct {
		id   string
		want map[Profile]Level
		// when is the profile whose grade must be conditional.
		when Profile
	}{
		{id: "SIG-003.REFETCH-JWKS", want: map[Profile]Level{Safety: Should}},
		{id: "IFACE-006.NO-DOWNGRADE", want: map[Profile]Level{Safety: Must}},
		{id: "IFACE-006.REPORT", want: map[Profile]Level{Safety: Must}},
		{id: "IFACE-002.VERSION", want: map[Profile]Level{Core: Should}},
		{id: "AUTH-001.ATTACH", want: map[Profile]Level{Core: Should, Safety: Must}},
		{id: "AUTH-002.ATTACH", want: map[Profile]Level{Core: Should, Safety: Must}},
		{id: "AUTH-003.NO-RETRY", want: map[Profile]Level{Safety: Must}},
		{id: "AUTH-005.NO-UNVERIFIED", want: map[Profile]Level{Safety: Must}},
		{id: "SIG-004.REJECT", want: map[Profile]Level{Core: Must, Safety: Must}, when: Core},
	}
	for _, tt := range tests {
		c, ok := byID[tt.id]
		if !ok {
			t.Errorf("%s: no such check", tt.id)
			continue
		}
		got := map[Profile]Level{}
		for _, g := range c.Grades {
			got[g.Profile] = g.Level
			if (g.When != nil) != (g.Profile == tt.when) {
				t.Errorf("%s: %s grade conditional = %v, want %v", tt.id, g.Profile, g.When != nil, g.Profile == tt.when)
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: grades %v, want %v", tt.id, got, tt.want)
			continue
		}
		for p, l := range tt.want {
			if got[p] != l {
				t.Errorf("%s: grades %v, want %v", tt.id, got, tt.want)
				break
			}
		}
	}
}
