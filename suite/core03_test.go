package suite_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/examples/orchestrators/reference"
	"github.com/a2a-conform/a2a-conform/scenarios"
	"github.com/a2a-conform/a2a-conform/suite"
	"github.com/a2a-conform/a2a-conform/suite/driver"
)

// TestCoreExemptFollowsWholeRun: whether SIG-001.REJECT's a2a-core grade
// (A2A 1.0 §8.4.3 alone; A2A 0.3 asks no client to verify a card
// signature) applies is decided by what the whole run shows the client
// speaking, not by what was known when its scenario ran: the report, its
// JSON read back and re-scored, the scorecard and JUnit all follow it.
func TestCoreExemptFollowsWholeRun(t *testing.T) {
	t.Parallel()
	s, c := scenarios.Find("SIG-001.REJECT")
	if c == nil {
		t.Fatal("no check SIG-001.REJECT")
	}
	// The check's grades and sources, judged by a stub that fails on a
	// request on the wire: only the exemption is under test.
	stub := *c
	stub.Reached = scenarios.Precondition{Needs: "anything", Met: func(*scenarios.Run) bool { return true }}
	stub.Judge = func(*scenarios.Run) scenarios.Verdict {
		return scenarios.Failf("the card should have been refused before any task").At(2)
	}
	sp := func(v ...string) *scenarios.Speaks {
		return &scenarios.Speaks{Versions: v, Bindings: []string{"JSONRPC"}}
	}
	cases := []struct {
		name       string
		then       *scenarios.Speaks // known when SIG-001 ran
		whole      *scenarios.Speaks // what the whole run showed
		coreExempt bool
	}{
		{"0.3 then, 0.3 in the whole run", sp(scenarios.V03), sp(scenarios.V03), true},
		{"nothing known then, 0.3 in the whole run", nil, sp(scenarios.V03), true},
		{"0.3 then, 0.3 and 1.0 in the whole run", sp(scenarios.V03), sp(scenarios.V03, scenarios.V10), false},
		{"1.0 then and in the whole run", sp(scenarios.V10), sp(scenarios.V10), false},
		{"nothing known at all", nil, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cr := suite.Judge(&scenarios.Run{Scenario: s.ID, Speaks: tc.then}, nil, s, stub, nil)
			rep := &suite.Report{
				Scenarios: []suite.ScenarioResult{{ID: s.ID, Spoke: tc.whole}},
				Checks:    []suite.CheckResult{cr},
			}
			rep.Finish(nil)
			assertCoreExempt(t, "report", rep, tc.coreExempt)
			var b bytes.Buffer
			if err := suite.WriteJSON(&b, rep); err != nil {
				t.Fatal(err)
			}
			var back suite.Report
			if err := json.Unmarshal(b.Bytes(), &back); err != nil {
				t.Fatal(err)
			}
			back.Rescore()
			assertCoreExempt(t, "re-scored JSON", &back, tc.coreExempt)
		})
	}
}

