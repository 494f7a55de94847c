package scenarios

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/mockvendor"
)

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

// How an a2a-core check binds a client that speaks only A2A 0.3
// (TestCoreFor03): "0.3", an A2A 0.3 clause binds the client at the
// grade's level; "below", 0.3 has a client clause, but below that level;
// "1.0 only", no A2A 0.3 clause binds the client, so its a2a-core grade
// is judged for 1.0 clients only (Check.Evaluate exempts it for a client
// that speaks 0.3 and not 1.0).
const (
	binds03  = "0.3"
	below03  = "below"
	only10In = "1.0 only"
)

// coreFor03 is the catalog's word, per a2a-core check, on whether A2A 0.3
// asks it of a client (A2A 0.3 specification, audited clause by clause;
// the sources say which). Every a2a-core check is listed.
var coreFor03 = map[string]string{
	"CARD-002.URL":                binds03,  // 0.3 §5.6.3 rule 5 (MUST)
	"STREAM-004.FALLBACK":         binds03,  // 0.3 §7.9, §7.3 (descriptive; the grade is SHOULD)
	"SIG-001.REJECT":              only10In, // 0.3 §5.5.6 defines AgentCardSignature; no clause asks a client to verify it
	"SIG-004.REJECT":              only10In, // likewise: the verification steps are A2A 1.0 §8.4.3's
	"KEY-002.REJECT":              only10In, // likewise (§8.4.3's security considerations)
	"KEY-004.NOT-TRUSTED":         only10In, // likewise
	"KEY-005.ACCEPT":              only10In, // likewise
	"KEY-006.REJECT":              only10In, // likewise
	"LIFE-001.NOT-COMPLETED":      binds03,  // 0.3 §6.1 (descriptive)
	"LIFE-002.INTERRUPTED":        binds03,  // 0.3 §9.4, §4.5 (descriptive)
	"LIFE-005.DONE":               binds03,  // 0.3 §7.1 (descriptive)
	"LIFE-005.NO-INVENTED-TASK":   binds03,  // 0.3 §7.3 (descriptive)
	"STREAM-006.NO-EMPTY-SUCCESS": only10In, // A2A 1.0 §3.1.2's errors of the stream operation; not cited from 0.3
	"STREAM-009.DONE":             binds03,  // 0.3 §7.2 (descriptive)
	"STREAM-009.NO-TASK-OP":       binds03,  // 0.3 §7.3 (descriptive)
	"LIFE-006.DONE":               binds03,  // 0.3 §7.3 (descriptive, self-requested: MUST)
	"LIFE-006.STREAM":             binds03,  // 0.3 §7.2 (descriptive, self-requested: MUST)
	"RESULT-001.ARTIFACTS":        binds03,  // 0.3 §6.7 (descriptive)
	"RESULT-002.JOINED":           binds03,  // 0.3 §7.2.3 (descriptive)
	"RESULT-003.QUESTION":         binds03,  // 0.3 §9.4 (descriptive)
	"SLOW-001.DONE":               binds03,  // 0.3 §7.1 (descriptive; the grade is SHOULD)
	"IFACE-001.NO-MISMATCH":       only10In, // 0.3 interfaces carry no version of their own
	"IFACE-001.DONE":              binds03,  // 0.3 §3.4.2, §5.6.3 rule 2 (SHOULD)
	"IFACE-002.FALLBACK":          binds03,  // 0.3 §5.6.3 (MUST)
	"IFACE-002.VERSION":           binds03,  // 0.3 §5.6.3 (MUST)
	"IFACE-003.SUPPORTED-FIRST":   only10In, // supportedInterfaces is A2A 1.0's
	"IFACE-003.DONE":              only10In, // likewise
	"IFACE-004.SKIP-UNSPOKEN":     binds03,  // 0.3 §5.6.3 rule 5 (MUST)
	"IFACE-004.NEXT-ON-FAIL":      binds03,  // 0.3 §5.6.3 rule 4 (SHOULD)
	"IFACE-005.TENANT":            only10In, // tenant is A2A 1.0's
	"IFACE-005.DONE":              only10In, // likewise
	"IFACE-007.FIRST":             only10In, // supportedInterfaces' order is A2A 1.0's; the card is a 1.0 card
	"IFACE-007.NO-TENANT":         only10In, // tenant is A2A 1.0's
	"IFACE-008.EXACT":             only10In, // A2A 1.0 §8.3.2 rule 3; the card is a 1.0 card
	"IFACE-009.ADDRESS":           only10In, // A2A 1.0 §8.3.2 rule 3; the card is a 1.0 card
	"IFACE-010.METADATA":          only10In, // A2A 1.0 §3.6.1, §10.2; a2a-version is A2A 1.0's
	"AUTH-013.ATTACH":             only10In, // D serves 1.0 only
	"IFACE-009.GRPC-FIRST":        only10In, // A2A 1.0 §8.3.2, §5.2; the card is a 1.0 card
	"DISC-001.URL":                binds03,  // 0.3 §5.6.3 rule 5 (MUST)
	"AUTH-001.ATTACH":             binds03,  // 0.3 §4.3 (descriptive)
	"AUTH-002.ATTACH":             binds03,  // 0.3 §4.3 (descriptive)
	"AUTH-007.ATTACH":             only10In, // D serves 1.0 only
	"AUTH-008.PRESENTED":          only10In, // D serves 1.0 only
	"AUTH-009.ATTACH":             only10In, // D serves 1.0 only
	"CONV-001.CONTINUE":           binds03,  // 0.3 §9.4 (descriptive)
	"CONV-001.NO-NEW-TASK":        binds03,  // 0.3 §9.4 (descriptive)
	"CONV-002.EVERY-TURN":         binds03,  // 0.3 §9.4 (descriptive)
	"CONV-003.INTERRUPTED":        binds03,  // 0.3 §9.4 (descriptive)
	"READ-001.COMPLETED":          only10In, // A2A 1.0 §5.7; 0.3 has no clause on unrecognized fields
	"READ-001.NOTHING-INVENTED":   only10In, // likewise
	"READ-003.SPELLED":            only10In, // A2A 1.0 §5.6.1; 0.3 says nothing of timestamp forms
	"READ-003.PRECISE":            only10In, // likewise
	"PUSH-001.ACK":                below03,  // 0.3 §9.5 (descriptive); the MUST is A2A 1.0 §4.3.3, §13.2
	"PUSH-001.FORGED":             below03,  // 0.3 §9.5 (descriptive); the MUST is A2A 1.0 §13.2
	"PUSH-001.UNKNOWN-TASK":       only10In, // A2A 1.0 §13.2 (SHOULD), §4.3.3 (MUST); 0.3 has no receiver clause
	"PUSH-001.DUPLICATE":          only10In, // A2A 1.0 §4.3.3, §13.2 (SHOULD)
	"PUSH-001.OUTCOME":            below03,  // 0.3 §9.5 (descriptive); the MUST is A2A 1.0 §13.2
	"PUSH-001.TOKEN":              only10In, // A2A 1.0 §13.2 (SHOULD)
	"CAP-001.NO-STREAM":           binds03,  // 0.3 §7.2, §7.9 (descriptive; the grade is SHOULD)
	"EXT-001.ACTIVATED":           only10In, // 0.3 activates extensions in its extensions topic, not in the specification
	"EXT-001.HEADER":              only10In, // A2A-Extensions is A2A 1.0's name
	"EXT-001.DONE":                only10In, // likewise
	"EXT-002.REFUSED":             only10In, // A2A 1.0 §3.3.4's list of capabilities; 0.3 has none for extensions
	"XCARD-001.AUTH":              binds03,  // 0.3 §7.10 (MUST)
	"XCARD-001.REPLACE":           binds03,  // 0.3 §7.10 (SHOULD)
	"XCARD-002.NOT-USED":          only10In, // A2A 1.0 §8.4.3, §14.3 (SHOULD); 0.3 describes the signature (§5.5.6) and asks nothing of a client
	"G-JSONRPC":                   binds03,  // 0.3 §3.2.1, §7 (MUST)
	"G-MESSAGE-SHAPE":             binds03,  // 0.3 §6.5 (MUST)
	"G-VERSION-HEADER":            only10In, // A2A-Version is A2A 1.0's (§3.6.1 excepts 0.3 clients)
	"G-TLS-VERIFIED":              binds03,  // 0.3 §4.2 (SHOULD)
}

