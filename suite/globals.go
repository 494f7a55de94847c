package suite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// A global requirement (G-*) is judged on every scenario's trace but is one
// requirement: the report scores it once per run, across the scenarios
// that exercised it (catalog, "Profiles and levels").

// isObservation reports whether a check result is one scenario's
// observation of a global requirement ("CARD-001.G-JSONRPC").
func isObservation(cr CheckResult) bool { return strings.Contains(cr.ID, ".G-") }

// globalID is the requirement an observation belongs to.
func globalID(cr CheckResult) string { return cr.ID[strings.Index(cr.ID, ".G-")+1:] }

// splitGlobals moves the observations among checks to their scenarios'
// Globals (scens is changed in place) and returns the other checks.
func splitGlobals(checks []CheckResult, scens []ScenarioResult) []CheckResult {
	at := map[string]int{}
	for i, sc := range scens {
		at[sc.ID] = i
	}
	var own []CheckResult
	for _, c := range checks {
		i, ok := at[c.Scenario]
		if !isObservation(c) || !ok {
			own = append(own, c)
			continue
		}
		scens[i].Globals = append(scens[i].Globals, c)
	}
	return own
}

// foldGlobals replaces the report's global results with one per
// requirement, folded from the scenarios' observations, and applies the
// baseline to them.
func (r *Report) foldGlobals(b Baseline) {
	own := r.Checks[:0:0]
	for _, c := range r.Checks {
		if !strings.HasPrefix(c.ID, "G-") {
			own = append(own, c)
		}
	}
	byID := map[string][]CheckResult{}
	for _, sc := range r.Scenarios {
		for _, o := range sc.Globals {
			byID[globalID(o)] = append(byID[globalID(o)], o)
		}
	}
	for _, g := range scenarios.GlobalChecks() {
		obs := byID[g.ID]
		if len(obs) == 0 {
			continue
		}
		cr := foldGlobal(g, obs)
		if cr.Result == scenarios.Fail {
			if reason, ok := b.Match(cr.ID); ok {
				cr.Result, cr.Waiver = scenarios.Waived, reason
			}
		}
		own = append(own, cr)
	}
	r.Checks = own
}

// foldGlobal makes one result of a requirement's observations: FAIL when a
// scenario failed it (naming each, with its detail), else PASS when one
// exercised it, else ERROR, else NOT_APPLICABLE where a scenario reached
// the situation and found it does not apply to this orchestrator, else
// NOT_EXERCISED, UNIMPLEMENTED or NOT_APPLICABLE (no scenario holds the
// situation), in that order.
func foldGlobal(g scenarios.Check, obs []CheckResult) CheckResult {
	first := obs[0]
	cr := CheckResult{
		ID: g.ID, Title: first.Title, Profile: first.Profile, Level: first.Level, Grades: first.Grades,
		Clause: first.Clause, Source: first.Source, Sources: first.Sources, Fix: first.Fix,
		Exempt: commonExempt(obs),
	}
	by := map[scenarios.Outcome][]CheckResult{}
	for _, o := range obs {
		by[o.Result] = append(by[o.Result], o)
	}
	for _, o := range append(by[scenarios.Pass], by[scenarios.Fail]...) {
		cr.Covered = append(cr.Covered, o.Scenario)
	}
	// pick decides the result; the observation that decided it (if any)
	// lends its scenario, event, transcript and expected/actual.
	pick := func(res scenarios.Outcome, decided *CheckResult, detail string) CheckResult {
		cr.Result, cr.Detail = res, contract.ClipText(detail, MaxFoldedText)
		if decided != nil {
			cr.Scenario, cr.Seq, cr.Trace = decided.Scenario, decided.Seq, decided.Trace
			cr.Expected, cr.Actual = decided.Expected, decided.Actual
		}
		return cr
	}
	engagedNA := slices.IndexFunc(by[scenarios.NotApplicable], func(o CheckResult) bool { return o.Engaged })
	switch {
	case len(by[scenarios.Fail]) > 0:
		var parts []string
		for _, o := range by[scenarios.Fail] {
			parts = append(parts, o.Scenario+": "+o.Detail)
		}
		return pick(scenarios.Fail, &by[scenarios.Fail][0], fmt.Sprintf("failed in %d of %d scenarios that exercised it: %s", len(by[scenarios.Fail]), len(cr.Covered), strings.Join(parts, "; ")))
	case len(by[scenarios.Pass]) > 0:
		d := fmt.Sprintf("held in all %d scenarios that exercised it (%s)", len(by[scenarios.Pass]), strings.Join(cr.Covered, ", "))
		if n := len(obs) - len(by[scenarios.Pass]); n > 0 {
			d += fmt.Sprintf("; %d did not exercise it", n)
		}
		if e := by[scenarios.Error]; len(e) > 0 {
			d += fmt.Sprintf("; harness error in %d", len(e))
		}
		return pick(scenarios.Pass, nil, d)
	case len(by[scenarios.Error]) > 0:
		return pick(scenarios.Error, &by[scenarios.Error][0], fmt.Sprintf("harness error in %d scenarios: %s", len(by[scenarios.Error]), by[scenarios.Error][0].Detail))
	case engagedNA >= 0:
		o := by[scenarios.NotApplicable][engagedNA]
		return pick(scenarios.NotApplicable, &o, o.Detail)
	case len(by[scenarios.NotExercised]) > 0:
		o := by[scenarios.NotExercised][0]
		return pick(scenarios.NotExercised, &o, "no scenario exercised it: "+o.Detail)
	case len(by[scenarios.Unimplemented]) > 0:
		o := by[scenarios.Unimplemented][0]
		return pick(scenarios.Unimplemented, &o, o.Detail)
	}
	return pick(scenarios.NotApplicable, &first, first.Detail)
}

// commonExempt are the profiles every observation of a global is exempt
// in, with the first observation's reason: a grade no scenario applied
// (an a2a-core grade A2A 0.3 does not ask of a 0.3-only orchestrator, which
// every observation judges by the whole run's speech) does not apply to
// the folded result either. Nil when there are none.
func commonExempt(obs []CheckResult) map[scenarios.Profile]string {
	var out map[scenarios.Profile]string
	for p, why := range obs[0].Exempt {
		if !slices.ContainsFunc(obs, func(o CheckResult) bool { _, ok := o.Exempt[p]; return !ok }) {
			if out == nil {
				out = map[scenarios.Profile]string{}
			}
			out[p] = why
		}
	}
	return out
}