// assertCoreExempt holds SIG-001.REJECT's FAIL in rep to the exemption
// wanted: a2a-core exempt (and so not scored, not in the grades JUnit
// shows, not blocking conformance) or not; delegation-safety MUST always.
func assertCoreExempt(t *testing.T, what string, rep *suite.Report, want bool) {
	t.Helper()
	cr := checkOf(t, rep, "SIG-001.REJECT")
	why, exempt := cr.Exempt[scenarios.Core]
	if cr.Result != scenarios.Fail || exempt != want {
		t.Errorf("%s: %s, a2a-core exempt %v (%q), want FAIL, exempt %v", what, cr.Result, exempt, why, want)
	}
	if exempt && !strings.Contains(why, "A2A 0.3 asks this of no client") {
		t.Errorf("%s: the exemption says %q, want why A2A 0.3 does not ask it", what, why)
	}
	if _, ok := cr.Exempt[scenarios.Safety]; ok || !rep.MustFailed([]scenarios.Profile{scenarios.Safety}) {
		t.Errorf("%s: delegation-safety's MUST not failed (exempt %v)", what, cr.Exempt)
	}
	core := rep.Profiles[scenarios.Core]
	if got := core.Counts[scenarios.Fail]; (got == 0) != want {
		t.Errorf("%s: a2a-core counts FAIL %d, want it counted %v", what, got, !want)
	}
	grades := "delegation-safety MUST, a2a-core SHOULD"
	if want {
		grades = "delegation-safety MUST"
	}
	if got := cr.GradesText(); got != grades {
		t.Errorf("%s: grades %q, want %q", what, got, grades)
	}
	var j bytes.Buffer
	if err := suite.WriteJUnit(&j, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(j.String(), `<property name="grades" value="`+grades+`">`) {
		t.Errorf("%s: JUnit does not give the grades %q:\n%s", what, grades, j.String())
	}
}

// TestCoreFor03Clients runs SIG-001 and CARD-002 with the reference
// broken to ignore signature errors, speaking 0.3 only, 1.0 only and both:
// the 0.3-only client's SIG-001.REJECT FAIL is exempt in a2a-core (no A2A
// 0.3 clause asks it, its scorecard says "a2a-core (0.3)" and scores it
// nowhere) and a delegation-safety MUST FAIL; the others FAIL it in
// a2a-core; CARD-002.URL (A2A 0.3 §5.6.3) and G-TLS-VERIFIED (A2A 0.3
// §4.2) are judged for all three, G-VERSION-HEADER (A2A 1.0 §3.6.1 only)
// for the two that speak 1.0.
func TestCoreFor03Clients(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		alt        reference.Alternatives
		label      string
		coreExempt bool
	}{
		{"only-0.3", reference.Alternatives{Only03: true}, "a2a-core (0.3)", true},
		{"only-1.0", reference.Alternatives{Only10: true}, "a2a-core (1.0)", false},
		{"both", reference.Alternatives{}, "a2a-core (0.3, 1.0)", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := driver.NewGo("reference-"+tc.name, func() driver.GoOrchestrator {
				return reference.New(reference.Options{Alt: tc.alt, Break: reference.Breaks{IgnoreSignatureErrors: true}})
			})
			rep := runScenarios(t, d, "SIG-001", "CARD-002")
			assertCoreExempt(t, tc.name, rep, tc.coreExempt)
			core := rep.Profiles[scenarios.Core]
			if got := core.Label(scenarios.Core); got != tc.label {
				t.Errorf("label %q, want %q", got, tc.label)
			}
			if full := core.Score == 100; full != tc.coreExempt || !core.Conformant {
				t.Errorf("a2a-core score %.1f, conformant %v: want 100 only where SIG-001.REJECT's SHOULD is exempt, conformant always (a SHOULD)", core.Score, core.Conformant)
			}
			url := checkOf(t, rep, "CARD-002.URL")
			if _, ok := url.Exempt[scenarios.Core]; ok || url.Result != scenarios.Pass {
				t.Errorf("CARD-002.URL: %s, exempt %v, want a PASS judged in a2a-core (A2A 0.3 §5.6.3 binds the client)", url.Result, url.Exempt)
			}
			// A global's folded result keeps the exemption its observations
			// share: G-VERSION-HEADER asks A2A-Version of 1.0 requests only
			// (A2A 1.0 §3.6.1), G-TLS-VERIFIED is A2A 0.3 §4.2's too.
			vh := checkOf(t, rep, "G-VERSION-HEADER")
			if _, ok := vh.Exempt[scenarios.Core]; ok != tc.coreExempt {
				t.Errorf("G-VERSION-HEADER: a2a-core exempt %v (%v), want %v", ok, vh.Exempt, tc.coreExempt)
			}
			if tls := checkOf(t, rep, "G-TLS-VERIFIED"); len(tls.Exempt) > 0 {
				t.Errorf("G-TLS-VERIFIED: exempt %v, want judged in both profiles", tls.Exempt)
			}
			var sc bytes.Buffer
			suite.WriteScorecard(&sc, rep)
			if !strings.Contains(sc.String(), tc.label) {
				t.Errorf("the scorecard does not name %q:\n%s", tc.label, sc.String())
			}
		})
	}
}

// TestUngradedFail: a FAIL none of whose grades applies to the run (a
// 0.3-only client on an a2a-core check A2A 0.3 does not ask) keeps its
// result but asks for no attention: the grades say why, JUnit skips it
// and no profile scores it.
func TestUngradedFail(t *testing.T) {
	t.Parallel()
	why := "A2A 0.3 asks this of no client: judged for A2A 1.0 clients (its A2A sources are 1.0 clauses), and the client speaks A2A 0.3 only"
	cr := suite.CheckResult{
		ID: "IFACE-001.NO-MISMATCH", Scenario: "IFACE-001", Result: scenarios.Fail, Detail: "a 1.0 request at the 0.3 interface",
		Grades: []scenarios.Grade{{Profile: scenarios.Core, Level: scenarios.Must}}, Profile: scenarios.Core, Level: scenarios.Must,
		Exempt: map[scenarios.Profile]string{scenarios.Core: why},
	}
	if !cr.Ungraded() || cr.NeedsAttention() {
		t.Errorf("ungraded %v, needs attention %v: want ungraded, no attention", cr.Ungraded(), cr.NeedsAttention())
	}
	if got, want := cr.GradesText(), "no grade applies to this run: "+why; got != want {
		t.Errorf("grades %q, want %q", got, want)
	}
	rep := &suite.Report{Checks: []suite.CheckResult{cr}}
	rep.Finish(nil)
	if rep.MustFailed(nil) || rep.Profiles[scenarios.Core].Counts[scenarios.Fail] != 0 {
		t.Errorf("scored: must failed %v, a2a-core %+v", rep.MustFailed(nil), rep.Profiles[scenarios.Core])
	}
	var j bytes.Buffer
	if err := suite.WriteJUnit(&j, rep); err != nil {
		t.Fatal(err)
	}
	if s := j.String(); strings.Contains(s, "<failure") || !strings.Contains(s, "<skipped") || !strings.Contains(s, "FAIL: a 1.0 request") {
		t.Errorf("JUnit, want the case skipped, saying why and what the wire showed:\n%s", s)
	}
}