// catalogChecks is every check of the catalog, the global ones included.
func catalogChecks() []Check {
	checks := GlobalChecks()
	for _, s := range All() {
		checks = append(checks, s.Checks...)
	}
	return checks
}

// coreGrade is the check's a2a-core grade, if it has one.
func coreGrade(c Check) (Grade, bool) {
	for _, g := range c.Grades {
		if g.Profile == Core {
			return g, true
		}
	}
	return Grade{}, false
}

// TestCoreFor03: the catalog says, for every a2a-core check, whether A2A
// 0.3 asks it of a client, and its sources agree: "0.3" needs an A2A 0.3
// clause that binds the client at the grade's level, "below" one below
// it, "1.0 only" none at all.
func TestCoreFor03(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range catalogChecks() {
		g, ok := coreGrade(c)
		if !ok {
			if _, listed := coreFor03[c.ID]; listed {
				t.Errorf("%s: listed in coreFor03, but it has no a2a-core grade", c.ID)
			}
			continue
		}
		seen[c.ID] = true
		got := only10In
		for _, s := range c.Sources {
			if s.Document == DocA2A03 && s.Binds == Client {
				got = below03
			}
		}
		if c.Binds03() {
			got = binds03
		}
		want, listed := coreFor03[c.ID]
		switch {
		case !listed:
			t.Errorf("%s: a2a-core %s, and coreFor03 does not say whether A2A 0.3 asks it of a client (its sources say %q)", c.ID, g.Level, got)
		case want != got:
			t.Errorf("%s: coreFor03 says %q, its sources say %q (%s)", c.ID, want, got, c.Cite())
		}
		if why := c.core03(g); (why == "") != (got == binds03) || got == below03 && !strings.Contains(why, "at most") {
			t.Errorf("%s: the exemption's reason %q does not match %q", c.ID, why, got)
		}
	}
	for id := range coreFor03 {
		if !seen[id] {
			t.Errorf("coreFor03 lists %s, which is no a2a-core check of the catalog", id)
		}
	}
}

