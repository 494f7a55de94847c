package suite

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

func cr(id string, res scenarios.Outcome, gs ...scenarios.Grade) CheckResult {
	return CheckResult{ID: id, Result: res, Grades: gs, Profile: gs[0].Profile, Level: gs[0].Level}
}

var (
	safetyMust = scenarios.Grade{Profile: scenarios.Safety, Level: scenarios.Must}
	safetyShd  = scenarios.Grade{Profile: scenarios.Safety, Level: scenarios.Should}
	coreMust   = scenarios.Grade{Profile: scenarios.Core, Level: scenarios.Must}
	coreShd    = scenarios.Grade{Profile: scenarios.Core, Level: scenarios.Should}
)

func TestScore(t *testing.T) {
	cases := []struct {
		name       string
		checks     []CheckResult
		profile    scenarios.Profile
		score      float64
		must, mApp int
		conformant bool
	}{
		{"all pass", []CheckResult{cr("A", scenarios.Pass, safetyMust), cr("B", scenarios.Pass, safetyShd)}, scenarios.Safety, 100, 1, 1, true},
		{"should fails", []CheckResult{cr("A", scenarios.Pass, safetyMust), cr("B", scenarios.Fail, safetyShd)}, scenarios.Safety, 75, 1, 1, true},
		{"must fails", []CheckResult{cr("A", scenarios.Fail, safetyMust), cr("B", scenarios.Pass, safetyShd)}, scenarios.Safety, 25, 0, 1, false},
		{"waived must keeps conformance", []CheckResult{cr("A", scenarios.Waived, safetyMust), cr("B", scenarios.Pass, safetyMust)}, scenarios.Safety, 50, 1, 2, true},
		{"error breaks conformance", []CheckResult{cr("A", scenarios.Error, safetyMust), cr("B", scenarios.Pass, safetyMust)}, scenarios.Safety, 50, 1, 2, false},
		{"not applicable is left out", []CheckResult{cr("A", scenarios.NotApplicable, safetyMust), cr("B", scenarios.Pass, safetyMust)}, scenarios.Safety, 100, 1, 1, true},
		{"nothing applicable is not conformant", []CheckResult{cr("A", scenarios.NotApplicable, safetyMust)}, scenarios.Safety, 0, 0, 0, false},
		{"unimplemented counts as not passed", []CheckResult{cr("A", scenarios.Unimplemented, safetyMust), cr("B", scenarios.Pass, safetyMust)}, scenarios.Safety, 50, 1, 2, false},
		{"not exercised counts as not passed and blocks a MUST", []CheckResult{cr("A", scenarios.NotExercised, safetyMust), cr("B", scenarios.Pass, safetyMust)}, scenarios.Safety, 50, 1, 2, false},
		{"not exercised SHOULD lowers the score only", []CheckResult{cr("A", scenarios.Pass, safetyMust), cr("B", scenarios.NotExercised, safetyShd)}, scenarios.Safety, 75, 1, 1, true},
		{"exempt grade is left out", []CheckResult{func() CheckResult {
			c := cr("A", scenarios.Fail, safetyMust, coreMust)
			c.Exempt = map[scenarios.Profile]string{scenarios.Core: "applies only to a verifier"}
			return c
		}(), cr("B", scenarios.Pass, coreMust)}, scenarios.Core, 100, 1, 1, true},
		{"two grades count in each profile", []CheckResult{cr("A", scenarios.Fail, safetyMust, coreShd), cr("B", scenarios.Pass, coreMust)}, scenarios.Core, 75, 1, 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps := Score(c.checks)[c.profile]
			if ps.Score != c.score || ps.MustPassed != c.must || ps.MustApplicable != c.mApp || ps.Conformant != c.conformant {
				t.Errorf("Score = %+v; want score %v, MUST %d/%d, conformant %v", ps, c.score, c.must, c.mApp, c.conformant)
			}
		})
	}
}

func TestBaseline(t *testing.T) {
	b := Baseline{"CARD-001.*": "known: our CDN client ignores no-cache", "SIG-009.X": "typo", "PROBE-002.ONE": "fixed already"}
	checks := []CheckResult{
		cr("CARD-001.REFETCH", scenarios.Fail, safetyMust),
		cr("PROBE-002.ONE", scenarios.Pass, safetyShd),
	}
	if reason, ok := b.Match("CARD-001.REFETCH"); !ok || reason == "" {
		t.Errorf("Match(CARD-001.REFETCH) = %q, %v", reason, ok)
	}
	got := b.Problems(checks)
	want := []string{
		`baseline entry "PROBE-002.ONE" lists PROBE-002.ONE, which now passes: remove it`,
		`baseline entry "SIG-009.X" matches no check that ran`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Problems = %q, want %q", got, want)
	}
}

