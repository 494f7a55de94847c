package suite

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/scenarios"
)

// What the orchestrator speaks (the A2A versions, and the bindings) is what
// its hello declared plus what the whole run saw it send, never one
// scenario's calls alone: a client that speaks 1.0 everywhere else and
// takes a hybrid card's 0.3 url is a 1.0 client there. A check whose judge
// reads it (scenarios.Run.ReadsSpeech) is judged for every set of versions
// the run may turn out to show (Alternatives); the report takes the one
// for the whole run's (resolveSpeech) whenever it is finished: at the end
// of a run, after each scenario for a partial report, when shards are
// merged and when a saved report is re-scored.

// RunSpeaks is what the scenarios of a report show the orchestrator
// speaking: each hello's declaration and each scenario's calls.
func RunSpeaks(scens []ScenarioResult) scenarios.Speaks {
	var sp scenarios.Speaks
	for _, sc := range scens {
		sp = sp.Union(scenarios.FromHello(helloOf(sc.Hello)))
		if sc.Spoke != nil {
			sp = sp.Union(*sc.Spoke)
		}
	}
	return sp
}

// resolveSpeech sets Speaks from the scenarios and gives every check (and
// every global's observation) with Alternatives the result for it, the
// baseline applied to a scenario check's FAIL.
func (r *Report) resolveSpeech(b Baseline) {
	sp := RunSpeaks(r.Scenarios)
	r.Speaks = nil
	if sp.Known() || len(sp.Bindings) > 0 {
		r.Speaks = &sp
	}
	for i := range r.Checks {
		if r.Checks[i].resolve(sp.Key()) && !isObservation(r.Checks[i]) {
			applyWaiver(&r.Checks[i], b)
		}
	}
	for i := range r.Scenarios {
		for j := range r.Scenarios[i].Globals {
			r.Scenarios[i].Globals[j].resolve(sp.Key())
		}
	}
}

// applyWaiver judges a FAIL or WAIVED check against b again.
func applyWaiver(c *CheckResult, b Baseline) {
	if c.Result != scenarios.Fail && c.Result != scenarios.Waived {
		return
	}
	if reason, ok := b.Match(c.ID); ok {
		c.Result, c.Waiver = scenarios.Waived, reason
	} else {
		c.Result, c.Waiver = scenarios.Fail, ""
	}
}

// resolve takes the alternative judged for the versions key; it reports
// whether the check has alternatives.
func (c *CheckResult) resolve(key string) bool {
	if len(c.Alternatives) == 0 {
		return false
	}
	i := slices.IndexFunc(c.Alternatives, func(a Alternative) bool { return slices.Contains(a.For, key) })
	if i < 0 {
		return true // a set no alternative was judged for: keep what is there
	}
	a := c.Alternatives[i]
	c.Result, c.Detail, c.Expected, c.Actual, c.Seq, c.Needs = a.Result, a.Detail, a.Expected, a.Actual, a.Seq, a.Needs
	c.Exempt, c.Profile, c.Level, c.Trace, c.Waiver = maps.Clone(a.Exempt), a.Profile, a.Level, slices.Clone(a.Trace), ""
	return true
}

// alternative is the part of cr that an alternative holds.
func (cr CheckResult) alternative(key string) Alternative {
	return Alternative{For: []string{key}, Result: cr.Result, Detail: cr.Detail, Expected: cr.Expected, Actual: cr.Actual, Seq: cr.Seq,
		Needs: cr.Needs, Exempt: cr.Exempt, Profile: cr.Profile, Level: cr.Level, Trace: cr.Trace}
}

// score computes the scorecard and names, in a2a-core's, the versions it
// judged.
func (r *Report) score() {
	r.Profiles = Score(r.Checks)
	if ps, ok := r.Profiles[scenarios.Core]; ok && r.Speaks != nil {
		ps.Versions = slices.Clone(r.Speaks.Versions)
		r.Profiles[scenarios.Core] = ps
	}
}

// Rescore judges a saved report again as its run would be judged at its
// end: each check with Alternatives takes the result for what the whole
// run showed the orchestrator speaking, the baseline is applied again and
// the report is scored.
func (r *Report) Rescore() { r.Finish(r.Baseline) }

// helloOf is the contract hello an Orchestrator record holds.
func helloOf(o Orchestrator) contract.Hello {
	return contract.Hello{ProtocolVersions: o.ProtocolVersions, Bindings: o.Bindings}
}

// NotAppliedGrade is a grade of a check that does not apply to this run,
// with the reason (CheckResult.Exempt), as the JSON report lists it apart
// from the grades that apply.
type NotAppliedGrade struct {
	scenarios.Grade
	Why string `json:"why"`
}

// checkResultFields is CheckResult without its methods, for the JSON
// encoding.
type checkResultFields CheckResult

// checkResultJSON is a check result as the JSON report holds it: grades
// lists only the grades that apply to this run, gradesNotApplied the
// others with the reason, so that no reader takes a grade whose condition
// the run did not meet (or that needs a version the orchestrator does not
// speak) for one that applies.
type checkResultJSON struct {
	checkResultFields
	Grades           []scenarios.Grade `json:"grades"`
	GradesNotApplied []NotAppliedGrade `json:"gradesNotApplied,omitempty"`
}

// MarshalJSON writes the grades that apply to the run apart from those
// that do not (checkResultJSON).
func (cr CheckResult) MarshalJSON() ([]byte, error) {
	out := checkResultJSON{checkResultFields: checkResultFields(cr), Grades: []scenarios.Grade{}}
	for _, g := range cr.Grades {
		if why, exempt := cr.Exempt[g.Profile]; exempt {
			out.GradesNotApplied = append(out.GradesNotApplied, NotAppliedGrade{Grade: g, Why: why})
		} else {
			out.Grades = append(out.Grades, g)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the report's own encoder (reportEncoder)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON wrote: the check's grades are both
// lists (those that did not apply last), so that a merge or a re-score
// can judge them again.
func (cr *CheckResult) UnmarshalJSON(b []byte) error {
	var in checkResultJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*cr = CheckResult(in.checkResultFields)
	cr.Grades = in.Grades
	for _, g := range in.GradesNotApplied {
		cr.Grades = append(cr.Grades, g.Grade)
	}
	return nil
}
