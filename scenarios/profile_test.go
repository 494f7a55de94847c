package scenarios

import "testing"

// TestProfileRule holds every check of the catalog, the global ones
// included, to the profile rule (ProfileProblems): sources as data, each
// valid; an a2a-core grade rests on an A2A clause that binds the client, no
// higher than it, and never on a scenario whose vendor breaks a server
// clause; a seed's must is a delegation-safety MUST unless the source says
// why not.
func TestProfileRule(t *testing.T) {
	checks := GlobalChecks()
	for _, s := range All() {
		checks = append(checks, s.Checks...)
	}
	for _, c := range checks {
		for _, p := range ProfileProblems(c) {
			t.Error(p)
		}
	}
	// The scenarios whose vendor answers a blocking send early or ends
	// its stream early say so in their checks' sources. STREAM-004's
	// connection breaking off midway is a network interruption (A2A 1.0
	// §3.5.2), which breaks no server clause.
	broken := map[string]bool{}
	for _, c := range checks {
		for _, src := range c.Sources {
			broken[c.ID] = broken[c.ID] || src.BrokenHere
		}
	}
	for _, id := range []string{"LIFE-003.DONE", "LIFE-003.BACKOFF", "LIFE-004.STOP", "LIFE-004.CANCEL",
		"STREAM-001.FALLBACK", "STREAM-002.TIMEOUT", "STREAM-003.FOLLOW", "STREAM-003.NOT-EARLY",
		"STREAM-005.DONE", "STREAM-005.NO-LOOP"} {
		if !broken[id] {
			t.Errorf("%s: its scenario's vendor breaks a server clause of A2A, and no source says which (Source.Broken)", id)
		}
	}
}