func TestLoadBaselineRejects(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"not-json": "{", "no-reason": `{"A":""}`, "bad-glob": `{"[":"x"}`} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadBaseline(p); err == nil {
			t.Errorf("%s: LoadBaseline accepted %s", name, body)
		}
	}
}

func TestReportRoundTrip(t *testing.T) {
	r := &Report{Schema: Schema, Complete: true, Checks: []CheckResult{cr("A.B", scenarios.Pass, safetyMust)}}
	r.Finish(nil)
	p := filepath.Join(t.TempDir(), "r.json")
	if err := r.WriteJSON(p); err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(Score(back.Checks), r.Profiles) {
		t.Errorf("re-scored %+v, want %+v", Score(back.Checks), r.Profiles)
	}
}

// TestReportSizeIsLinearInNesting: a request body nested 10,000 deep (kept
// in the trace as the orchestrator sent it) costs the JSON report about its
// own size, not the square of its depth (indenting it did: 953 MiB for five
// such requests, measured with the hostile orchestrator).
func TestReportSizeIsLinearInNesting(t *testing.T) {
	body := strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000)
	r := &Report{Schema: Schema, Scenarios: []ScenarioResult{{ID: "CARD-001", Trace: []mockvendor.Event{{Seq: 1, Request: json.RawMessage(body)}}}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 2*len(body)+4096 {
		t.Errorf("report is %d bytes for a %d-byte body", b.Len(), len(body))
	}
}

// TestReportTraceIsBounded: a flood of large requests is kept in the report
// within its budget: the first 5,000 events, bodies within 4 MiB.
func TestReportTraceIsBounded(t *testing.T) {
	body := json.RawMessage(`"` + strings.Repeat("x", 60<<10) + `"`)
	evs := make([]mockvendor.Event, 11_000)
	for i := range evs {
		evs[i] = mockvendor.Event{Seq: int64(i + 1), Request: body}
	}
	kept, leftOut, noBody := reportTrace(evs)
	if len(kept) != reportEvents || leftOut != 6_000 {
		t.Errorf("kept %d events, left out %d; want %d and 6000", len(kept), leftOut, reportEvents)
	}
	total := 0
	for _, e := range kept {
		total += len(e.Request)
	}
	if total > reportBodyBytes || noBody != reportEvents-total/len(body) {
		t.Errorf("kept %d body bytes (%d bodies left out); budget %d", total, noBody, reportBodyBytes)
	}
	if evs[0].Request == nil {
		t.Error("reportTrace changed the run's own events")
	}
}

// TestNoUsableAnswerIsNotConformant: a run whose every delegation brought
// back nothing usable is conformant in no profile, even where every check
// it kept passed (a filter that left only checks needing no answer); one
// usable answer lifts that, and the tally says how many ended as wanted.
func TestNoUsableAnswerIsNotConformant(t *testing.T) {
	passing := []CheckResult{{ID: "X-001.A", Scenario: "X-001", Result: scenarios.Pass,
		Grades: []scenarios.Grade{{Profile: scenarios.Core, Level: scenarios.Must}, {Profile: scenarios.Safety, Level: scenarios.Must}}}}
	for _, tc := range []struct {
		name          string
		delegations   []scenarios.Delegation
		conformant    bool
		endedAsWanted int
	}{
		{"none usable", []scenarios.Delegation{{NoOutcome: "not json"}, {NoOutcome: "timeout"}}, false, 0},
		{"one usable refusal", []scenarios.Delegation{{NoOutcome: "timeout"}, {Outcome: &contract.DelegationOutcome{Outcome: contract.OutcomeRejected}}}, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{Checks: slices.Clone(passing), Scenarios: []ScenarioResult{{ID: "X-001", Delegations: tc.delegations}}}
			r.Finish(nil)
			for _, p := range scenarios.Profiles {
				if r.Profiles[p].Conformant != tc.conformant {
					t.Errorf("%s conformant %v, want %v", p, r.Profiles[p].Conformant, tc.conformant)
				}
			}
			if r.Delegations.EndedAsWanted != tc.endedAsWanted {
				t.Errorf("endedAsWanted %d, want %d", r.Delegations.EndedAsWanted, tc.endedAsWanted)
			}
		})
	}
}
