package scenarios

import (
	"strings"
	"testing"
)

// TestProfileRuleAreaLife holds every check of the LIFE and STREAM
// scenarios, and every global check but the G-CREDENTIAL-* ones, to the
// catalog's profile rule (ProfileProblems): each names its sources as
// data; an a2a-core grade rests on an A2A clause that binds the client, no
// higher than it; a seed's must is a delegation-safety MUST unless the
// source says why not. A check whose scenario makes the vendor break a
// server-side clause of A2A cites that clause (as binding the server) and
// carries no a2a-core grade: surviving such a vendor is delegation-safety.
func TestProfileRuleAreaLife(t *testing.T) {
	var checks []Check
	for _, area := range [][]*Scenario{lifeScenarios(), streamScenarios(), streamEndScenarios()} {
		for _, s := range area {
			checks = append(checks, s.Checks...)
		}
	}
	for _, c := range GlobalChecks() {
		if !strings.HasPrefix(c.ID, "G-CREDENTIAL-") {
			checks = append(checks, c)
		}
	}
	if len(checks) == 0 {
		t.Fatal("the LIFE and STREAM areas have no checks")
	}
	for _, c := range checks {
		for _, p := range ProfileProblems(c) {
			t.Error(p)
		}
		if brokenBy[c.ID] && hasCore(c) {
			t.Errorf("%s: a2a-core grade, but its scenario's vendor breaks a server-side clause of A2A", c.ID)
		}
		if brokenBy[c.ID] && !citesServerClause(c) {
			t.Errorf("%s: its scenario's vendor breaks a server-side clause of A2A, and the check cites none", c.ID)
		}
	}
}

// brokenBy are the checks whose scenario has the vendor break a
// server-side clause of A2A (task-outcome's early answer to a blocking
// send, stream-cut, the stream faults).
var brokenBy = map[string]bool{
	"LIFE-003.DONE": true, "LIFE-003.BACKOFF": true, "LIFE-004.STOP": true, "LIFE-004.CANCEL": true,
	"STREAM-001.FALLBACK": true, "STREAM-002.TIMEOUT": true,
	"STREAM-003.FOLLOW": true, "STREAM-003.NOT-EARLY": true, "STREAM-004.FALLBACK": true,
	"STREAM-005.DONE": true, "STREAM-005.NO-LOOP": true,
}

func hasCore(c Check) bool {
	for _, g := range c.Grades {
		if g.Profile == Core {
			return true
		}
	}
	return false
}

func citesServerClause(c Check) bool {
	for _, s := range c.Sources {
		if s.IsSpec() && s.Binds == Server {
			return true
		}
	}
	return false
}