// TestCoreExempt03: an a2a-core grade resting on A2A 1.0 clauses alone
// does not apply to a client the run shows speaking A2A 0.3 only; it
// applies to a 1.0 client, to one that speaks both and to one of which
// nothing is known, and a check with an A2A 0.3 client clause at its
// level is judged for a 0.3-only client. The verdict itself never moves,
// and delegation-safety is untouched.
func TestCoreExempt03(t *testing.T) {
	sp := func(v ...string) *Speaks { return &Speaks{Versions: v, Bindings: []string{"JSONRPC"}} }
	call03 := mockvendor.Event{Seq: 1, Vendor: "a", Host: mockvendor.HostVendorA, Op: mockvendor.OpSend, HTTPMethod: "POST", Method: "message/send"}
	call10 := call03
	call10.HasA2AVersion, call10.A2AVersion = true, "1.0"
	// below is a check whose only A2A 0.3 client clause is a SHOULD under
	// an a2a-core MUST.
	below := Check{ID: "X-BELOW", Grades: must(Core), Sources: []Source{
		A2A("§8.3.2", SrcMust, Client), A2A03("§5.6.3", SrcShould, Client),
	}}
	cases := []struct {
		name       string
		check      string
		c          *Check
		speaks     *Speaks
		events     []mockvendor.Event
		coreExempt bool
		why        string
	}{
		{"0.3 only, declared", "SIG-001.REJECT", nil, sp(V03), nil, true, "A2A 0.3 asks this of no client"},
		{"0.3 only, this scenario's wire", "SIG-001.REJECT", nil, nil, []mockvendor.Event{call03}, true, "A2A 0.3 asks this of no client"},
		{"1.0 only", "SIG-001.REJECT", nil, sp(V10), nil, false, ""},
		{"both", "SIG-001.REJECT", nil, sp(V03, V10), nil, false, ""},
		{"declared 0.3, wire shows 1.0", "SIG-001.REJECT", nil, sp(V03), []mockvendor.Event{call10}, false, ""},
		{"unknown", "SIG-001.REJECT", nil, nil, nil, false, ""},
		{"unknown, bindings only", "SIG-001.REJECT", nil, &Speaks{Bindings: []string{"JSONRPC"}}, nil, false, ""},
		{"0.3 clause: CARD-002.URL", "CARD-002.URL", nil, sp(V03), nil, false, ""},
		{"0.3 self-requested clause: LIFE-006.DONE", "LIFE-006.DONE", nil, sp(V03), nil, false, ""},
		{"global: G-VERSION-HEADER", "G-VERSION-HEADER", nil, sp(V03), nil, true, "A2A 0.3 asks this of no client"},
		{"global: G-TLS-VERIFIED", "G-TLS-VERIFIED", nil, sp(V03), nil, false, ""},
		{"0.3 clause below the grade", "", &below, sp(V03), nil, true, "at SHOULD at most (A2A 0.3 §5.6.3), below this MUST"},
		{"0.3 clause below the grade, both", "", &below, sp(V03, V10), nil, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			if c == nil {
				_, c = Find(tc.check)
				if c == nil {
					t.Fatalf("no check %s", tc.check)
				}
			}
			// The check's own grades and sources, judged by a stub that
			// fails on a request the wire shows: the rule reads nothing else.
			ch := *c
			ch.Reached = Precondition{Needs: "anything", Met: func(*Run) bool { return true }}
			ch.Judge = func(*Run) Verdict { return Failf("a request the check forbids").At(9) }
			r := &Run{Speaks: tc.speaks, Events: tc.events}
			v, exempt := ch.Evaluate(r)
			if v.Outcome != Fail || v.Needs != "" {
				t.Errorf("verdict %s (needs %q), want the judge's FAIL", v.Outcome, v.Needs)
			}
			why, got := exempt[Core]
			if got != tc.coreExempt || !strings.Contains(why, tc.why) {
				t.Errorf("a2a-core exempt %v (%q), want %v (%q)", got, why, tc.coreExempt, tc.why)
			}
			if why, ok := exempt[Safety]; ok {
				t.Errorf("delegation-safety exempt (%q): the A2A version does not touch it", why)
			}
			if _, core := coreGrade(ch); core && !ch.Binds03() && !r.ReadsSpeech() {
				t.Error("the rule read what the client speaks without telling the suite (Run.ReadsSpeech), which would not judge it again for the whole run")
			}
		})
	}
}
