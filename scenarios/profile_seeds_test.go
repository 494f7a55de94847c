package scenarios

import "testing"

// TestProfileRuleAreaSeeds holds every check of the seed areas (CARD,
// PROBE, MODE, BIND) to the catalog's profile rule (ProfileProblems): each
// names its sources as data; an a2a-core grade rests on an A2A clause that
// binds the client, no higher than it; a seed's must is a delegation-safety
// MUST unless the source says why not. ProfileProblems takes any note on
// the seed's source as that reason, and every seed source here carries a
// note saying how it is read; none gives a reason to stay below MUST, so
// this test also holds each delegation-safety grade resting on a seed's
// must to MUST.
func TestProfileRuleAreaSeeds(t *testing.T) {
	var n int
	for _, area := range [][]*Scenario{cardScenarios(), probeScenarios(), modeScenarios(), bindScenarios()} {
		for _, s := range area {
			for _, c := range s.Checks {
				n++
				for _, p := range ProfileProblems(c) {
					t.Error(p)
				}
				for _, g := range c.Grades {
					if g.Profile != Safety || g.Level == Must {
						continue
					}
					for _, src := range c.Sources {
						if (src.Document == DocSeed000 || src.Document == DocSeed003) && src.Level == SrcMust {
							t.Errorf("%s: delegation-safety %s, but %s says must", c.ID, g.Level, src)
						}
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the seed areas have no checks")
	}
}
